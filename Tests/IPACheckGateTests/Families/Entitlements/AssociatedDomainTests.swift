import Foundation
import IPACheckPlist
import IPACheckReport
import IPACheckTestSupport
import Testing

@testable import IPACheckGate
@testable import IPACheckLinks

/// Entry syntax, case by case, from Apple's rules as quoted in docs/ios-model.md, entries.
struct AssociatedDomainTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let entry: String
        let service: String
        let host: String
        let wildcard: Bool
        let mode: AssociatedDomain.Mode?
        let rules: [String]
        var testDescription: String { entry.isEmpty ? "(empty)" : entry }
    }

    static let cases: [Case] = [
        // Clean entries: `<service>:<fully qualified domain>[?mode=<alternate mode>]`.
        Case(
            entry: "applinks:example.com",
            service: "applinks",
            host: "example.com",
            wildcard: false,
            mode: nil,
            rules: []
        ),
        Case(
            entry: "webcredentials:example.com",
            service: "webcredentials",
            host: "example.com",
            wildcard: false,
            mode: nil,
            rules: []
        ),
        Case(
            entry: "appclips:clip.example.com",
            service: "appclips",
            host: "clip.example.com",
            wildcard: false,
            mode: nil,
            rules: []
        ),
        Case(
            entry: "activitycontinuation:example.com",
            service: "activitycontinuation",
            host: "example.com",
            wildcard: false,
            mode: nil,
            rules: []
        ),
        Case(
            entry: "authsrv:login.example.com",
            service: "authsrv",
            host: "login.example.com",
            wildcard: false,
            mode: nil,
            rules: []
        ),
        Case(
            entry: "applinks:*.example.com",
            service: "applinks",
            host: "example.com",
            wildcard: true,
            mode: nil,
            rules: []
        ),
        Case(
            entry: "applinks:example.com?mode=developer",
            service: "applinks",
            host: "example.com",
            wildcard: false,
            mode: .developer,
            rules: []
        ),
        Case(
            entry: "applinks:example.com?mode=managed",
            service: "applinks",
            host: "example.com",
            wildcard: false,
            mode: .managed,
            rules: []
        ),
        Case(
            entry: "applinks:example.com?mode=developer+managed",
            service: "applinks",
            host: "example.com",
            wildcard: false,
            mode: .developerAndManaged,
            rules: []
        ),
        Case(
            entry: "applinks:*.example.com?mode=developer",
            service: "applinks",
            host: "example.com",
            wildcard: true,
            mode: .developer,
            rules: []
        ),
        // TN3155: no port.
        Case(
            entry: "applinks:example.com:8080",
            service: "applinks",
            host: "example.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT007"]
        ),
        // "Don't include path and query components or a trailing slash".
        Case(
            entry: "applinks:example.com/",
            service: "applinks",
            host: "example.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT006"]
        ),
        Case(
            entry: "applinks:example.com/path",
            service: "applinks",
            host: "example.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT005"]
        ),
        Case(
            entry: "applinks:example.com?foo=bar",
            service: "applinks",
            host: "example.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT008"]
        ),
        Case(
            entry: "applinks:example.com?mode=debug",
            service: "applinks",
            host: "example.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT009"]
        ),
        // No scheme.
        Case(
            entry: "applinks:https://example.com",
            service: "applinks",
            host: "example.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT004"]
        ),
        Case(
            entry: "https://example.com/",
            service: "",
            host: "example.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT003", "ENT004", "ENT006"]
        ),
        // Services.
        Case(
            entry: "universallinks:example.com",
            service: "universallinks",
            host: "example.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT003"]
        ),
        Case(
            entry: "Applinks:example.com",
            service: "Applinks",
            host: "example.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT003"]
        ),
        Case(entry: "example.com", service: "", host: "example.com", wildcard: false, mode: nil, rules: ["ENT003"]),
        // Wildcards: leading `*.` only; never for appclips. One cause, one finding: a `*` out of place is ENT010
        // alone (ENT016 said it again).
        Case(
            entry: "applinks:www.*.example.com",
            service: "applinks",
            host: "www.*.example.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT010"]
        ),
        Case(
            entry: "applinks:*example.com",
            service: "applinks",
            host: "*example.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT010"]
        ),
        Case(
            entry: "appclips:*.example.com",
            service: "appclips",
            host: "example.com",
            wildcard: true,
            mode: nil,
            rules: ["ENT011"]
        ),
        // Build settings left unexpanded.
        Case(
            entry: "applinks:$(APP_DOMAIN)",
            service: "applinks",
            host: "$(app_domain)",
            wildcard: false,
            mode: nil,
            rules: ["ENT012", "ENT014", "ENT016"]
        ),
        // Host syntax.
        Case(entry: "applinks:", service: "applinks", host: "", wildcard: false, mode: nil, rules: ["ENT013"]),
        Case(
            entry: "applinks:Example.COM",
            service: "applinks",
            host: "example.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT014"]
        ),
        Case(
            entry: "applinks:bücher.example",
            service: "applinks",
            host: "xn--bcher-kva.example",
            wildcard: false,
            mode: nil,
            rules: ["ENT015"]
        ),
        Case(
            entry: "applinks:example.com.",
            service: "applinks",
            host: "example.com.",
            wildcard: false,
            mode: nil,
            rules: ["ENT016"]
        ),
        Case(
            entry: "applinks:exa_mple.com",
            service: "applinks",
            host: "exa_mple.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT016"]
        ),
        Case(
            entry: "applinks:-bad.example.com",
            service: "applinks",
            host: "-bad.example.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT016"]
        ),
        Case(
            entry: "applinks:192.168.0.1",
            service: "applinks",
            host: "192.168.0.1",
            wildcard: false,
            mode: nil,
            rules: ["ENT016"]
        ),
        Case(
            entry: "applinks:localhost",
            service: "applinks",
            host: "localhost",
            wildcard: false,
            mode: nil,
            rules: ["ENT017"]
        ),
        Case(
            entry: " applinks:example.com",
            service: "applinks",
            host: "example.com",
            wildcard: false,
            mode: nil,
            rules: ["ENT021"]
        ),
    ]

    @Test("entries parse into service, host, wildcard, mode and exactly the expected problems", arguments: cases)
    func entry(_ expected: Case) {
        let domain = AssociatedDomain.parse(entry: expected.entry)
        #expect(domain.entry == expected.entry)
        #expect(domain.service.name == expected.service)
        #expect(domain.host == expected.host)
        #expect(domain.wildcard == expected.wildcard)
        #expect(domain.mode == expected.mode)
        #expect(domain.problems.map(\.rule.id).sorted() == expected.rules.sorted())
        #expect(domain.isUsable == !domain.problems.contains { $0.rule.severity == .error })
    }

    /// Whether iOS ignores an entry is the reader's fact; the rules say so by an error's severity: the two agree
    /// for every kind of problem.
    @Test func theEntriesIOSIgnoresAreTheRulesErrors() {
        for kind in AssociatedDomain.Problem.Kind.allCases {
            #expect(kind.ignoresEntry == (AssociatedDomainRules.rule(for: kind).severity == .error), "\(kind)")
        }
    }

    @Test("JSON uses the documented keys (docs/output-formats.md), with mode null when absent")
    func json() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let plain = String(
            decoding: try encoder.encode(AssociatedDomain.parse(entry: "applinks:example.com")),
            as: UTF8.self
        )
        #expect(
            plain
                == #"{"entry":"applinks:example.com","host":"example.com","mode":null,"#
                + #""service":"applinks","wildcard":false}"#
        )
        let developer = String(
            decoding: try encoder.encode(
                AssociatedDomain.parse(entry: "applinks:*.example.com?mode=developer+managed")
            ),
            as: UTF8.self
        )
        #expect(
            developer
                == #"{"entry":"applinks:*.example.com?mode=developer+managed","host":"example.com","#
                + #""mode":"developer+managed","service":"applinks","wildcard":true}"#
        )
    }

    @Test("the list: not an array, non-string elements, empty, duplicates, wildcard without apex, too many")
    func list() {
        let key = AssociatedDomains.key
        #expect(AssociatedDomains.from(entitlements: .dictionary([:])).findings.isEmpty)
        #expect(
            AssociatedDomains.from(entitlements: .dictionary([key: .string("applinks:a.com")])).findings.map(\.rule)
                == ["ENT001"]
        )
        let mixed = AssociatedDomains.from(
            entitlements: .dictionary([key: .array([.integer(1), .string("applinks:a.com")])])
        )
        #expect(mixed.domains.count == 1)
        #expect(mixed.findings.map(\.rule) == ["ENT001"])
        #expect(mixed.findings.first?.location == "\(key)[0]")

        let duplicates = AssociatedDomains.from(
            entitlements: .dictionary([key: .array([.string("applinks:a.com"), .string("applinks:A.com")])])
        )
        #expect(Set(duplicates.findings.map(\.rule)) == ["ENT014", "ENT018"])

        let wildcardOnly = AssociatedDomains.from(
            entitlements: .dictionary([key: .array([.string("applinks:*.a.com")])])
        )
        #expect(wildcardOnly.findings.map(\.rule) == ["ENT020"])

        let many = (0..<31).map { PlistValue.string("applinks:d\($0).example.com") }
        #expect(
            AssociatedDomains.from(entitlements: .dictionary([key: .array(many)])).findings.map(\.rule) == ["ENT019"]
        )
        #expect(
            AssociatedDomains.from(entitlements: .dictionary([key: .array(Array(many.prefix(30)))])).findings.isEmpty
        )
    }

    @Test("developer-mode domains are an error only in distribution-signed builds")
    func developerModeInDistribution() {
        let domains = [
            "applinks:a.com?mode=developer", "applinks:b.com?mode=managed", "applinks:c.com?mode=developer+managed",
            "applinks:d.com",
        ]
        .map { AssociatedDomain.parse(entry: $0) }
        let release = AssociatedDomainRules.alternateModeFindings(domains, signing: .distribution)
        #expect(release.map(\.rule) == ["ENT022", "ENT022"])
        // Findings name the host as their domain, so a suppression for "a.com" covers them.
        #expect(release.map(\.domain) == ["a.com", "c.com"])
        #expect(AssociatedDomainRules.alternateModeFindings(domains, signing: .development).isEmpty)
        #expect(AssociatedDomainRules.alternateModeFindings(domains, signing: nil).isEmpty)
    }
}

