import Crypto
package import IPACheckBinary

/// The digests code signatures use, computed with swift-crypto.
package enum CodeHash {
    /// The digest of `bytes` with a CodeDirectory hash type, or `nil` for an unknown type.
    ///
    /// `sha256Truncated` is SHA-256 cut to its first 20 bytes.
    package static func digest(_ type: CodeSignHashType, _ bytes: some Collection<UInt8>) -> [UInt8] {
        let data = Array(bytes)
        switch type {
        case .sha1: return Array(Insecure.SHA1.hash(data: data))
        case .sha256: return Array(SHA256.hash(data: data))
        case .sha256Truncated: return Array(Array(SHA256.hash(data: data)).prefix(20))
        case .sha384: return Array(SHA384.hash(data: data))
        }
    }
}
