import Foundation
import IPACheckAASA
import IPACheckArchive
import IPACheckBinary
import IPACheckBundle
import IPACheckFetching
import IPACheckLinks
import IPACheckPlist
package import IPACheckReport
import IPACheckSigning
import IPACheckSites

/// Reading: everything the gate learns from one build (or entitlements file) without the network.
extension ReleaseGate {
    /// Everything the gate learns from one ipa without the network, read in one pass.
    struct InspectedBuild: Sendable {
        let path: String
        /// What the archive and seal checks judge (the trust findings added once the build is read).
        var integrity: BuildIntegrity
        let facts: [BundleFacts]
        let firebase: [FirebaseBundleFacts]
        let mainExecutableStrings: BinaryStrings?
        /// The associated hosts the main executable holds as strings of their own, when its HTTPS callbacks make
        /// them matter (``PlatformFactChecks/callbackHostCandidates(main:strings:)``).
        var callbackHostLiterals: [String] = []
        var targets: [AASAFetchTarget]
        /// Whether this is a project's entitlements file rather than a build: only what it says is checked.
        var isEntitlementsFile = false
    }

    /// The trust findings of a build: every code signer (bundles and nested dylibs) and every profile signer.
    static func trustFindings(_ build: InspectedBuild, now: Date) async -> [Finding] {
        var code: [TrustChecks.Signed] = []
        for seal in build.integrity.seals {
            if let signature = seal.signature { code += TrustChecks.codeSigners(signature, bundle: seal.bundle.path) }
            for nested in seal.nestedCode { code += TrustChecks.codeSigners(nested.check, bundle: seal.bundle.path) }
        }
        let profiles = build.facts.compactMap { fact in
            fact.profileSignature?.identity.map { TrustChecks.Signed(identity: $0, bundle: fact.bundle.path) }
        }
        return await TrustChecks.findings(code: code, profiles: profiles, now: now)
    }

    static func inspect(path: String, options: GateOptions) async throws(InputError) -> InspectedBuild {
        if (try? TargetKind.of(path: path)) == .propertyList {
            return try inspectEntitlementsFile(path, options: options)
        }
        let ipa = try IPAFile(path: path, limits: options.archiveLimits)
        let configuration = options.configuration
        let scan = try await SealScan.read(
            ipa,
            depth: .everything,
            keep: { BundleFacts.keepsMember($0) || isServiceFile($0, in: ipa) },
            searchMainExecutable: (configuration.appFlip == nil ? [] : AppFlipChecks.executableNeedles)
                + PlatformFactChecks.executableNeedles
        )
        let facts = BundleFacts.gatherAll(ipa: ipa, scan: scan)
        let firebase = firebaseFacts(ipa: ipa, scan: scan, facts: facts)
        var targets = facts.flatMap { fact in
            fact.domains.compactMap {
                fetchTarget($0, signing: fact.signingKind, mdmDirectDownloads: options.mdmDirectDownloads)
            }
        }
        if let appFlip = configuration.appFlip, let main = facts.first {
            targets += AppFlipChecks.aasaHosts(config: appFlip, associatedDomains: main.domains).map {
                AASAFetchTarget(host: $0)
            }
        }
        for bundle in firebase {
            targets += FirebaseChecks.linkHosts(bundle, settings: configuration.firebase).map {
                AASAFetchTarget(host: $0)
            }
        }
        var build = InspectedBuild(
            path: path,
            integrity: BuildIntegrity(
                archiveFindings: ipa.findings + scan.findings,
                seals: scan.verify(ipa: ipa, now: options.now)
            ),
            facts: facts,
            firebase: firebase,
            mainExecutableStrings: scan.mainExecutableStrings,
            targets: targets
        )
        if let main = facts.first, let strings = scan.mainExecutableStrings {
            build.callbackHostLiterals = PlatformFactChecks.hostLiterals(
                PlatformFactChecks.callbackHostCandidates(main: main, strings: strings),
                executable: main.bundle.executable,
                in: ipa
            )
        }
        return build
    }

