public import Foundation
import IPACheckAASA
import IPACheckPlist
public import IPACheckReport

/// What `ipacheck check` needs besides the ipa: how to reach AASA files, and what else to check.
public struct GateOptions: Sendable {
    /// Timeouts, CDN base, offline folder.
    public var fetch: FetchOptions
    /// Performs requests; nil when offline.
    public var fetcher: (any HTTPFetching)?
    /// The project configuration (expected domains, suppressions, App Flip, Firebase).
    public var configuration: GateConfiguration
    /// Whether the build is a release candidate (a development profile or signing is then an error).
    public var isReleaseBuild: Bool
    /// The time expiry is judged at.
    public var now: Date

    /// Creates options.
    public init(
        fetch: FetchOptions,
        fetcher: (any HTTPFetching)?,
        configuration: GateConfiguration = GateConfiguration(),
        isReleaseBuild: Bool = true,
        now: Date = Date()
    ) {
        self.fetch = fetch
        self.fetcher = fetcher
        self.configuration = configuration
        self.isReleaseBuild = isReleaseBuild
        self.now = now
    }
}

/// What the gate found for one ipa.
public struct GateResult: Sendable {
    /// The findings, worst first, suppressions applied.
    public let findings: [Finding]
    /// The findings the configuration suppressed, with the suppression that matched.
    public let suppressed: [(finding: Finding, reason: String)]
    /// What each host served (origin, user agents, CDN), for JSON consumers and triage.
    public let sites: [AASASiteReport]
}

/// The release gate: every bundle's signed entitlements held against the AASA files that serve its domains, plus
/// the archive, signature, profile, App Flip and Firebase checks.
public enum ReleaseGate {
    /// Checks one ipa.
    ///
    /// - Throws: ``InputError`` only when the ipa itself cannot be read; everything else is a finding.
    public static func check(path: String, options: GateOptions) async throws(InputError) -> GateResult {
        let ipa = try IPAFile(path: path)
        var findings = ipa.findings
        let facts = try BundleFacts.gatherAll(ipa: ipa, isReleaseBuild: options.isReleaseBuild, now: options.now)
        findings += facts.flatMap(\.findings)
        let configuration = options.configuration
        let main = facts[0]
        let firebase = firebaseFacts(ipa: ipa, facts: facts)

        // Every host whose file decides something, fetched once each.
        var targets = facts.flatMap { fact in fact.domains.compactMap { fetchTarget($0, signing: fact.signingKind) } }
        if let appFlip = configuration.appFlip {
            let entries = main.domains.map(\.entryValue)
            targets += AppFlipChecks.aasaHosts(config: appFlip, associatedDomains: entries).map {
                AASAFetchTarget(host: $0)
            }
        }
        for bundle in firebase {
            targets += FirebaseChecks.linkHosts(bundle, settings: configuration.firebase).map {
                AASAFetchTarget(host: $0)
            }
        }
        let sites = await AASASiteFetcher(fetcher: options.fetcher, options: options.fetch).check(targets)
        let documents = SiteDocuments(sites)
        findings += documents.findings

        for fact in facts {
            let clips = facts.filter { $0.bundle.kind == .appclip && $0.bundle.parent == fact.bundle.path }
            findings += crossCheck(
                fact,
                documents: documents,
                parent: fact.bundle.parent == nil ? nil : main,
                clipAppIDs: clips.compactMap(\.appID)
            )
        }
        findings += expectedDomains(configuration.expectedDomains, facts: facts)
        if let appFlip = configuration.appFlip, let appID = main.appID {
            findings += AppFlipChecks.check(
                config: appFlip,
                associatedDomains: main.domains.map(\.entryValue),
                appID: appID,
                signing: main.signingKind ?? .distribution,
                infoPlist: main.bundle.infoPlist,
                // The heuristics search the whole binary's strings; the streaming pass above kept only headers and
                // signatures, so this is the one full read of the main executable, and only with --appflip.
                executable: try? ipa.executableBytes(of: main.bundle),
                matcher: documents.linkMatcher,
                bundle: main.bundle.path
            )
        }
        for bundle in firebase {
            findings += FirebaseChecks.check(bundle, settings: configuration.firebase, matcher: documents.linkMatcher)
        }

        var kept: [Finding] = []
        var suppressed: [(finding: Finding, reason: String)] = []
        for finding in Set(findings) {
            if let suppression = configuration.suppressions.first(where: { $0.covers(finding) }) {
                suppressed.append((finding, suppression.reason))
            } else {
                kept.append(finding)
            }
        }
        return GateResult(
            findings: kept.sorted(),
            suppressed: suppressed.sorted { $0.finding < $1.finding },
            sites: documents.reports
        )
    }

