import Foundation

/// RFC 3492 Punycode and the IDNA `ToASCII` step ipacheck needs: an internationalized host in an entitlement
/// and the host of a URL must compare as the same lower-case A-label (`bücher.example` → `xn--bcher-kva.example`).
///
/// Only encoding is implemented; nothing in ipacheck decodes A-labels.
package enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 0x80
    /// The longest label accepted (DNS allows 63 octets; this leaves room to report what is too long).
    private static let maximumInputScalars = 256

    /// Encodes a string's Unicode scalars as Punycode (RFC 3492 §6.3), without the `xn--` prefix.
    ///
    /// Basic (ASCII) code points are copied as they are, case included. Returns `nil` on overflow, which only
    /// absurdly long inputs reach, or for input longer than 256 scalars.
    package static func encode(_ input: String) -> String? {
        let scalars = input.unicodeScalars.map { Int($0.value) }
        guard scalars.count <= maximumInputScalars else { return nil }
        var output: [UInt8] = scalars.filter { $0 < initialN }.map { UInt8($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }

        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < scalars.count {
            guard let next = scalars.filter({ $0 >= n }).min() else { return nil }
            let (product, overflowA) = (next - n).multipliedReportingOverflow(by: handled + 1)
            let (sum, overflowB) = delta.addingReportingOverflow(product)
            guard !overflowA, !overflowB else { return nil }
            delta = sum
            n = next
            for scalar in scalars {
                if scalar < n {
                    delta += 1
                }
                if scalar == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta: delta, points: handled + 1, first: handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// IDNA `ToASCII` for a host name, as needed to compare hosts: lower-cases, applies NFC, maps the ideographic
    /// full stops to `.`, and encodes each non-ASCII label as `xn--` + Punycode.
    ///
    /// Returns `nil` when a label cannot be encoded. This is not full UTS #46 (no mapping table, no bidi
    /// rules); it is what makes `München.de` and `xn--mnchen-3ya.de` compare equal.
    package static func toASCII(host: String) -> String? {
        let normalized = host.precomposedStringWithCanonicalMapping.lowercased()
        let dots: Set<Character> = [".", "\u{3002}", "\u{FF0E}", "\u{FF61}"]
        let labels = normalized.split(omittingEmptySubsequences: false, whereSeparator: { dots.contains($0) })
        var encoded: [String] = []
        for label in labels {
            if label.unicodeScalars.allSatisfy(\.isASCII) {
                encoded.append(String(label))
            } else {
                guard let punycode = encode(String(label)) else { return nil }
                encoded.append("xn--" + punycode)
            }
        }
        return encoded.joined(separator: ".")
    }

    private static func digit(_ value: Int) -> UInt8 {
        // 0–25 → a–z, 26–35 → 0–9
        value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
    }

    private static func adapt(delta: Int, points: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / points
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
