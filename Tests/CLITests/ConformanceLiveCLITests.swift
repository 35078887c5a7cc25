import Foundation
import IPACheckTestSupport
import Testing

/// The conformance matrix's live copy states through the command line: a loopback HTTPS origin and a fake Apple
/// CDN (a CA made for the test, `--resolve`, `--cdn-url`) serve each scenario's copies, and `match --build` (every
/// URL form), `explain` and `check` are held to the table of docs/ios-model.md
/// (``Conformance/expected(kind:mode:shape:copy:form:)``) and to each other.
@Suite(.serialized)
struct ConformanceLiveCLITests {
    /// Its own loopback address, so that it never shares port 443 with another suite's server.
    static let address = "127.0.0.24"

    static let canServe443 = Loopback.canServe443(on: address)

    /// What the server holds now: `origin HOST` and `cdn HOST` keys, each a file's bytes; anything else is a 404.
    final class Copies: @unchecked Sendable {
        private let lock = NSLock()
        private var bodies: [String: [UInt8]] = [:]

        func set(_ new: [String: [UInt8]]) {
            lock.withLock { bodies = new }
        }

        func body(_ key: String) -> [UInt8]? {
            lock.withLock { bodies[key] }
        }
    }

    /// The copies of a live scenario, as the in-process matrix serves them (the apex answers the opposite of the
    /// deciding host when the claim is a wildcard and a specific entry, so a wrong pick shows).
    static func copies(shape: Conformance.Shape, copy: Conformance.CopyState) -> [String: [UInt8]] {
        let listed = Conformance.aasa(listing: ConformanceBuild.appID)
        let unlisted = Conformance.aasa(listing: "7QX3KD52VH.com.example.other")
        var bodies: [String: [UInt8]] = [:]
        let host = shape.decidingHost
        if copy != .originMissing { bodies["origin \(host)"] = copy.originLists ? listed : unlisted }
        if copy != .cdnMissing { bodies["cdn \(host)"] = copy.cdnLists ? listed : unlisted }
        if let decoy = shape.decoyHost {
            bodies["origin \(decoy)"] = copy.originLists ? unlisted : listed
            bodies["cdn \(decoy)"] = copy.cdnLists ? unlisted : listed
        }
        return bodies
    }