    /// The fetch a domain entry needs, or nil when iOS would never look it up (unusable, unknown service, or a
    /// developer-mode entry in a distribution build).
    static func fetchTarget(_ domain: AssociatedDomain, signing: SigningKind?) -> AASAFetchTarget? {
        guard domain.isUsable, ServiceMapping.aasaService(domain.service) != nil else { return nil }
        if signing == .distribution, domain.mode?.requiresDevelopmentSigning == true { return nil }
        let mode = domain.mode.flatMap { AASAFetchTarget.Mode(rawValue: $0.rawValue) }
        return AASAFetchTarget(host: (domain.wildcard ? "*." : "") + domain.host, mode: mode)
    }

    // MARK: - Cross-checks

    /// Holds each of the bundle's entries against its host's AASA.
    ///
    /// An app's `appclips:` entry (as opposed to the clip's own) is answered by the App Clip's ID: the AASA's
    /// `appclips.apps` lists clips, never full apps.
    private static func crossCheck(
        _ fact: BundleFacts,
        documents: SiteDocuments,
        parent: BundleFacts?,
        clipAppIDs: [String]
    ) -> [Finding] {
        var findings: [Finding] = []
        let bundle = fact.bundle.path
        for domain in fact.domains {
            guard let target = fetchTarget(domain, signing: fact.signingKind),
                let service = ServiceMapping.aasaService(domain.service)
            else { continue }
            if let mode = domain.mode, mode != .developer,
                fact.entitlements["com.apple.developer.associated-domains.mdm-managed"]?.boolValue != true
            {
                findings.append(
                    CrossCheckRules.managedWithoutEntitlement.finding(
                        "\(domain.entry) uses mode=\(mode.rawValue), but the app is not signed with "
                            + "com.apple.developer.associated-domains.mdm-managed",
                        bundle: bundle,
                        domain: domain.host
                    )
                )
            }
            guard let appID = fact.appID else { continue }
            let site = documents.site(for: target)
            guard let judged = site?.origin ?? site?.cdn else {
                findings.append(
                    CrossCheckRules.noUsableAASA.finding(
                        "\(domain.entry): no apple-app-site-association could be read for \(target.fetchHost)"
                            + (site?.originProblem.map { " (\($0))" } ?? ""),
                        bundle: bundle,
                        domain: target.fetchHost
                    )
                )
                continue
            }
            var subject = appID
            if service == .appclips && fact.bundle.kind != .appclip {
                guard
                    let clip = clipAppIDs.first(where: { judged.appIDs(for: .appclips).contains($0) })
                        ?? clipAppIDs.first
                else {
                    findings.append(
                        CrossCheckRules.appClipsWithoutClip.finding(
                            "\(domain.entry) is claimed, but \(bundle) contains no App Clip",
                            bundle: bundle,
                            domain: domain.host
                        )
                    )
                    continue
                }
                subject = clip
            }
            findings += listing(
                appID: subject,
                service: service,
                document: judged,
                entry: domain,
                host: target.fetchHost,
                bundle: bundle
            )
            if let origin = site?.origin, let cdn = site?.cdn {
                findings += cdnComparison(
                    appID: subject,
                    service: service,
                    origin: origin,
                    cdn: cdn,
                    host: target.fetchHost,
                    bundle: bundle
                )
            }
        }
        if fact.bundle.kind == .appclip {
            findings += appClipCoverage(fact, parent: parent)
        }
        return findings
    }

