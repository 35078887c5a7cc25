import IPACheckReport
import Testing

@testable import IPACheckAASA

/// Finding `$(name)` references in patterns: the meaning docs/matching.md gives them (`$(` up to the first `)`; a `$(` with no
/// `)` after it is literal), in time linear in the pattern however many `$(` it holds.
struct PatternCompilerTests {
    /// The scan as first written, one search for `)` per `$(`: the reference the linear scan must agree with.
    static func referenceScan(_ pattern: String) -> (names: [String], unterminated: Bool) {
        let scalars = Array(pattern.unicodeScalars)
        var names: [String] = []
        var unterminated = false
        var index = 0
        while index < scalars.count {
            if scalars[index] == "$", index + 1 < scalars.count, scalars[index + 1] == "(" {
                if let close = scalars[(index + 2)...].firstIndex(of: ")") {
                    names.append(String(String.UnicodeScalarView(scalars[(index + 2)..<close])))
                    index = close + 1
                    continue
                }
                unterminated = true
            }
            index += 1
        }
        return (names, unterminated)
    }

    @Test(arguments: [
        "/$(lang)_$(region)/$(food)/", "$(a$(b)", "$(x)$(", "$()", "$($(", "x)$(y", "$(a))", "$", "$(", "(", ")$(",
        "$$((a)", "$(é)$(😀)", "a$(b)c$(d", "$(a)$(b)$(c)",
    ])
    func findsWhatTheReferenceScanFinds(_ pattern: String) {
        let expected = Self.referenceScan(pattern)
        #expect(PatternCompiler.variableReferences(in: pattern) == expected.names)
        #expect(PatternCompiler.hasUnterminatedVariable(pattern) == expected.unterminated)
    }

    @Test func randomPatternsScanLikeTheReference() {
        let pieces = ["$", "(", ")", "$(", "a", "*", "?", "é"]
        var state: UInt64 = 0x5851_F42D_4C95_7F2D
        for _ in 0..<2_000 {
            var pattern = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for _ in 0..<Int((state >> 33) % 12) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                pattern += pieces[Int((state >> 33) % UInt64(pieces.count))]
            }
            let expected = Self.referenceScan(pattern)
            #expect(PatternCompiler.variableReferences(in: pattern) == expected.names, "\(pattern)")
            #expect(PatternCompiler.hasUnterminatedVariable(pattern) == expected.unterminated, "\(pattern)")
        }
    }
}
