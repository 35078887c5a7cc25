import Testing

@testable import IPACheckSigning

/// The streaming search finds exactly what a plain scan of the whole executable finds, wherever the chunks split it.
struct BinaryStringsTests {
    /// The reference: every start position compared, nothing skipped.
    private static func occurs(_ needle: String, in bytes: [UInt8]) -> Bool {
        let pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count else { return false }
        return (0...(bytes.count - pattern.count)).contains { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }

    @Test(arguments: [1, 3, 7, 64, 4096])
    func findsWhatAPlainScanFinds(chunk: Int) {
        let needles = ["universal_links", "oauth-redirect", "aaab"]
        // First bytes repeated before a match (memchr's candidates that fail), matches at the very start and end,
        // a near miss cut by the end of the input.
        let cases: [[UInt8]] = [
            Array("universal_links....aaaaab".utf8),
            Array("xx oauth-redirec oauth-redirect".utf8),
            Array("aaaaaaaaaaaaaaaaaaaaaaaaaaaaab".utf8),
            Array("aaa".utf8),
            [0, 0xff, 0x61, 0x61, 0x61, 0] + Array("universal_link".utf8),
            [],
        ]
        for bytes in cases {
            var search = StringSearch(needles)
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                search.consume(bytes[start..<min(start + chunk, bytes.count)])
            }
            #expect(search.found == Set(needles.filter { Self.occurs($0, in: bytes) }), "in \(bytes)")
        }
    }

    @Test func pseudoRandomInputsAgreeWithThePlainScan() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<300 {
            var bytes: [UInt8] = []
            for _ in 0..<200 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(UInt8(ascii: "a") + UInt8(truncatingIfNeeded: state >> 62))
            }
            let needles = ["abca", "dddd", "abcdabcd", "cab"]
            var search = StringSearch(needles)
            for start in stride(from: 0, to: bytes.count, by: 13) {
                search.consume(bytes[start..<min(start + 13, bytes.count)])
            }
            #expect(search.found == Set(needles.filter { Self.occurs($0, in: bytes) }))
        }
    }
}
