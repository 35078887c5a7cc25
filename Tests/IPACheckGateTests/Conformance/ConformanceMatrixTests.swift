import Foundation
import IPACheckAASA
import IPACheckFetching
import IPACheckGate
import IPACheckLinks
import IPACheckReport
import IPACheckTestSupport
import Testing

/// Every command renders one verdict per URL, and that verdict is what docs/ios-model.md says iOS does: scenarios
/// generated over build kind × mode (MDM entitlement, direct downloads) × claim shape × copy state × URL form, each
/// judged by the gate once and rendered as `explain` (text and JSON), `match --build`, `links` and `domains` do,
/// against an expectation computed by the small table below from the cited rules, never from the tool's output.
@Suite(.serialized)
struct ConformanceMatrixTests {
    // MARK: - The dimensions

    /// An entry's alternate mode, with the conditions managed mode depends on.
    struct ModeCase: Sendable, CustomStringConvertible {
        let mode: String?
        var mdm = false
        var direct = false

        var description: String {
            (mode ?? "none") + (mode?.contains("managed") == true ? "/mdm:\(mdm)/direct:\(direct)" : "")
        }

        static let all: [ModeCase] =
            [ModeCase(mode: nil), ModeCase(mode: "developer")]
            + ["managed", "developer+managed"].flatMap { mode in
                [false, true].flatMap { mdm in [false, true].map { ModeCase(mode: mode, mdm: mdm, direct: $0) } }
            }
    }

    /// What the build claims, and the URL host a tap goes to.
    enum Shape: String, CaseIterable, Sendable {
        /// `applinks:good.test`, URL on good.test.
        case exact
        /// `applinks:*.wild.test`, URL on sub.wild.test: read from wild.test's file (I31).
        case wildcard
        /// `applinks:*.wild.test` and `applinks:sub.wild.test`, URL on sub.wild.test: the specific entry wins and
        /// reads its own file (I29, I31).
        case wildcardAndSpecific
        /// `applinks:*.wild.test`, URL on wild.test: a wildcard never covers the apex (I30).
        case apexOfWildcard
        /// `applinks:café.test` (signed as Unicode), URL on café.test: both compare as xn--caf-dma.test (I35).
        case idn

        func entries(mode: String?) -> [String] {
            let suffix = mode.map { "?mode=\($0)" } ?? ""
            switch self {
            case .exact: return ["applinks:good.test\(suffix)"]
            case .wildcard, .apexOfWildcard: return ["applinks:*.wild.test\(suffix)"]
            case .wildcardAndSpecific: return ["applinks:*.wild.test\(suffix)", "applinks:sub.wild.test\(suffix)"]
            case .idn: return ["applinks:café.test\(suffix)"]
            }
        }

        /// The host written in the URL.
        var urlHost: String {
            switch self {
            case .exact: "good.test"
            case .wildcard, .wildcardAndSpecific: "sub.wild.test"
            case .apexOfWildcard: "wild.test"
            case .idn: "café.test"
            }
        }

        /// The host whose file decides (I31), and the other file present to catch a wrong pick.
        var decidingHost: String {
            switch self {
            case .exact: "good.test"
            case .wildcard, .apexOfWildcard: "wild.test"
            case .wildcardAndSpecific: "sub.wild.test"
            case .idn: "xn--caf-dma.test"
            }
        }

        var decoyHost: String? { self == .wildcardAndSpecific ? "wild.test" : nil }
    }

    /// The copies of the deciding host's file a run sees.
    enum CopyState: String, CaseIterable, Sendable {
        /// Offline (`--aasa-dir`): the file lists the app, stands in for both copies.
        case offlineListed
        /// Offline: the file lists another app only.
        case offlineUnlisted
        /// Offline: no file.
        case offlineMissing
        /// Live: origin and Apple's CDN both list the app.
        case bothListed
        /// Live: the origin lists the app, the CDN's copy is older and does not (stale CDN).
        case staleCDN
        /// Live: the CDN lists the app, the origin no longer does.
        case originChanged
        /// Live: the origin lists the app, the CDN has no copy (404 with a failure reason).
        case cdnMissing

        var isOffline: Bool { rawValue.hasPrefix("offline") }
        /// Whether the origin's file lists the app.
        var originLists: Bool { [.offlineListed, .bothListed, .staleCDN, .cdnMissing].contains(self) }
        /// Whether Apple's CDN copy lists the app (offline: the file stands in for it).
        var cdnLists: Bool { [.offlineListed, .bothListed, .originChanged].contains(self) }
    }

    /// How the URL is written (I34–I39); each path is judged by the same rules.
    enum URLForm: String, CaseIterable, Sendable {
        case https, http, rawUnicodePath, percentEncodedPath, query, fragment, dotSegments, excluded

