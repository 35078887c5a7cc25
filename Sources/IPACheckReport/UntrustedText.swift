/// Text that came from an input (an ipa, a server, a file), made safe to print: no control character or bidi
/// override reaches a terminal, a CI log or an annotation.
///
/// C0 controls (except line feed, which reports use for their own layout), DEL, C1 controls, the Unicode bidi
/// controls (which can make a line read differently than it is, CVE-2021-42574) and the invisible zero-width space,
/// word joiner and byte order mark (U+200B, U+2060, U+FEFF: a host or a file start that looks like another, and a
/// BOM some JSON readers drop from a string) are written as visible `\u{…}` escapes instead.
package enum UntrustedText {
    /// `text` with every control and bidi override written as a visible escape; line feeds kept.
    package static func visible(_ text: String) -> String {
        replacingUnsafe(in: text, keeping: []) { hex in "\\u{" + hex + "}" }
    }

    /// `text` on one line: as ``visible(_:)``, with line feeds escaped too.
    package static func visibleOnOneLine(_ text: String) -> String {
        visible(text).split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
    }

    /// JSON text with every control character and bidi override written as a JSON `\uXXXX` escape.
    ///
    /// Encoders escape C0 controls inside strings themselves, but pass C1 controls and bidi overrides through;
    /// those only ever stand inside strings, so the JSON means the same and shows the same on a terminal. Line
    /// feeds (the pretty printer's layout) are kept.
    package static func escapedInJSON(_ json: String) -> String {
        replacingUnsafe(in: json, keeping: []) { hex in
            "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
    }

    /// An XML document (a property list as `codesign` prints it) with every control character and bidi override
    /// written as a character reference (`&#x1B;`); tabs and line feeds, its own layout, are kept.
    package static func escapedInXML(_ xml: String) -> String {
        replacingUnsafe(in: xml, keeping: ["\t"]) { hex in "&#x" + hex + ";" }
    }

    private static func replacingUnsafe(
        in text: String,
        keeping kept: Set<Unicode.Scalar>,
        with escape: (String) -> String
    ) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0) && !kept.contains($0) }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) && !kept.contains(scalar) {
                out += escape(String(scalar.value, radix: 16, uppercase: true))
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether a scalar must not reach a terminal as it is.
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0x200B, 0x2060, 0xFEFF: true
        default: false
        }
    }
}
