import IPACheckAASA
import IPACheckGate
import IPACheckReport
import IPACheckTestSupport
import Testing

/// The real AASA files of ../shared/corpus/aasa, judged as their MANIFEST.tsv entries describe them.
@Suite("AASA corpus", .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct CorpusTests {
    static let files = [
        "LINT_expensify-legacy-hash-path.json", "LINT_karmacall-trailing-NOT.json",
        "SUSPECT_passkey-demo-FAKETEAMID.json", "SUSPECT_wideboard-bad-webcred-appid.json", "bluesky-social-app.json",
        "chara-tasks-query-dict.json", "expensify-components.json", "flotilla.json", "gambit-golf.json",
        "knil_CATCHPLAY-unsigned-AASA.json", "knil_Facebook-signed-AASA.p7", "knil_Twitter-signed-AASA.p7",
        "prideinlondon.json", "safe-gnosis.json", "sammcb-substitution-xdigit-defaults.json", "wwdcscholars.json",
    ]

    private func load(_ name: String) throws -> (AASADocument, [Finding]) {
        try AASALinter.lint(bytes: try Corpus.bytes("aasa/\(name)"))
    }

    private func verdict(_ document: AASADocument, _ appID: String, _ url: String) -> AASAVerdict {
        document.matcher(for: appID).evaluate(url).verdict
    }

    @Test("every corpus AASA file parses", arguments: files)
    func parses(_ name: String) throws {
        let (document, findings) = try load(name)
        #expect(!document.services.isEmpty)
        // No corpus file breaks the syntax rules (AASA001–AASA007 are parse errors, never findings).
        #expect(!findings.contains { ["AASA001", "AASA002", "AASA003", "AASA004"].contains($0.rule) })
    }

    @Test("the directory holds exactly the files this suite knows")
    func inventory() throws {
        let manifest = try String(decoding: Corpus.bytes("MANIFEST.tsv"), as: UTF8.self)
        let listed = manifest.split(separator: "\n").compactMap { line -> String? in
            let file = line.split(separator: "\t").first.map(String.init) ?? ""
            return file.hasPrefix("aasa/") ? String(file.dropFirst(5)) : nil
        }
        #expect(listed.sorted() == Self.files.sorted())
    }

    @Test("knil CATCHPLAY: legacy details dictionary with three services (knil AASATests)")
    func catchplay() throws {
        let (document, findings) = try load("knil_CATCHPLAY-unsigned-AASA.json")
        #expect(Set(document.services) == [.applinks, .webcredentials, .activitycontinuation])
        #expect(document.applinks?.detailsIsDictionary == true)
        // One app in the dictionary, so the missing order does not matter: the single-app variant, a note.
        #expect(findings.contains { $0.rule == "AASA126" })
        let app = "MKK9DM2XD9.com.catchplay.AsiaPlay"
        #expect(verdict(document, app, "https://www.catchplay.com/tw/search/genre/drama") == .match)
        #expect(verdict(document, app, "https://www.catchplay.com/tw/about") == .none)
    }

    @Test("knil Facebook: CMS-signed, payload extracted (openssl asn1parse: OCTET STRING of 9977 bytes, 2 certs)")
    func facebook() throws {
        let (document, findings) = try load("knil_Facebook-signed-AASA.p7")
        #expect(document.signedEnvelope?.payload.count == 9977)
        #expect(document.signedEnvelope?.certificates.count == 2)
        #expect(findings.contains { $0.rule == "AASA011" })
        #expect(Set(document.services) == [.applinks, .webcredentials, .activitycontinuation])
        #expect(document.appIDs(for: .webcredentials).contains("T84QZS65DQ.com.facebook.Facebook"))
        #expect(
            verdict(document, "T84QZS65DQ.com.facebook.MessengerDev", "https://www.facebook.com/messenger/diode/x")
                == .match
        )
    }

    @Test("knil Twitter: CMS-signed, order-dependent NOT lists (openssl: 5366-byte payload)")
    func twitter() throws {
        let (document, findings) = try load("knil_Twitter-signed-AASA.p7")
        #expect(document.signedEnvelope?.payload.count == 5366)
        #expect(findings.contains { $0.rule == "AASA011" })
        let app = "YV88822DH9.com.twitter.dogfood.internal"
        // paths[0] is "NOT /about"; paths[33] "/settings/account" precedes paths[40] "NOT /settings/*"; the last is "/*".
        let about = document.matcher(for: app).evaluate("https://twitter.com/about")
        #expect(about.verdict == .block)
        #expect(about.rule == AASAPathRuleReference(detail: 0, component: 0))
        #expect(verdict(document, app, "https://twitter.com/settings/account") == .match)
        #expect(verdict(document, app, "https://twitter.com/settings/other") == .block)
        #expect(verdict(document, app, "https://twitter.com/jack/status/20") == .match)
        #expect(document.appIDs(for: .applinks).count == 3)
    }

    @Test("legacy single-rule files match their prefix only")
    func legacyPrefixes() throws {
        let cases: [(String, String, String, AASAVerdict)] = [
            ("wwdcscholars.json", "S2TB4FUFGQ.com.cecose.WWDCScholars", "https://x.test/s/jane", .match),
            ("wwdcscholars.json", "S2TB4FUFGQ.com.cecose.WWDCScholars", "https://x.test/about", .none),
            ("prideinlondon.json", "VZ6G7FCBVU.org.prideinlondon.festival", "https://x.test/events/parade", .match),
            ("prideinlondon.json", "VZ6G7FCBVU.org.prideinlondon.festival", "https://x.test/news", .none),
            ("gambit-golf.json", "94FZ7SF4KZ.golf.gambit.app", "https://x.test/round/9", .match),
            ("flotilla.json", "S26U9DYW3A.social.flotilla", "https://x.test/anything/at/all", .match),
            ("bluesky-social-app.json", "B3LX46C5HS.xyz.blueskyweb.app", "https://bsky.app/profile/x", .match),
            ("bluesky-social-app.json", "B3LX46C5HS.xyz.blueskyweb.other", "https://bsky.app/profile/x", .none),
        ]
        for (file, app, url, expected) in cases {
            let (document, _) = try load(file)
            #expect(verdict(document, app, url) == expected, "\(file) \(url)")
        }
    }

    @Test("safe-gnosis: six app IDs share one catch-all component")
    func gnosis() throws {
        let (document, _) = try load("safe-gnosis.json")
        let apps = document.appIDs(for: .applinks)
        #expect(apps.count == 6)
        for app in apps { #expect(verdict(document, app, "https://app.safe.global/home?x=1") == .match) }
    }

    @Test("expensify components: prefixes and the exact Plaid path; webcredentials listed")
    func expensify() throws {
        let (document, _) = try load("expensify-components.json")
        let app = "368M544MTT.com.chat.expensify.chat"
        #expect(verdict(document, app, "https://new.expensify.com/r/123") == .match)
        #expect(verdict(document, app, "https://new.expensify.com/partners/plaid/oauth_ios") == .match)
        #expect(verdict(document, app, "https://new.expensify.com/partners/plaid/oauth_android") == .none)
        #expect(document.appIDs(for: .webcredentials) == [app])
        #expect(
            document.matcher(for: app, service: .webcredentials).evaluate("https://new.expensify.com/").verdict
                == .match
        )
    }

    @Test("chara: '?' dict {token: *} also accepts a missing token (M10)")
    func chara() throws {
        let (document, findings) = try load("chara-tasks-query-dict.json")
        let app = "N2WQ73MLWJ.dev.chara.tasks.ios"
        #expect(verdict(document, app, "https://tasks.chara.dev/reset?token=abc") == .match)
        #expect(verdict(document, app, "https://tasks.chara.dev/reset") == .match)
        #expect(verdict(document, app, "https://tasks.chara.dev/other?token=abc") == .none)
        #expect(findings.filter { $0.rule == "AASA124" }.count == 5)
    }

    @Test("sammcb: $(xdigit) query values under caseSensitive false, percentEncoded false defaults")
    func sammcb() throws {
        let (document, _) = try load("sammcb-substitution-xdigit-defaults.json")
        let games = "J8P6BA4WGF.com.sammcb.GradientGames"
        let base = "https://sammcb.github.io/chesscolors/x?symbol=s&pieceLight=FFAA00&pieceDark=000000"
        #expect(verdict(document, games, base + "&squareLight=ffffff&squareDark=123abc") == .match)
        #expect(verdict(document, games, base + "&squareLight=ffffff&squareDark=12345g") == .none)
        #expect(verdict(document, games, base + "&squareLight=ffffff&squareDark=1234567") == .none)
        let theme =
            "https://sammcb.github.io/gradientgames/theme/?symbol=s&game=Reversi&pieceLight=000000"
            + "&pieceDark=000000&borders=000000&squares=000000"
        let result = document.matcher(for: games).evaluate(theme)
        #expect(result.verdict == .match)
        #expect(result.rule == AASAPathRuleReference(detail: 0, component: 4))
        let sync = "J8P6BA4WGF.com.sammcb.SyncSong"
        #expect(verdict(document, sync, "https://sammcb.github.io/syncsong/spotify-callback/?code=a&state=b") == .match)
        #expect(verdict(document, sync, "https://sammcb.github.io/syncsong/spotify-callback/?code=a") == .none)
    }

    @Test("LINT karmacall: the three trailing NOT rules are no-ops")
    func karmacall() throws {
        let (_, findings) = try load("LINT_karmacall-trailing-NOT.json")
        let trailing = findings.filter { $0.rule == "AASA111" }.compactMap(\.location)
        #expect(
            trailing.sorted() == [
                "applinks.details[0].paths[16]", "applinks.details[0].paths[17]", "applinks.details[0].paths[18]",
            ]
        )
    }

    @Test("LINT expensify legacy: '/#/settings' is a hash route in a path")
    func expensifyHash() throws {
        let (document, findings) = try load("LINT_expensify-legacy-hash-path.json")
        #expect(findings.contains { $0.rule == "AASA110" && $0.location == "applinks.details[0].paths[0]" })
        #expect(
            verdict(document, "368M544MTT.com.chat.expensify.chat", "https://www.expensify.com/#/settings") == .none
        )
    }

    @Test("SUSPECT wideboard: 9-character prefix typo, and paths beside components")
    func wideboard() throws {
        let (_, findings) = try load("SUSPECT_wideboard-bad-webcred-appid.json")
        let typo = findings.first { $0.rule == "AASA112" }
        #expect(typo?.location == "webcredentials.apps[0]")
        #expect(typo?.message.contains("UW7JAY4CE8") == true)
        #expect(findings.contains { $0.rule == "AASA101" })
    }

    @Test("SUSPECT passkey demo: FAKETEAMID is a placeholder")
    func passkey() throws {
        let (_, findings) = try load("SUSPECT_passkey-demo-FAKETEAMID.json")
        #expect(findings.contains { $0.rule == "AASA113" && $0.location == "webcredentials.apps[0]" })
    }

    @Test("clean files lint without errors or warnings")
    func cleanFiles() throws {
        for file in ["safe-gnosis.json", "expensify-components.json", "wwdcscholars.json", "gambit-golf.json"] {
            let (_, findings) = try load(file)
            #expect(findings.filter { $0.severity != .note }.isEmpty, "\(file): \(findings.map(\.message))")
        }
    }

    @Test("every truncation of a signed file fails cleanly")
    func truncatedSigned() throws {
        let bytes = try Corpus.bytes("aasa/knil_Twitter-signed-AASA.p7")
        for length in stride(from: 0, to: bytes.count, by: 7) {
            #expect(throws: AASAParseError.self) { try AASADocument.parse(Array(bytes.prefix(length))) }
        }
    }
}