        func url(host: String) -> String {
            switch self {
            case .https: "https://\(host)/products/1"
            case .http: "http://\(host)/products/1"
            case .rawUnicodePath: "https://\(host)/café/1"
            case .percentEncodedPath: "https://\(host)/caf%C3%A9/1"
            case .query: "https://\(host)/products/1?ref=mail"
            case .fragment: "https://\(host)/products/1#top"
            // A browser resolves the dot segments before the tap reaches iOS (RFC 3986 §5.2.4, I38): the path is
            // /products/1, not the excluded /account/...
            case .dotSegments: "https://\(host)/account/../products/1"
            case .excluded: "https://\(host)/account/1"
            }
        }
    }

    /// An AASA document: `/account/*` excluded, then `/products/*` and the encoded `/café/*` for `appID`.
    static func aasa(listing appID: String) -> [UInt8] {
        Array(
            """
            {"applinks": {"details": [{"appIDs": ["\(appID)"], "components": [
              {"/": "/account/*", "exclude": true}, {"/": "/products/*"}, {"/": "/caf%C3%A9/*"}]}]}}
            """.utf8
        )
    }

    // MARK: - The expectation, from docs/ios-model.md

    /// What `match --build` must answer: `match`, `block` or `none`.
    static func expected(
        kind: ConformanceBuild.Kind,
        mode: ModeCase,
        shape: Shape,
        copy: CopyState,
        form: URLForm
    )
        -> String
    {
        // I5: a build signed without an identity installs on no device.
        if kind == .noIdentity { return "none" }
        // I30: a *. entry never covers the apex.
        if shape == .apexOfWildcard { return "none" }
        // I12–I14: developer mode needs a development-signed app; managed mode the MDM entitlement.
        let developmentSigned = kind == .development
        switch mode.mode {
        case "developer"?: if !developmentSigned { return "none" }
        case "managed"?: if !mode.mdm { return "none" }
        case "developer+managed"?: if !developmentSigned || !mode.mdm { return "none" }
        default: break
        }
        // I20–I22: the copy devices read. Offline, the --aasa-dir file stands in for both.
        let readsOrigin =
            mode.mode == "developer" || mode.mode == "developer+managed" || (mode.mode == "managed" && mode.direct)
        // A link opens only where nothing check reports as an error stands on its path: the origin's file, which
        // the CDN serves within a day (I23), is what check judges, so a CDN copy that still lists the app does not
        // make a link open once the origin dropped it (docs/output-formats.md, explain).
        let lists = readsOrigin ? copy.originLists : (copy.cdnLists && copy.originLists)
        guard lists else { return "none" }
        return form == .excluded ? "block" : "match"
    }

    // MARK: - The matrix

    /// A fetcher serving each host's origin file and Apple's CDN copy from memory; anything else is a 404 (for
    /// the CDN, with the failure reason Apple's CDN sends).
    struct Files: HTTPFetching {
        let bodies: [String: [UInt8]]

        func fetch(_ request: FetchRequest) async -> FetchOutcome {
            let url = request.url.absoluteString
            guard let body = bodies[url] else {
                let headers =
                    url.contains("cdn-apple.com")
                    ? [HTTPHeaderField("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 404 Not Found")] : []
                return .response(FetchResponse(status: 404, headers: headers, body: Array("Not Found".utf8)))
            }
            return .response(
                FetchResponse(status: 200, headers: [HTTPHeaderField("Content-Type", "application/json")], body: body)
            )
        }
    }

    static func run(
        ipa: String,
        shape: Shape,
        copy: CopyState,
        direct: Bool,
        folder: URL
    ) async throws -> GateResult {
        let other = "7QX3KD52VH.com.example.other"
        let listed = aasa(listing: ConformanceBuild.appID)
        let unlisted = aasa(listing: other)
        if copy.isOffline {
            try? FileManager.default.removeItem(at: folder)
            func write(_ host: String, _ body: [UInt8]) throws {
                let dir = folder.appendingPathComponent(host)
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                try Data(body).write(to: dir.appendingPathComponent("apple-app-site-association"))
            }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if copy == .offlineListed { try write(shape.decidingHost, listed) }
            if copy == .offlineUnlisted { try write(shape.decidingHost, unlisted) }
            if let decoy = shape.decoyHost { try write(decoy, copy == .offlineListed ? unlisted : listed) }
            let options = GateOptions(
                fetch: FetchOptions(offlineDirectory: folder),
                fetcher: nil,
                mdmDirectDownloads: direct
            )
            return try await ReleaseGate.check(path: ipa, options: options)
        }
        var bodies: [String: [UInt8]] = [:]
        let host = shape.decidingHost
        bodies["https://\(host)/.well-known/apple-app-site-association"] = copy.originLists ? listed : unlisted
        if copy != .cdnMissing {
            bodies["https://app-site-association.cdn-apple.com/a/v1/\(host)"] = copy.cdnLists ? listed : unlisted
        }
        if let decoy = shape.decoyHost {
            // The decoy answers the opposite of the deciding host, so reading the wrong file shows.
            let body = copy.cdnLists ? unlisted : listed
            bodies["https://\(decoy)/.well-known/apple-app-site-association"] = copy.originLists ? unlisted : listed
            bodies["https://app-site-association.cdn-apple.com/a/v1/\(decoy)"] = body
        }
        return try await ReleaseGate.check(
            path: ipa,
            options: GateOptions(fetch: FetchOptions(), fetcher: Files(bodies: bodies), mdmDirectDownloads: direct)
        )
    }

