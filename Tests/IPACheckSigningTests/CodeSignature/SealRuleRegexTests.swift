import Foundation
import IPACheckArchive
import IPACheckPlist
import IPACheckTestSupport
import Testing

@testable import IPACheckBundle
@testable import IPACheckSigning

/// The seal-rule matcher: it agrees with NSRegularExpression (ICU, the engine it replaces; used here only as the
/// oracle) on what it accepts, refuses the rest with a reason, and never takes more than its step bound.
struct SealRuleRegexTests {
    /// codesign's standard resource rules (iOS and macOS `rules`/`rules2`, as in the corpus seals), plus rules
    /// Apple's own tools write for receipts and debug symbols.
    static let appleRules = [
        "^", "^.*", "^.*\\.lproj/", "^.*\\.lproj/locversion.plist$", "^Base\\.lproj/", "^version.plist$",
        "^version\\.plist$", "^(.*/)?\\.DS_Store$", "^[^/]+$",
        "^(Frameworks|SharedFrameworks|PlugIns|Plug-ins|XPCServices|Helpers|MacOS|Library/(Automator|Spotlight|"
            + "LoginItems))/",
        "^Info\\.plist$", "^PkgInfo$", "^embedded\\.provisionprofile$", "^.*\\.dSYM($|/)", ".*\\.dSYM($|/)",
        "^_MASReceipt/receipt$", "^Resources/", "^Resources/.*\\.lproj/", "^Resources/.*\\.lproj/locversion.plist$",
        "^Resources/Base\\.lproj/", "^_CodeSignature/",
    ]

    /// Every construct the matcher supports, alone and combined.
    static let syntaxRules = [
        "a", "ab|cd", "a|", "|a", "(a|b)c", "(?:ab)+", "(?:ab)*c", "a?b", "a*?", "a+?b", "a??", "a{2}",
        "a{2,}", "a{1,3}$", "^a{0}$", "^a{0,1}b", "^(ab){2,3}$", "x{1,2}?y", "[a-c]+", "[^/]+$", "[^a-z]", "[-a]",
        "[a-]", "[^-]", "[\\]]", "[\\-a]", "[.$|()*+?^]", "[é-ü]", "[ab]", "[c-ea-d]", "[zyx-]", "[a-cb-dx]+",
        "[^a-cd-f]$", "[ba]$", "\\.", "\\/", "\\\\", "\\$", "\\^",
        "\\(", "\\)", "\\[", "\\{", "\\}", "\\*", "\\+", "\\?", "\\|", "\\-", "\\ ", "\\#", ".", "^.$", "^..$", "$",
        "^$", "a$", "^a$", "a$b", "($)", "(^a)", "^(a|$)", "()", "(?:)", "(())", "()*", "(a*)*", "(a*)+b", "(a|)*$",
        "((a))", "(?:(?:a))", "é", "😀", "^😀$", "^.\\.$", "a.b", " ", "#", "a b", "/", "-", ",", "a,b", "a:b",
        "a=b", "]", "a]", "[a]]", "!", "'", "\"", "%", "@", "~", "`", "&", "[&]", "[a&b]", ";", "<", ">", "_",
    ]

