/// Text that came from an input (an ipa, a server, a file), made safe to print: no control character or bidi
/// override reaches a terminal, a CI log or an annotation.
///
/// C0 controls (except line feed, which reports use for their own layout), DEL, C1 controls and the Unicode bidi
/// controls (which can make a line read differently than it is, CVE-2021-42574) are written as visible
/// `\u{…}` escapes instead.
public enum UntrustedText {
    /// `text` with every control and bidi override written as a visible escape; line feeds kept.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` on one line: as ``visible(_:)``, with line feeds escaped too.
    public static func visibleOnOneLine(_ text: String) -> String {
        visible(text).split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
    }

    /// Whether a scalar must not reach a terminal as it is.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