    /// explain asks only what the URL needs: the file of the entries claiming its host (and Apple's CDN copy of
    /// it), not every domain of the build; check asks them all.
    @Test(.enabled(if: canServe443, "needs to listen on 127.0.0.24:443 (root)"))
    func explainAsksOnlyTheURLsHost() async throws {
        let folder = Scratch.folder.appendingPathComponent("live-explain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ca = try TestCA()
        let caFile = try ca.writeCertificate(to: folder)
        let hosts = ["good.test", "wild.test", "cdn.test"]
        let identity = try ca.issueServerCertificate(dnsNames: hosts)
        let listed = Conformance.aasa(listing: ConformanceBuild.appID)
        let server = try await TLSTestServer.start(identity: identity, host: Self.address, port: 443) { _ in
            .full(status: 200, headers: [("Content-Type", "application/json")], body: listed)
        }
        defer { Task { await server.shutdown() } }
        let network =
            hosts.flatMap { ["--resolve", "\($0):443:\(Self.address)"] } + [
                "--ca-file", caFile.path, "--cdn-url", "https://cdn.test/a/v1/", "--timeout", "120",
            ]
        let ipa = try ConformanceBuild.write(
            kind: .appStore,
            domains: ["applinks:good.test", "applinks:*.wild.test"],
            mdm: false
        )
        defer { try? FileManager.default.removeItem(atPath: ipa) }
        let explain = try CLI.run(["explain", "https://good.test/products/1", ipa, "--format", "json"] + network)
        #expect(try explain.jsonObject()["verdict"] as? String == "opens", "\(explain.stdout)\(explain.stderr)")
        let asked = Set(server.requests.map { ($0.header("Host") ?? "") + " " + $0.path })
        #expect(asked.contains { $0.hasPrefix("good.test ") }, "\(asked)")
        #expect(asked.contains("cdn.test /a/v1/good.test"), "\(asked)")
        #expect(!asked.contains { $0.contains("wild.test") }, "explain asked another domain: \(asked)")

        let check = try CLI.run(["check", ipa, "--format", "json"] + network)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(server.requests.contains { $0.header("Host") == "wild.test" }, "check asks every domain")
    }

    @Test(.enabled(if: canServe443, "needs to listen on 127.0.0.24:443 (root)"))
    func liveCopiesTellTheSameStoryInEveryCommand() async throws {
        let folder = Scratch.folder.appendingPathComponent("live-matrix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ca = try TestCA()
        let caFile = try ca.writeCertificate(to: folder)
        let hosts = ["good.test", "wild.test", "sub.wild.test", "cdn.test"]
        let identity = try ca.issueServerCertificate(dnsNames: hosts)
        let served = Copies()
        let server = try await TLSTestServer.start(identity: identity, host: Self.address, port: 443) { request in
            let host = request.header("Host")?.split(separator: ":").first.map(String.init) ?? ""
            let key =
                host == "cdn.test"
                ? "cdn " + request.path.replacingOccurrences(of: "/a/v1/", with: "")
                : request.path == "/.well-known/apple-app-site-association" ? "origin \(host)" : ""
            if let body = served.body(key) {
                return .full(status: 200, headers: [("Content-Type", "application/json")], body: body)
            }
            let failure =
                host == "cdn.test" ? [("Apple-Failure-Reason", "SWCERR00101 Bad HTTP Response: 404 Not Found")] : []
            return .full(status: 404, headers: failure, body: [])
        }
        defer { Task { await server.shutdown() } }
        let network =
            hosts.flatMap { ["--resolve", "\($0):443:\(Self.address)"] } + [
                "--ca-file", caFile.path, "--cdn-url", "https://cdn.test/a/v1/", "--timeout", "120",
            ]

        let kinds: [ConformanceBuild.Kind] = [.development, .appStore, .noIdentity]
        let modes = Conformance.ModeCase.all.filter { $0.mode == nil || $0.mode == "developer" || $0.mdm }
        let shapes: [Conformance.Shape] = [.exact, .wildcardAndSpecific]
        let states: [Conformance.CopyState] = [.bothListed, .staleCDN, .originChanged, .cdnMissing, .originMissing]
        var scenarios = 0
        for kind in kinds {
            for mode in modes {
                for shape in shapes {
                    let ipa = try ConformanceBuild.write(kind: kind, mode: mode, shape: shape)
                    defer { try? FileManager.default.removeItem(atPath: ipa) }
                    let options = network + (mode.direct ? ["--mdm-direct-downloads"] : [])
                    for copy in states {
                        scenarios += 1
                        served.set(Self.copies(shape: shape, copy: copy))
                        let why = "\(kind) \(mode) \(shape) \(copy)"
                        let forms = Conformance.URLForm.allCases
                        let wanted = forms.map {
                            Conformance.expected(kind: kind, mode: mode, shape: shape, copy: copy, form: $0)
                        }
                        let urlFile = folder.appendingPathComponent("urls.txt")
                        let urls = forms.map { $0.url(host: shape.urlHost) }
                        try Data((urls.joined(separator: "\n") + "\n").utf8).write(to: urlFile)
                        let match = try CLI.run(
                            ["match", "--urls", urlFile.path, "--build", ipa, "--format", "json"] + options
                        )
                        let results = (try match.jsonObject()["results"] as? [[String: Any]]) ?? []
                        #expect(results.map { $0["verdict"] as? String } == wanted, "\(why)\n\(match.stdout)")

                        let url = Conformance.URLForm.https.url(host: shape.urlHost)
                        let explain = try CLI.run(["explain", url, ipa, "--format", "json"] + options)
                        let explanation = try explain.jsonObject()
                        let opens = wanted[0] == "match"
                        #expect(explanation["verdict"] as? String == (opens ? "opens" : "breaks"), "\(why)")
                        #expect(explain.status == (opens ? 0 : 1), "\(why): \(explain.stderr)")

                        let check = try CLI.run(["check", ipa, "--format", "json"] + options)
                        let findings = (try check.jsonObject()["findings"] as? [[String: Any]]) ?? []
                        let rules = Set(findings.compactMap { $0["rule"] as? String })
                        let named = ((explanation["findings"] as? [[String: Any]]) ?? [])
                            .compactMap { $0["rule"] as? String }
                        #expect(Set(named).isSubset(of: rules), "\(why): explain \(named), check \(rules)")
                    }
                }
            }
        }
        print("conformance matrix, live through the command line: \(scenarios) scenarios")
        #expect(scenarios == kinds.count * modes.count * shapes.count * states.count)
    }
}
