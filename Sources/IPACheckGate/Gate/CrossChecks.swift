import IPACheckAASA
import IPACheckBundle
import IPACheckLinks
import IPACheckPlist
import IPACheckReport
import IPACheckSites

/// The cross-checks of the release gate (the LINK rules): each bundle's signed associated domains held against
/// the AASA copy ``SiteDocuments/judged(_:)`` picks, App Clip coverage and the config's expected domains.
enum CrossChecks {
    /// A claim whose host has no readable AASA: `applinks:example.com (Payload/App.app)`.
    struct UnservedClaim {
        let host: String
        let claim: String
    }

    /// Holds each of the bundle's entries against its host's AASA.
    ///
    /// An app's `appclips:` entry (as opposed to the clip's own) is answered by the App Clip's ID: the AASA's
    /// `appclips.apps` lists clips, never full apps. Claims whose host has no readable file are returned apart, so
    /// the host's one serving finding can name them all.
    static func check(
        _ fact: BundleFacts,
        documents: SiteDocuments,
        parent: BundleFacts?,
        clipAppIDs: [String]
    ) -> (findings: [Finding], unserved: [UnservedClaim]) {
        var findings: [Finding] = []
        var unserved: [UnservedClaim] = []
        let bundle = fact.bundle.path
        for domain in fact.domains {
            guard let target = ReleaseGate.fetchTarget(domain, signing: fact.signingKind),
                let service = ServiceMapping.aasaService(domain.service)
            else { continue }
            if let mode = domain.mode, mode != .developer,
                fact.entitlements[AssociatedDomains.mdmManagedKey]?.boolValue != true
            {
                findings.append(
                    CrossCheckRules.rules.managedWithoutEntitlement.finding(
                        "\(domain.entry) uses mode=\(mode.rawValue), but the app is not signed with "
                            + AssociatedDomains.mdmManagedKey,
                        bundle: bundle,
                        domain: domain.host
                    )
                )
            }
            guard let appID = fact.appID else { continue }
            guard let judged = documents.judged(target) else {
                unserved.append(UnservedClaim(host: target.fetchHost, claim: "\(domain.entry) (\(bundle))"))
                continue
            }
            var subject = appID
            if service == .appclips && fact.bundle.kind != .appclip {
                guard
                    let clip = clipAppIDs.first(where: { judged.document.appIDs(for: .appclips).contains($0) })
                        ?? clipAppIDs.first
                else {
                    findings.append(
                        CrossCheckRules.rules.appClipsWithoutClip.finding(
                            "\(domain.entry) is claimed, but \(bundle) contains no App Clip",
                            bundle: bundle,
                            domain: domain.host
                        )
                    )
                    continue
                }
                subject = clip
            }
            findings += listing(appID: subject, service: service, judged: judged, entry: domain, bundle: bundle)
            if target.usesCDN, let site = documents.site(for: target), let origin = site.origin, let cdn = site.cdn {
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
        return (findings, unserved)
    }

    /// One finding per host without a readable AASA: the host's own serving error (SERVE, CDN) names every claim
    /// it breaks; only when the fetch left no error to name them does LINK006 say it.
    static func unservedHosts(_ claims: [UnservedClaim], siteFindings: inout [Finding]) -> [Finding] {
        var order: [String] = []
        var byHost: [String: [String]] = [:]
        for claim in claims {
            if byHost[claim.host] == nil { order.append(claim.host) }
            if byHost[claim.host]?.contains(claim.claim) != true { byHost[claim.host, default: []].append(claim.claim) }
        }
        var findings: [Finding] = []
        for host in order {
            let affected = byHost[host] ?? []
            if let index = siteFindings.indices.filter({
                siteFindings[$0].domain == host && siteFindings[$0].severity == .error
            }).min(by: { siteFindings[$0] < siteFindings[$1] }) {
                siteFindings[index].affects = (siteFindings[index].affects ?? []) + affected
                continue
            }
            findings.append(
                CrossCheckRules.rules.noUsableAASA.finding(
                    "no apple-app-site-association could be read for \(host)",
                    domain: host,
                    affects: affected
                )
            )
        }
        return findings
    }

    private static func listing(
        appID: String,
        service: AASAService,
        judged: JudgedDocument,
        entry: AssociatedDomain,
        bundle: String
    ) -> [Finding] {
        let host = entry.host
        let listed = judged.document.appIDs(for: service)
        guard listed.contains(appID) else {
            let bundleID = appID.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init) ?? appID
            if let other = listed.first(where: {
                $0.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init) == bundleID
            }) {
                return [
                    CrossCheckRules.rules.appIDWrongPrefix.finding(
                        "\(judged.name) lists \(other) for \(service.rawValue), but the build is signed as \(appID)",
                        bundle: bundle,
                        domain: host,
                        location: "\(host)/.well-known/apple-app-site-association"
                    )
                ]
            }
            let known = listed.isEmpty ? "no app IDs" : listed.prefix(5).joined(separator: ", ")
            return [
                CrossCheckRules.rules.appIDNotListed.finding(
                    "\(entry.entry): \(judged.name) does not list \(appID) for \(service.rawValue) (it lists \(known))",
                    bundle: bundle,
                    domain: host,
                    location: "\(host)/.well-known/apple-app-site-association"
                )
            ]
        }
        guard service == .applinks else { return [] }
        let rules = judged.document.effectiveRules(for: appID)
        if rules.allSatisfy(\.exclude) {
            let why = rules.isEmpty ? "its entry has no rules" : "every rule of its entry excludes"
            return [
                CrossCheckRules.rules.noReachablePaths.finding(
                    "\(judged.name) lists \(appID) for applinks, but \(why), so no link opens the app",
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
                CrossCheckRules.rules.cdnLacksApp.finding(
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
            CrossCheckRules.rules.cdnDiffersForApp.finding(
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
            return CrossCheckRules.rules.appClipWithoutAppLinks.finding(
                "\(domain.entry) has no matching applinks:\(domain.host) in the clip or its parent app",
                bundle: clip.bundle.path,
                domain: domain.host
            )
        }
    }

    /// LINK007 for each entry of the config's `expectedDomains` that no bundle claims.
    static func expectedDomains(_ expected: [String], facts: [BundleFacts]) -> [Finding] {
        let claimed = Set(
            facts.flatMap { $0.domains.map { "\($0.service.name):\($0.wildcard ? "*." : "")\($0.host)" } }
        )
        return expected.compactMap { entry in
            let parsed = AssociatedDomain.parse(entry: entry)
            let key = "\(parsed.service.name):\(parsed.wildcard ? "*." : "")\(parsed.host)"
            guard !claimed.contains(key) else { return nil }
            return CrossCheckRules.rules.expectedDomainMissing.finding(
                "no bundle claims \(entry), which the config file expects",
                domain: parsed.host
            )
        }
    }
}
