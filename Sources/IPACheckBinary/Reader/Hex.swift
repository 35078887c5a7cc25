/// Bytes as hexadecimal text: the one encoder for digests, cdhashes, fingerprints and serial numbers.
package enum Hex {
    /// Two digits a byte, lower case by default (as `codesign -d` prints cdhashes), upper case for certificate
    /// fingerprints and serial numbers (as `security` prints them).
    package static func encode(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