    private static func listing(
        appID: String,
        service: AASAService,
        document: AASADocument,
        entry: AssociatedDomain,
        host: String,
        bundle: String
    ) -> [Finding] {
        let listed = document.appIDs(for: service)
        guard listed.contains(appID) else {
            let bundleID = appID.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init) ?? appID
            if let other = listed.first(where: {
                $0.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init) == bundleID
            }) {
                return [
                    CrossCheckRules.appIDWrongPrefix.finding(
                        "\(host) lists \(other) for \(service.rawValue), but the build is signed as \(appID)",
                        bundle: bundle,
                        domain: host,
                        location: "\(host)/.well-known/apple-app-site-association"
                    )
                ]
            }
            let known = listed.isEmpty ? "no app IDs" : listed.prefix(5).joined(separator: ", ")
            return [
                CrossCheckRules.appIDNotListed.finding(
                    "\(entry.entry): \(host)'s AASA does not list \(appID) for \(service.rawValue) (it lists \(known))",
                    bundle: bundle,
                    domain: host,
                    location: "\(host)/.well-known/apple-app-site-association"
                )
            ]
        }
        guard service == .applinks else { return [] }
        let rules = document.effectiveRules(for: appID)
        if rules.allSatisfy(\.exclude) {
            let why = rules.isEmpty ? "its entry has no rules" : "every rule of its entry excludes"
            return [
                CrossCheckRules.noReachablePaths.finding(
                    "\(host) lists \(appID) for applinks, but \(why), so no link opens the app",
                    bundle: bundle,
                    domain: host
                )
            ]
        }
        return []
    }

    private static func cdnComparison(
        appID: String,
        service: AASAService,
        origin: AASADocument,
        cdn: AASADocument,
        host: String,
        bundle: String
    ) -> [Finding] {
        let inOrigin = origin.appIDs(for: service).contains(appID)
        let inCDN = cdn.appIDs(for: service).contains(appID)
        if inOrigin && !inCDN {
            return [
                CrossCheckRules.cdnLacksApp.finding(
                    "\(host): the origin lists \(appID) for \(service.rawValue) but Apple's CDN copy does not yet",
                    bundle: bundle,
                    domain: host
                )
            ]
        }
        guard service == .applinks, inOrigin, inCDN,
            origin.effectiveRules(for: appID) != cdn.effectiveRules(for: appID)
        else { return [] }
        return [
            CrossCheckRules.cdnDiffersForApp.finding(
                "\(host): Apple's CDN copy has different applinks rules for \(appID) than the origin",
                bundle: bundle,
                domain: host
            )
        ]
    }

    private static func appClipCoverage(_ clip: BundleFacts, parent: BundleFacts?) -> [Finding] {
        let claimed = clip.domains + (parent?.domains ?? [])
        return clip.domains.filter { $0.service == .appclips }.compactMap { domain in
            let covered = claimed.contains { $0.service == .applinks && $0.covers(host: domain.host) }
            guard !covered else { return nil }
            return CrossCheckRules.appClipWithoutAppLinks.finding(
                "\(domain.entry) has no matching applinks:\(domain.host) in the clip or its parent app",
                bundle: clip.bundle.path,
                domain: domain.host
            )
        }
    }

    private static func expectedDomains(_ expected: [String], facts: [BundleFacts]) -> [Finding] {
        let claimed = Set(
            facts.flatMap { $0.domains.map { "\($0.service.name):\($0.wildcard ? "*." : "")\($0.host)" } }
        )
        return expected.compactMap { entry in
            let parsed = AssociatedDomain.parse(entry: entry)
            let key = "\(parsed.service.name):\(parsed.wildcard ? "*." : "")\(parsed.host)"
            guard !claimed.contains(key) else { return nil }
            return CrossCheckRules.expectedDomainMissing.finding(
                "no bundle claims \(entry), which the config file expects",
                domain: parsed.host
            )
        }
    }

    private static func firebaseFacts(ipa: IPAFile, facts: [BundleFacts]) -> [FirebaseBundleFacts] {
        facts.compactMap { fact in
            let files = ipa.files(of: fact.bundle).filter {
                !$0.contains("/") && $0.hasPrefix("GoogleService-Info") && $0.hasSuffix(".plist")
            }
            guard !files.isEmpty || fact.bundle.parent == nil else { return nil }
            let serviceFiles = files.compactMap { name -> FirebaseServiceFile? in
                let member = fact.bundle.path + "/" + name
                guard let bytes = try? ipa.read(member), let plist = try? PlistParser.parse(bytes) else { return nil }
                return FirebaseServiceFile(path: member, plist: plist)
            }
            return FirebaseBundleFacts(
                path: fact.bundle.path,
                isExtension: fact.bundle.kind == .appex,
                infoPlist: fact.bundle.infoPlist,
                serviceFiles: serviceFiles,
                associatedDomains: fact.domains.map(\.entryValue),
                appID: fact.appID
            )
        }
    }
}

/// Maps entitlement services to AASA sections.
enum ServiceMapping {
    /// The AASA section that answers for `service`, or nil for services ipacheck cannot judge (authsrv, unknown).
    static func aasaService(_ service: AssociatedDomain.Service) -> AASAService? {
        switch service {
        case .applinks: .applinks
        case .webcredentials: .webcredentials
        case .appclips: .appclips
        case .activitycontinuation: .activitycontinuation
        case .authsrv, .unknown: nil
        }
    }
}
