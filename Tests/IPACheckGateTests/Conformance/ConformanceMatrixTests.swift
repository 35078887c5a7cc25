import Foundation
import IPACheckAASA
import IPACheckCommands
import IPACheckFetching
import IPACheckGate
import IPACheckLinks
import IPACheckReport
import IPACheckSites
import IPACheckTestSupport
import Testing

/// Every command renders one verdict per URL, and that verdict is what docs/ios-model.md says iOS does: scenarios
/// generated over build kind × mode (MDM entitlement, direct downloads) × claim shape × copy state × URL form, each
/// judged by the gate once and rendered as `explain` (text and JSON), `match --build`, `links` and `domains` do,
/// against an expectation computed by the small table below from the cited rules, never from the tool's output.
@Suite(.serialized)
struct ConformanceMatrixTests {
    // MARK: - The matrix

    /// A fetcher serving each host's origin file and Apple's CDN copy from memory; anything else is a 404 (for
    /// the CDN, with the failure reason Apple's CDN sends).
    struct Files: HTTPFetching {
        let bodies: [String: [UInt8]]
        /// No host answers at all: every request fails as on a machine without a network.
        var unreachable = false

        func fetch(_ request: FetchRequest) async -> FetchOutcome {
            if unreachable { return .failure(FetchFailure(.networkUnreachable, "network is unreachable")) }
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
        shape: Conformance.Shape,
        copy: Conformance.CopyState,
        direct: Bool,
        folder: URL
    ) async throws -> GateResult {
        let other = "7QX3KD52VH.com.example.other"
        let listed = Conformance.aasa(listing: ConformanceBuild.appID)
        let unlisted = Conformance.aasa(listing: other)
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
        if copy != .originMissing {
            bodies["https://\(host)/.well-known/apple-app-site-association"] = copy.originLists ? listed : unlisted
        }
        if copy != .cdnMissing {
            bodies["https://app-site-association.cdn-apple.com/a/v1/\(host)"] = copy.cdnLists ? listed : unlisted
        }
        if let decoy = shape.decoyHost {
            // The decoy answers the opposite of the deciding host, so reading the wrong file shows.
            let body = copy.cdnLists ? unlisted : listed
            bodies["https://\(decoy)/.well-known/apple-app-site-association"] = copy.originLists ? unlisted : listed
            bodies["https://app-site-association.cdn-apple.com/a/v1/\(decoy)"] = body
        }
        let options = GateOptions(
            fetch: FetchOptions(),
            fetcher: Files(bodies: bodies, unreachable: copy == .noNetwork),
            mdmDirectDownloads: direct
        )
        // The whole run, as explain asks it: with no network the build's own judgement is kept.
        return try await ReleaseGate.judge(path: ipa, options: options)
    }

    @Test(arguments: ConformanceBuild.Kind.allCases)
    func everyCommandTellsWhatIOSDoes(kind: ConformanceBuild.Kind) async throws {
        let folder = Scratch.folder.appendingPathComponent("matrix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var scenarios = 0
        var agreements = 0
        for (mode, shape) in Conformance.builds {
            let ipa = try ConformanceBuild.write(kind: kind, mode: mode, shape: shape)
            defer { try? FileManager.default.removeItem(atPath: ipa) }
            for copy in Conformance.CopyState.allCases {
                let result = try await Self.run(
                    ipa: ipa,
                    shape: shape,
                    copy: copy,
                    direct: mode.direct,
                    folder: folder
                )
                let model = result.links
                let label = "\(kind) \(mode) \(shape) \(copy)"
                #expect(result.networkUnavailable == nil || copy == .noNetwork, "\(label)")
                // With only the origin asked (developer mode), its failure cannot be told from the machine's: the
                // gate blames the site, and the scenario is judged as any other below.
                if result.networkUnavailable != nil {
                    // Nothing answered: a link the build, claim or entry breaks still breaks (exit 1); one that
                    // needs the host's file is undecided (exit 2), never opens nor breaks (docs/output-formats.md).
                    let reachesFile =
                        Conformance.expected(kind: kind, mode: mode, shape: shape, copy: .offlineListed, form: .https)
                        == "match"
                    for form in Conformance.URLForm.allCases {
                        scenarios += 1
                        let explanation = model.explain(form.url(host: shape.urlHost))
                        let want: LinkExplanation.Verdict = reachesFile ? .undecided : .breaks
                        #expect(explanation.verdict == want, "\(label) \(form): \(explanation.conclusion)")
                        let text = explanation.text(style: .plain)
                        #expect(text.contains(reachesFile ? "? cannot be decided" : "✗ breaks"), "\(label)\n\(text)")
                        agreements += 2
                    }
                    continue
                }
                let sheet = model.linkSheet()
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
                for form in Conformance.URLForm.allCases {
                    scenarios += 1
                    let url = form.url(host: shape.urlHost)
                    let want = Conformance.expected(kind: kind, mode: mode, shape: shape, copy: copy, form: form)
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
        print("conformance matrix (\(kind)): \(scenarios) scenarios, \(agreements) agreements")
        #expect(
            scenarios == Conformance.ModeCase.all.count * Conformance.Shape.allCases.count
                * Conformance.CopyState.allCases.count * Conformance.URLForm.allCases.count
        )
    }
}