    @Test(arguments: ConformanceBuild.Kind.allCases)
    func everyCommandTellsWhatIOSDoes(kind: ConformanceBuild.Kind) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("matrix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var scenarios = 0
        var agreements = 0
        for mode in ModeCase.all {
            for shape in Shape.allCases {
                let ipa = try ConformanceBuild.write(kind: kind, domains: shape.entries(mode: mode.mode), mdm: mode.mdm)
                defer { try? FileManager.default.removeItem(atPath: ipa) }
                for copy in CopyState.allCases {
                    let result = try await Self.run(
                        ipa: ipa,
                        shape: shape,
                        copy: copy,
                        direct: mode.direct,
                        folder: folder
                    )
                    let model = result.links
                    let sheet = model.linkSheet()
                    let label = "\(kind) \(mode) \(shape) \(copy)"
                    // Release policy (I9): only a development build is PROF007, and it never stops a link.
                    #expect(
                        result.findings.contains { $0.rule == "PROF007" } == (kind == .development),
                        "\(label): \(result.findings.map(\.rule))"
                    )
                    // links: every expectation is match --build's answer for its URL.
                    for link in sheet.links {
                        let answer = model.matchAnswer(link.url).result.verdict
                        #expect(
                            (answer == .match) == (link.expected == .opens),
                            "\(label): links says \(link.expected) for \(link.url), match --build \(answer)"
                        )
                        agreements += 1
                    }
                    for form in URLForm.allCases {
                        scenarios += 1
                        let url = form.url(host: shape.urlHost)
                        let want = Self.expected(kind: kind, mode: mode, shape: shape, copy: copy, form: form)
                        let explanation = model.explain(url)
                        let answer = model.matchAnswer(url)
                        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(explanation))
                        let jsonVerdict = (json as? [String: Any])?["verdict"] as? String
                        let text = explanation.text(style: .plain)
                        let why = "\(label) \(form) \(url): \(explanation.conclusion)"
                        #expect(
                            answer.result.verdict.rawValue == want,
                            "\(why) — match --build \(answer.result.verdict)"
                        )
                        #expect(explanation.opensApp == (want == "match"), "\(why)")
                        #expect(jsonVerdict == (want == "match" ? "opens" : "breaks"), "\(why)")
                        #expect(text.contains(want == "match" ? "✓ opens" : "✗ breaks"), "\(why)\n\(text)")
                        // The URL is shown as a device receives it (I35, I37, I38).
                        #expect(!answer.result.url.contains("é") && !answer.result.url.contains("/../"), "\(why)")
                        if want == "match" {
                            // check: no error stands on the path of a link that opens.
                            let blocking = result.findings.filter {
                                $0.severity == .error && ($0.domain == nil || $0.domain == shape.decidingHost)
                                    && !["PROF007", "DIST004"].contains($0.rule)
                            }
                            #expect(blocking.isEmpty, "\(why): \(blocking.map(\.rule))")
                        }
                        agreements += 5
                    }
                    // domains: an entry is usable exactly where the table says iOS uses it.
                    for claim in model.claims {
                        let usable = claim.ignored == nil
                        let wantUsable: Bool
                        switch mode.mode {
                        case "developer"?: wantUsable = kind == .development
                        case "managed"?: wantUsable = mode.mdm
                        case "developer+managed"?: wantUsable = kind == .development && mode.mdm
                        default: wantUsable = true
                        }
                        #expect(
                            usable == wantUsable,
                            "\(label): \(claim.domain.entry) ignored: \(claim.ignored ?? "-")"
                        )
                        agreements += 1
                    }
                }
            }
        }
        print("conformance matrix (\(kind)): \(scenarios) scenarios, \(agreements) agreements")
        #expect(
            scenarios == ModeCase.all.count * Shape.allCases.count * CopyState.allCases.count * URLForm.allCases.count
        )
    }
}
