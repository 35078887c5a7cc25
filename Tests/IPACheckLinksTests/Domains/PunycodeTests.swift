import Testing

@testable import IPACheckLinks

/// RFC 3492 §7.1 sample strings (A, B, C, D, L, S), cross-checked with Python's independent `punycode` codec;
/// host conversions cross-checked with Python's `idna` codec.
struct PunycodeTests {
    @Test(
        "RFC 3492 §7.1 sample strings encode as the RFC lists",
        arguments: [
            // (A) Arabic (Egyptian)
            (
                "\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}\u{0634}"
                    + "\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}",
                "egbpdaj6bu4bxfgehfvwxn"
            ),
            // (B) Chinese (simplified)
            ("\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}", "ihqwcrb4cv8a8dqg056pqjye"),
            // (C) Chinese (traditional)
            ("\u{4ED6}\u{5011}\u{7232}\u{4EC0}\u{9EBD}\u{4E0D}\u{8AAA}\u{4E2D}\u{6587}", "ihqwctvzc91f659drss3x8bo0yb"),
            // (D) Czech: basic code points keep their case
            ("Pro\u{010D}prost\u{011B}nemluv\u{00ED}\u{010D}esky", "Proprostnemluvesky-uyb24dma41a"),
            // (L) 3<nen>B<gumi><kinpachi><sensei>
            ("3\u{5E74}B\u{7D44}\u{91D1}\u{516B}\u{5148}\u{751F}", "3B-ww4c5e180e575a65lsy2b"),
            // (S) all basic code points: copied, then the delimiter
            ("-> $1.00 <-", "-> $1.00 <--"),
        ]
    )
    func rfcSamples(input: String, expected: String) {
        #expect(Punycode.encode(input) == expected)
    }

    @Test(
        "hosts convert to lower-case A-labels",
        arguments: [
            ("bücher.example", "xn--bcher-kva.example"),
            ("München.de", "xn--mnchen-3ya.de"),
            ("Example.COM", "example.com"),
            ("bücher\u{3002}example", "xn--bcher-kva.example"),
        ]
    )
    func hosts(input: String, expected: String) {
        #expect(Punycode.toASCII(host: input) == expected)
    }

    @Test("absurdly long labels are refused, not computed")
    func longLabel() {
        #expect(Punycode.encode(String(repeating: "ü", count: 1000)) == nil)
    }
}