    /// An entitlements file read as the one bundle it will be signed into: its domains and app ID, no archive,
    /// signature, seal or profile.
    private static func inspectEntitlementsFile(
        _ path: String,
        options: GateOptions
    ) throws(InputError)
        -> InspectedBuild
    {
        let file = try EntitlementsFile.read(path: path, appID: options.appID)
        guard file.appID != nil else {
            throw InputError(
                ReleaseGate.missingAppIDCode,
                file: path,
                "names no application-identifier that is not an Xcode build setting; pass --app-id TEAMID.BUNDLE"
            )
        }
        let fact = file.facts()
        return InspectedBuild(
            path: path,
            integrity: BuildIntegrity(archiveFindings: [], seals: []),
            facts: [fact],
            firebase: [],
            mainExecutableStrings: nil,
            targets: fact.domains.compactMap {
                fetchTarget($0, signing: nil, mdmDirectDownloads: options.mdmDirectDownloads)
            },
            isEntitlementsFile: true
        )
    }

    /// Whether `member` is a Firebase service file at the top of a bundle.
    ///
    /// Asked of every member while the seal pass waits, so it looks at the name's last component without splitting
    /// the whole name.
    private static func isServiceFile(_ member: String, in ipa: IPAFile) -> Bool {
        guard member.hasSuffix(".plist"), let slash = member.lastIndex(of: "/") else { return false }
        guard member[member.index(after: slash)...].hasPrefix("GoogleService-Info") else { return false }
        let folder = member[..<slash]
        return ipa.bundles.contains { $0.path == folder }
    }

    private static func firebaseFacts(ipa: IPAFile, scan: SealScan, facts: [BundleFacts]) -> [FirebaseBundleFacts] {
        // One look at every member's name for all bundles: the service files at the top of each, by bundle.
        var serviceFiles: [Substring: [String]] = [:]
        for member in ipa.memberNames where isServiceFile(member, in: ipa) {
            if let slash = member.lastIndex(of: "/") { serviceFiles[member[..<slash], default: []].append(member) }
        }
        return facts.compactMap { fact in
            let files = (serviceFiles[fact.bundle.path[...]] ?? []).sorted()
            guard !files.isEmpty || fact.bundle.parent == nil else { return nil }
            let serviceFiles = files.compactMap { member -> FirebaseServiceFile? in
                guard let bytes = scan.bytes(of: member), let plist = try? PlistParser.parse(bytes) else { return nil }
                return FirebaseServiceFile(path: member, plist: plist)
            }
            return FirebaseBundleFacts(
                path: fact.bundle.path,
                isExtension: fact.bundle.kind == .appex,
                infoPlist: fact.bundle.infoPlist,
                serviceFiles: serviceFiles,
                associatedDomains: fact.domains,
                appID: fact.appID
            )
        }
    }

    /// The fetch a domain entry needs, or nil when iOS would never look it up (unusable, unknown service, or a
    /// developer-mode entry in a distribution build).
    static func fetchTarget(
        _ domain: AssociatedDomain,
        signing: SigningKind?,
        mdmDirectDownloads: Bool
    ) -> AASAFetchTarget? {
        guard domain.isUsable, ServiceMapping.aasaService(domain.service) != nil else { return nil }
        if signing == .distribution, domain.mode?.requiresDevelopmentSigning == true { return nil }
        return AASAFetchTarget(
            host: (domain.wildcard ? "*." : "") + domain.host,
            mode: domain.mode,
            mdmDirectDownloads: mdmDirectDownloads
        )
    }
}

extension ReleaseGate {
    /// The code of the error an entitlements file without a usable application identifier gives: the one input a
    /// run cannot judge for want of an argument (`--app-id`), which every command says as a usage error.
    static let missingAppIDCode = "no-app-id"

    /// The entitlements file `error` says needs `--app-id`, when that is what it says.
    package static func fileMissingAppID(_ error: InputError) -> String? {
        error.code == missingAppIDCode ? error.file : nil
    }
}