    /// Paths to try: the shapes bundles have, line terminators (which `.` and `$` treat specially), and non-ASCII.
    static let samplePaths: [String] = {
        var paths = [
            "", "a", "b", "ab", "abc", "aab", "abab", "ababab", "cd", "ac", "bc", "aaa", "aaaa", "x", "xy", "xxy",
            "Info.plist", "Info.plist\n", "Info.plist\r\n", "Info.plist\r", "Info.plist\n\n", "Info.plist\u{2028}",
            "Info.plist\u{85}", "Info.plist\u{0B}", "Info.plist\u{0C}", "Info.plist\u{2029}", "Info.plist\r\r",
            "Info.plist\n\r", "Infoxplist", "PkgInfo", "PkgInfo/x", "a/Info.plist", "version.plist", "versionXplist",
            "embedded.provisionprofile", "en.lproj/Main.nib", "en.lproj/locversion.plist", "Base.lproj/Main.nib",
            "a/b/fr.lproj/locversion.plist", ".DS_Store", "a/.DS_Store", "a/b/.DS_Store", "a.DS_Store", ".DS_Store\n",
            "Frameworks/X.framework/X", "PlugIns/Ext.appex/Ext", "Plug-ins/x", "Library/Spotlight/x", "Library/x",
            "x.dSYM", "x.dSYM/Contents", "x.dSYMs", "a/b.dSYM", "_MASReceipt/receipt", "_MASReceipt/receipt2",
            "Resources/a", "Resources/en.lproj/x", "Resources/Base.lproj/x", "_CodeSignature/CodeResources",
            "\n", "\r\n", "a\n", "a\r\n", "a\nb", "\u{2028}", "é", "ü", "ñ", "😀", "a😀", "😀\n", ".", "a.b", "a\nb",
            "-", "]", ".$|()*+?^", "[", "\\", "$", "^", "(", ")", "{", "}", "*", "+", "?", "|", " ", "#", "a b", "/",
            "//", "a/", "/a", "a,b", "a:b", "a=b", "&", "a&b",
        ]
        // Short random strings over an alphabet that exercises every construct above.
        let alphabet: [String] = ["a", "b", "c", "x", "y", "/", ".", "-", "\n", "\r", "é", "😀", "$", "]"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<400 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var path = ""
            for _ in 0..<Int((state >> 33) % 7) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                path += alphabet[Int((state >> 33) % UInt64(alphabet.count))]
            }
            paths.append(path)
        }
        return paths
    }()

    static func oracle(_ pattern: String, _ path: String) throws -> Bool {
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
    }

    static func search(_ regex: SealRuleRegex, _ path: String) -> SealRuleRegex.Outcome {
        var budget = Int.max
        return regex.search(Array(path.unicodeScalars), budget: &budget)
    }

    @Test(arguments: appleRules + syntaxRules)
    func agreesWithNSRegularExpression(_ pattern: String) throws {
        let regex = try SealRuleRegex(pattern)
        for path in Self.samplePaths {
            let expected = try Self.oracle(pattern, path)
            #expect(
                Self.search(regex, path) == (expected ? .match : .noMatch),
                "\(pattern.debugDescription) on \(path.debugDescription): NSRegularExpression says \(expected)"
            )
        }
    }

    /// Syntax outside the supported subset, or over a cap: refused, with a reason naming the problem.
    @Test(arguments: [
        ("", "empty"), ("\\d", "escape"), ("\\w+", "escape"), ("\\bfoo", "escape"), ("(a)\\1", "escape"),
        ("\\p{L}", "escape"),
        ("\\Q.\\E", "escape"), ("\\x41", "escape"), ("\\u00e9", "escape"), ("\\é", "escape"), ("\\", "lone"),
        ("(?i)info", "(?"), ("(?=a)", "(?"), ("(?!a)", "(?"), ("(?<=a)b", "(?"), ("(?<n>a)", "(?"), ("(?>a)", "(?"),
        ("(?#c)", "(?"), ("a*+", "quantifier"), ("a++", "quantifier"), ("a?+", "quantifier"), ("a**", "quantifier"),
        ("a{2}{3}", "quantifier"), ("a*??", "quantifier"), ("[[:alpha:]]", "class"), ("[:alpha:]", "class"),
        ("[a&&b]", "intersection"), ("[a--b]", "class"), ("[a-b-c]", "class"), ("[{ab}]", "class"), ("[]a]", "class"),
        ("[z-a]", "range"), ("[a", "not closed"), ("(a", "not closed"), ("a)", "closes no group"), ("*a", "nothing"),
        ("a|*", "nothing"), ("{1}", "nothing"), ("a{", "interval"), ("a{,2}", "interval"), ("a{x}", "interval"),
        ("a{3,2}", "maximum below"), ("a{1001}", "1000"), ("^*", "anchor"), ("$+", "anchor"),
        ("a}", "unescaped"), (String(repeating: "(", count: 33) + "a" + String(repeating: ")", count: 33), "nested"),
        ("(?:a{1000}){5}", "instructions"), (String(repeating: "a", count: 1_025), "longer"),
    ])
    func refusesWithAReason(_ pattern: String, _ reasonFragment: String) {
        do {
            _ = try SealRuleRegex(pattern)
            Issue.record("accepted \(pattern)")
        } catch {
            #expect(error.reason.contains(reasonFragment), "\(pattern): \(error.reason)")
        }
    }

    /// What ICU rejects is never accepted: the old code dropped an invalid rule, and so must the new one.
    @Test func refusesEveryPatternNSRegularExpressionRejects() {
        let invalid = [
            "", "(", ")", "[", "a{3,2}", "*a", "[z-a]", "\\", "a{", "(?", "[]", "+", "?", "a|*", "(*)", "a)b",
        ]
        for pattern in invalid {
            #expect((try? NSRegularExpression(pattern: pattern)) == nil, "ICU accepts \(pattern)")
            #expect((try? SealRuleRegex(pattern)) == nil, "accepted \(pattern)")
        }
    }

    /// Random patterns over the syntax's own characters: whatever the matcher accepts, ICU accepts too and agrees
    /// with on every sample path; whatever ICU rejects, the matcher refuses.
    @Test func randomPatternsAgreeWithNSRegularExpression() throws {
        let pieces: [String] = [
            "a", "b", "/", ".", "^", "$", "(", ")", "(?:", "|", "*", "+", "?", "{1}", "{0,2}", "{2,}", "[", "]", "[^",
            "-", "\\.", "\\/", "\\", "{", "}", ",", "1", "é", "\n",
        ]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func nextRandom(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var accepted = 0
        for _ in 0..<3_000 {
            var pattern = ""
            for _ in 0..<(1 + nextRandom(6)) { pattern += pieces[nextRandom(pieces.count)] }
            let oracle = try? NSRegularExpression(pattern: pattern)
            guard let regex = try? SealRuleRegex(pattern) else { continue }
            guard let oracle else {
                Issue.record("\(pattern.debugDescription) is accepted, but ICU rejects it")
                continue
            }
            accepted += 1
            for path in Self.samplePaths {
                let expected = oracle.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
                #expect(Self.search(regex, path) == (expected ? .match : .noMatch), "\(pattern) \(path)")
            }
        }
        // The generator must reach the matcher, or this proves nothing.
        #expect(accepted > 500)
    }

    /// The catastrophic case for a backtracking engine: nested `+` against a long run that fails at its end.
    ///
    /// NSRegularExpression needs about 2^n steps here; the matcher stays under its bound of 2 steps per
    /// instruction and position.
    @Test(arguments: [30, 10_000])
    func nestedQuantifiersStayWithinTheStepBound(runLength: Int) throws {
        let regex = try SealRuleRegex("^(a+)+$")
        let failing = Array(String(repeating: "a", count: runLength).unicodeScalars) + ["b"]
        let bound = 2 * regex.programSize * (failing.count + 1)
        var budget = bound
        #expect(regex.search(failing, budget: &budget) == .noMatch)
        #expect(budget >= 0)
        budget = bound
        #expect(regex.search(Array(failing.dropLast()), budget: &budget) == .match)
    }

    /// An unanchored rule is tried at every position of the path, still within the same bound.
    @Test func unanchoredSearchStaysWithinTheStepBound() throws {
        let regex = try SealRuleRegex("(x+x+)+y")
        let path = Array(String(repeating: "x", count: 5_000).unicodeScalars)
        let bound = 2 * regex.programSize * (path.count + 1)
        var budget = bound
        #expect(regex.search(path, budget: &budget) == .noMatch)
        budget = bound
        #expect(regex.search(path + ["y"], budget: &budget) == .match)
    }

    /// A budget too small for the answer says so instead of guessing.
    @Test func exhaustedBudgetIsReported() throws {
        let regex = try SealRuleRegex(".*.*.*z")
        var budget = 50
        #expect(regex.search(Array(String(repeating: "a", count: 100).unicodeScalars), budget: &budget) == .outOfSteps)
        #expect(budget == 0)
    }

    /// Counted repetition at its caps compiles within the program cap (and one over it is refused, above).
    @Test func countedRepetitionAtTheCapsCompiles() throws {
        let regex = try SealRuleRegex("^a{1000}$")
        #expect(regex.programSize == 1_003)
        #expect(Self.search(regex, String(repeating: "a", count: 1_000)) == .match)
        #expect(Self.search(regex, String(repeating: "a", count: 999)) == .noMatch)
        #expect(Self.search(regex, String(repeating: "a", count: 1_001)) == .noMatch)
    }

    /// Every rule of every seal in the corpus (the ipas' seals read with IPAFile, and the standalone CodeResources
    /// files) compiles, and agrees with NSRegularExpression on every path of its bundle and on the sample paths.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func corpusSealRulesAgreeWithNSRegularExpression() throws {
        var seals: [(name: String, bytes: [UInt8], paths: [String])] = []
        let folder = Corpus.url("ipa")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            guard let ipa = try? IPAFile(path: folder.appendingPathComponent(name).path) else { continue }
            for bundle in ipa.bundles {
                guard let member = bundle.codeResources, let bytes = try? ipa.read(member) else { continue }
                seals.append((name, bytes, ipa.files(of: bundle)))
            }
        }
        for name in ["macho/fastlane_very-capable-app_CodeResources", "macho/isign_Test.app_CodeResources"] {
            seals.append((name, try Corpus.bytes(name), []))
        }
        // python3 zipfile: the corpus ipas hold 7 _CodeSignature/CodeResources under Payload/; the corpus's
        // .xcarchive (a folder, read as its app) 1 (find -name CodeResources); 2 more stand alone.
        #expect(seals.count == 10)
        var rulesTried = 0
        for seal in seals {
            let plist = try PlistParser.parse(seal.bytes)
            let parsed = try ResourceSeal.parse(seal.bytes)
            #expect(parsed.unevaluatedOmitRules.isEmpty, "\(seal.name): \(parsed.unevaluatedOmitRules)")
            for key in ["rules", "rules2"] {
                for pattern in (plist[key]?.dictionaryValue ?? [:]).keys.sorted() {
                    let regex = try SealRuleRegex(pattern)
                    rulesTried += 1
                    for path in seal.paths + Self.samplePaths {
                        let expected = try Self.oracle(pattern, path)
                        let found = Self.search(regex, path)
                        #expect(found == (expected ? .match : .noMatch), "\(seal.name) \(pattern) \(path)")
                    }
                }
            }
        }
        // python3 plistlib over the same seals: 165 rules in all (rules and rules2 together; the .xcarchive's 18).
        #expect(rulesTried == 165)
    }
}
