import Crypto
package import IPACheckBinary

/// The digests of one file that seals compare with: SHA-1 (CodeResources `hash`, old CodeDirectories) and
/// SHA-256 (CodeResources `hash2`, current CodeDirectories), each only when some seal asked for it.
package struct FileDigests: Hashable, Sendable {
    /// SHA-1 of the file, if computed.
    package var sha1: [UInt8]?
    /// SHA-256 of the file, if computed.
    package var sha256: [UInt8]?
    /// The file's size in bytes.
    package var size: Int

    /// Digests of bytes already in memory (both algorithms).
    package init(of bytes: some Collection<UInt8>) {
        var digester = FileDigester(kinds: [.sha1, .sha256])
        digester.update(Array(bytes)[...])
        self = digester.finish()
    }

    package init(sha1: [UInt8]?, sha256: [UInt8]?, size: Int) {
        self.sha1 = sha1
        self.sha256 = sha256
        self.size = size
    }

    /// The digest a CodeDirectory of `type` stores for this file, or `nil` when it was not computed (or the hash
    /// type is one the stream does not compute, SHA-384).
    package func digest(for type: CodeSignHashType) -> [UInt8]? {
        switch type {
        case .sha1: sha1
        case .sha256: sha256
        case .sha256Truncated: sha256.map { Array($0.prefix(20)) }
        case .sha384: nil
        }
    }
}

/// The digest algorithms a seal asks for.
package enum DigestKind: Hashable, Sendable, CaseIterable {
    /// SHA-1.
    case sha1
    /// SHA-256.
    case sha256
}

/// Computes ``FileDigests`` over bytes that arrive in pieces.
package struct FileDigester {
    private var sha1: Insecure.SHA1?
    private var sha256: SHA256?
    private var size = 0

    /// A digester computing the given algorithms.
    package init(kinds: Set<DigestKind>) {
        sha1 = kinds.contains(.sha1) ? Insecure.SHA1() : nil
        sha256 = kinds.contains(.sha256) ? SHA256() : nil
    }

    /// Feeds the next bytes.
    package mutating func update(_ bytes: ArraySlice<UInt8>) {
        sha1?.update(data: bytes)
        sha256?.update(data: bytes)
        size += bytes.count
    }

    /// The digests of everything fed.
    package func finish() -> FileDigests {
        FileDigests(
            sha1: sha1.map { Array($0.finalize()) },
            sha256: sha256.map { Array($0.finalize()) },
            size: size
        )
    }
}