/// The corpus's entitlements files (MANIFEST.tsv describes what each exercises).
@Suite("Associated domains in the corpus", .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct AssociatedDomainCorpusTests {
    private func domains(_ file: String) throws -> AssociatedDomains.Reading {
        AssociatedDomains.from(entitlements: try PlistParser.parse(Corpus.bytes("entitlements/\(file)")))
    }

    @Test("home-assistant: the wildcard subdomain entry beside its apex, all usable")
    func homeAssistant() throws {
        let result = try domains("home-assistant_App-ios.entitlements")
        #expect(
            result.domains.map(\.entry) == [
                "applinks:home-assistant.io", "applinks:*.home-assistant.io", "applinks:my.home-assistant.io",
            ]
        )
        #expect(result.domains.map(\.wildcard) == [false, true, false])
        #expect(result.domains.allSatisfy { $0.host == "home-assistant.io" || $0.host == "my.home-assistant.io" })
        #expect(result.findings.isEmpty)
    }

    @Test("passkey-demo: '?mode=developer' on localhost and a hyphenated ngrok host")
    func passkeyDemo() throws {
        let result = try domains("passkey-demo_PasskeyDemo.entitlements")
        #expect(result.domains.count == 3)
        let local = try #require(result.domains.first { $0.host == "localhost" })
        #expect(local.mode == .developer)
        #expect(local.service == .webcredentials)
        #expect(result.domains.filter { $0.host.hasSuffix(".ngrok-free.app") }.count == 2)
        // localhost is a single label: a warning, not an error.
        #expect(result.findings.map(\.rule) == ["ENT017"])
    }

    @Test("firebase: the key present with an empty array")
    func firebaseEmpty() throws {
        let result = try domains("firebase_AuthenticationExample_empty-assoc.entitlements")
        #expect(result.domains.isEmpty)
        #expect(result.findings.map(\.rule) == ["ENT002"])
    }

    @Test("google app flip sample: the placeholder 'your-domain-here'")
    func appFlipPlaceholder() throws {
        let result = try domains("google-appflip_placeholder-domain.entitlements")
        #expect(result.domains.map(\.host) == ["your-domain-here"])
        #expect(result.findings.map(\.rule) == ["ENT017"])
    }

    @Test(
        "plain single-host entitlements have no findings",
        arguments: [
            "firebase_InAppMessaging_Example.entitlements", "flotilla_Flotilla Chat.entitlements",
            "rnfirebase_testing.entitlements", "fastlane_very-capable-app_archived-expanded-entitlements.xcent",
        ]
    )
    func plain(file: String) throws {
        let result = try domains(file)
        #expect(result.domains.count == 1)
        #expect(result.findings.isEmpty)
    }
}

extension AssociatedDomainTests {
    @Test("one model for every check: the normalized host, the mode, what the entry covers")
    func entryValue() {
        let entry = AssociatedDomain.parse(entry: "applinks:*.Bücher.example?mode=developer")
        #expect(entry.host == "xn--bcher-kva.example")
        #expect(entry.wildcard)
        #expect(entry.mode == .developer)
        #expect(entry.service == .applinks)
        #expect(!entry.isPublic)
        #expect(entry.covers(host: "a.XN--BCHER-KVA.example"))
        #expect(!entry.covers(host: "xn--bcher-kva.example"))
    }
}

extension AssociatedDomains.Reading {
    /// The reading's problems as the associated-domains rules judge them.
    var findings: [Finding] { AssociatedDomainRules.findings(of: problems) }
}

extension AssociatedDomain.Problem {
    /// The rule this problem breaks.
    var rule: Rule { AssociatedDomainRules.rule(for: kind) }
}
