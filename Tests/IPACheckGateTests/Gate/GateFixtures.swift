import Foundation
import IPACheckFetching
import IPACheckGate
import IPACheckPlist
import IPACheckReport
import IPACheckSigning
import IPACheckTestSupport
import Testing

/// The sample world's identifiers (Samples/README.md, "Common facts" and the `Acme.ipa` table).
enum Acme {
    static let team = "7QX3KD52VH"
    static let mainAppID = "7QX3KD52VH.com.acme.shop"
    static let shareAppID = "7QX3KD52VH.com.acme.shop.share"
    static let clipAppID = "7QX3KD52VH.com.acme.shop.Clip"
    static let minimalAppID = "7QX3KD52VH.com.acme.minimal"
    static let mainBundle = "Payload/Acme.app"
    static let clipBundle = "Payload/Acme.app/AppClips/AcmeClip.app"
    static let shareBundle = "Payload/Acme.app/PlugIns/Share.appex"
    static let minimalBundle = "Payload/Minimal.app"

    static var ipa: String { Repository.samples.appendingPathComponent("Acme.ipa").path }
    static var minimalIPA: String { Repository.samples.appendingPathComponent("Minimal.ipa").path }
}

/// A private copy of `Samples/aasa` in a fresh temporary folder, so a test can change exactly one file.
struct AASAFolder {
    /// The folder to pass as `--aasa-dir`.
    let url: URL

    /// Copies `Samples/aasa`.
    init() throws {
        url = Scratch.folder.appendingPathComponent("ipacheck-gate-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Repository.samples.appendingPathComponent("aasa"), to: url)
    }

    /// `HOST/apple-app-site-association` inside the folder.
    func file(_ host: String) -> URL {
        url.appendingPathComponent(host).appendingPathComponent("apple-app-site-association")
    }

    /// The host's document as a JSON object.
    func json(_ host: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file(host)))
        return try #require(object as? [String: Any], "\(host)'s sample file is not a JSON object")
    }

    /// Rewrites the host's document through `change` (which typically replaces one section).
    func edit(_ host: String, _ change: (inout [String: Any]) throws -> Void) throws {
        var document = try json(host)
        try change(&document)
        try write(host, document)
    }

    /// Writes a document for `host` (creating its folder).
    func write(_ host: String, _ document: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        try FileManager.default.createDirectory(
            at: file(host).deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try data.write(to: file(host))
    }

    /// Deletes the host's file (and folder).
    func remove(_ host: String) throws {
        try FileManager.default.removeItem(at: file(host).deletingLastPathComponent())
    }

    /// An `applinks` section with one details entry per app ID.
    static func applinks(_ entries: [(appID: String, components: [[String: Any]])]) -> [String: Any] {
        ["details": entries.map { ["appIDs": [$0.appID], "components": $0.components] as [String: Any] }]
    }
}

/// Runs the release gate.
enum Gate {
    /// Checks `ipa` offline against `folder`.
    static func offline(
        _ ipa: String,
        _ folder: AASAFolder,
        configuration: GateConfiguration = GateConfiguration(),
        release: Bool = true
    ) async throws -> GateResult {
        let options = GateOptions(
            fetch: FetchOptions(offlineDirectory: folder.url),
            fetcher: nil,
            configuration: configuration,
            distribution: release ? nil : .development
        )
        return try await ReleaseGate.check(path: ipa, options: options)
    }

    /// Checks `ipa` "online" through `fetcher`, Apple's CDN included.
    static func online(_ ipa: String, fetcher: some HTTPFetching, release: Bool = true) async throws -> GateResult {
        try await ReleaseGate.check(
            path: ipa,
            options: GateOptions(fetch: FetchOptions(), fetcher: fetcher, distribution: release ? nil : .development)
        )
    }
}

extension GateResult {
    /// The findings of rule `id` (optionally only for one bundle and/or domain).
    func findings(_ id: String, bundle: String? = nil, domain: String? = nil) -> [Finding] {
        findings.filter { finding in
            finding.rule == id && (bundle == nil || finding.bundle == bundle)
                && (domain == nil || finding.domain == domain)
        }
    }

    /// Every finding's text, for failure messages.
    var dump: String {
        findings.map { "\($0.rule) \($0.severity.rawValue) [\($0.bundle ?? "-")] [\($0.domain ?? "-")] \($0.message)" }
            .joined(separator: "\n")
    }
}

/// Serves AASA files from memory by URL, the way `AASASiteFetcher` asks for them.
///
/// The origin at `https://HOST/.well-known/apple-app-site-association` (any user agent) and Apple's CDN copy at
/// `<cdn base>HOST` (default base `https://app-site-association.cdn-apple.com/a/v1/`). Anything else is a 404.
struct InMemoryFetcher: HTTPFetching {
    /// Absolute URL → body served with status 200 and `Content-Type: application/json`.
    let files: [String: [UInt8]]

    /// Serves `origin` as the host's file and `cdn` as Apple's copy of it.
    init(host: String, origin: [UInt8], cdn: [UInt8]) {
        files = [
            "https://\(host)/.well-known/apple-app-site-association": origin,
            "https://app-site-association.cdn-apple.com/a/v1/\(host)": cdn,
        ]
    }

    func fetch(_ request: FetchRequest) async -> FetchOutcome {
        guard let body = files[request.url.absoluteString] else {
            return .response(FetchResponse(status: 404, headers: [], body: []))
        }
        return .response(
            FetchResponse(status: 200, headers: [HTTPHeaderField("Content-Type", "application/json")], body: body)
        )
    }
}

/// One bundle of a generated ipa: Info.plist, and an arm64 executable ad-hoc signed with these entitlements
/// (XML and DER blobs, which agree).
struct GeneratedBundle {
    /// The bundle's folder name (`App.app`).
    var folder: String
    /// `CFBundleIdentifier`.
    var bundleID: String
    /// The signed entitlements, in key order.
    var entitlements: [(key: String, value: PlistValue)]
    /// `embedded.mobileprovision` bytes, if any.
    var profile: [UInt8]? = nil

    /// An app in team `7QX3KD52VH` claiming `domains`, with get-task-allow as given, plus `extra` entitlements.
    static func app(
        _ folder: String,
        bundleID: String,
        domains: [String],
        getTaskAllow: Bool = false,
        extra: [(key: String, value: PlistValue)] = []
    ) -> GeneratedBundle {
        var entitlements: [(key: String, value: PlistValue)] = [
            ("application-identifier", .string("\(Acme.team).\(bundleID)")),
            ("com.apple.developer.team-identifier", .string(Acme.team)),
            ("get-task-allow", .bool(getTaskAllow)),
        ]
        if !domains.isEmpty {
            entitlements.append(("com.apple.developer.associated-domains", .array(domains.map { .string($0) })))
        }
        return GeneratedBundle(folder: folder, bundleID: bundleID, entitlements: entitlements + extra)
    }

    /// The members of this bundle under `root` (`Payload/App.app`).
    func members(at root: String) -> [(String, [UInt8])] {
        let executable = String(folder.prefix { $0 != "." })
        let info = PlistFixture.info([
            "CFBundleIdentifier": bundleID,
            "CFBundleExecutable": executable,
            "CFBundlePackageType": "APPL",
            "DTPlatformName": "iphoneos",
        ])
        let signing = EntitlementsFixture.signing(entitlements, info: info)
        var result = [("\(root)/Info.plist", info), ("\(root)/\(executable)", MachOBuilder.slice(signing: signing))]
        if let profile { result.append(("\(root)/embedded.mobileprovision", profile)) }
        return result
    }
}

/// Writes an ipa: `Payload/<app>` with an optional App Clip in `AppClips/`.
enum GeneratedIPA {
    static func write(app: GeneratedBundle, clip: GeneratedBundle? = nil) throws -> String {
        var zip = ZipBuilder()
        let root = "Payload/\(app.folder)"
        for (name, bytes) in app.members(at: root) { zip.add(name, bytes) }
        if let clip {
            for (name, bytes) in clip.members(at: "\(root)/AppClips/\(clip.folder)") { zip.add(name, bytes) }
        }
        return try zip.write(named: "Generated.ipa")
    }
}
