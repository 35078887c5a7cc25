import IPACheckAASA
import IPACheckBundle
import IPACheckFetching
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
    /// the host's one serving finding can name them all. What a failing `appclips` entry breaks depends on the
    /// clip's `MinimumOSVersion` (`clipMinimumOS`, by the clip's app ID; see
    /// ``PlatformFactChecks/appClipsEntryReach(minimumOS:)``).
    static func check(
        _ fact: BundleFacts,
        documents: SiteDocuments,
        parent: BundleFacts?,
        clipAppIDs: [String],
        clipMinimumOS: [String: String] = [:],
        mdmDirectDownloads: Bool = false
    ) -> [Finding] {
        var findings: [Finding] = []
        let bundle = fact.bundle.path
        for domain in fact.domains {
            guard
                let target = ReleaseGate.fetchTarget(
                    domain,
                    signing: fact.signingKind,
                    mdmDirectDownloads: mdmDirectDownloads
                ),
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
            // A host without a readable file is reported once, by its serving finding or LINK006 (``outcome(_:)``).
            guard let judged = documents.judged(target) else { continue }
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
            // An appclips entry is answered by a clip: say what its failure breaks on the OS versions it supports.
            let reach =
                service == .appclips
                ? PlatformFactChecks.appClipsEntryReach(
                    minimumOS: fact.bundle.kind == .appclip ? fact.bundle.minimumOSVersion : clipMinimumOS[subject]
                ) : nil
            findings += listing(
                appID: subject,
                service: service,
                judged: judged,
                entry: domain,
                bundle: bundle,
                reach: reach
            )
            if target.usesCDN, let site = documents.site(for: target), let origin = site.origin, let cdn = site.cdn {
                findings += cdnComparison(
                    appID: subject,
                    service: service,
                    origin: origin,
                    cdn: cdn,
                    host: target.fetchHost,
                    bundle: bundle,
                    reach: reach
                )
            }
        }
        if fact.bundle.kind == .appclip {
            findings += appClipCoverage(fact, parent: parent)
        }
        return findings
    }

    /// The claims whose host has no readable file (for builds and entitlements files alike).
    static func unserved(_ input: GateInput) -> [UnservedClaim] {
        input.facts.flatMap { fact in
            fact.domains.compactMap { domain -> UnservedClaim? in
                guard
                    let target = ReleaseGate.fetchTarget(
                        domain,
                        signing: fact.signingKind,
                        mdmDirectDownloads: input.options.mdmDirectDownloads
                    ),
                    ServiceMapping.aasaService(domain.service) != nil, fact.appID != nil,
                    input.documents.judged(target) == nil
                else { return nil }
                return UnservedClaim(host: target.fetchHost, claim: "\(domain.entry) (\(fact.bundle.path))")
            }
        }
    }

    /// The claims of each host, hosts in the order first claimed, each claim once.
    private static func byHost(_ claims: [UnservedClaim]) -> [(host: String, claims: [String])] {
        var order: [String] = []
        var byHost: [String: [String]] = [:]
        for claim in claims {
            if byHost[claim.host] == nil { order.append(claim.host) }
            if byHost[claim.host]?.contains(claim.claim) != true { byHost[claim.host, default: []].append(claim.claim) }
        }
        return order.map { ($0, byHost[$0] ?? []) }
    }

    /// The index of a host's worst serving error among `siteFindings`, if it has one.
    private static func servingError(of host: String, in siteFindings: [Finding]) -> Int? {
        siteFindings.indices.filter { siteFindings[$0].domain == host && siteFindings[$0].severity == .error }
            .min { siteFindings[$0] < siteFindings[$1] }
    }

    /// One cause, one finding: a host's worst serving error names every claim it breaks.
    static func nameUnservedClaims(_ claims: [UnservedClaim], in siteFindings: inout [Finding]) {
        for (host, affected) in byHost(claims) {
            guard let index = servingError(of: host, in: siteFindings) else { continue }
            siteFindings[index].affects = (siteFindings[index].affects ?? []) + affected
        }
    }

    /// LINK006 for each host without a readable file whose fetch left no serving error to name its claims.
    static func unservedHosts(_ claims: [UnservedClaim], siteFindings: [Finding]) -> [Finding] {
        byHost(claims).compactMap { host, affected in
            guard servingError(of: host, in: siteFindings) == nil else { return nil }
            return CrossCheckRules.rules.noUsableAASA.finding(
                "no apple-app-site-association could be read for \(host)",
                domain: host,
                affects: affected
            )
        }
    }

    /// The LINK rules on one input: every bundle's claims against its hosts' files, App Clip coverage and the
    /// config's expected domains, with which of the rules ran.
    static func outcome(_ input: GateInput) -> CheckOutcome {
        let facts = input.facts
        var outcome = CheckOutcome()
        for fact in facts {
            let clips = facts.filter { $0.bundle.kind == .appclip && $0.bundle.parent == fact.bundle.path }
            outcome.findings += check(
                fact,
                documents: input.documents,
                parent: fact.bundle.parent == nil ? nil : facts.first,
                clipAppIDs: clips.compactMap(\.appID),
                clipMinimumOS: Dictionary(
                    clips.compactMap { clip in
                        guard let appID = clip.appID, let minimum = clip.bundle.minimumOSVersion else { return nil }
                        return (appID, minimum)
                    },
                    uniquingKeysWith: { first, _ in first }
                ),
                mdmDirectDownloads: input.options.mdmDirectDownloads
            )
        }
        let unserved = unserved(input)
        outcome.findings += unservedHosts(unserved, siteFindings: input.documents.findings)
        let expected = input.options.configuration.expectedDomains
        outcome.findings += expectedDomains(expected, facts: facts)
        recordCoverage(input, unserved: unserved, into: &outcome.coverage)
        return outcome
    }

    private static func recordCoverage(
        _ input: GateInput,
        unserved: [UnservedClaim],
        into coverage: inout RuleCoverage
    ) {
        let rules = CrossCheckRules.rules
        if input.options.configuration.expectedDomains.isEmpty {
            coverage.skip([rules.expectedDomainMissing], because: "the config file lists no expectedDomains")
        } else {
            coverage.ran([rules.expectedDomainMissing])
        }
        if input.facts.contains(where: { $0.bundle.kind == .appclip }) {
            coverage.ran([rules.appClipWithoutAppLinks])
        } else {
            coverage.skip([rules.appClipWithoutAppLinks], because: "the build has no App Clip")
        }
        var left = rules.all.filter { $0 != rules.expectedDomainMissing && $0 != rules.appClipWithoutAppLinks }
        let claimed = input.facts.flatMap { fact in
            fact.domains.compactMap {
                ReleaseGate.fetchTarget(
                    $0,
                    signing: fact.signingKind,
                    mdmDirectDownloads: input.options.mdmDirectDownloads
                )
            }
        }
        guard !claimed.isEmpty else {
            coverage.skip(
                left,
                because: input.facts.unknownDomainsReason ?? input.facts.unsignedReason
                    ?? "no bundle claims an associated domain whose AASA iOS reads"
            )
            return
        }
        let cdnRules = [rules.cdnDiffersForApp, rules.cdnLacksApp]
        if input.options.fetch.isOffline || input.options.fetch.skipCDN {
            coverage.skip(cdnRules, because: "Apple's CDN was not asked (--offline or --no-cdn)")
            left.removeAll { cdnRules.contains($0) }
        }
        // The rules that hold an app ID against a file ran only where a claimed host's file was read; LINK006
        // passed only where every claimed host's was (otherwise the host's serving finding names the claims).
        let read = claimed.filter { input.documents.judged($0) != nil }
        let needFile =
            [rules.appIDNotListed, rules.appIDWrongPrefix, rules.noReachablePaths, rules.appClipsWithoutClip]
            + cdnRules
        if read.isEmpty {
            coverage.skip(
                left.filter { needFile.contains($0) },
                because: "no AASA file of a claimed domain could be read (see the serving findings)"
            )
            left.removeAll { needFile.contains($0) }
        }
        if !unserved.isEmpty || read.count < claimed.count {
            coverage.skip(
                [rules.noUsableAASA],
                because: "the hosts whose AASA could not be read are reported by their serving findings, which name "
                    + "the claims they break"
            )
            left.removeAll { $0 == rules.noUsableAASA }
        }
        coverage.ran(left)
    }

    private static func listing(
        appID: String,
        service: AASAService,
        judged: JudgedDocument,
        entry: AssociatedDomain,
        bundle: String,
        reach: String? = nil
    ) -> [Finding] {
        let host = entry.host
        // For appclips: what the missing listing breaks (website invocations; iOS 16.3 and earlier).
        let breaks = reach.map { "; \($0)" } ?? ""
        let listed = judged.document.appIDs(for: service)
        guard listed.contains(appID) else {
            let bundleID = appID.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init) ?? appID
            if let other = listed.first(where: {
                $0.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init) == bundleID
            }) {
                return [
                    CrossCheckRules.rules.appIDWrongPrefix.finding(
                        "\(judged.name) lists \(other) for \(service.rawValue), but the build is signed as \(appID)"
                            + breaks,
                        bundle: bundle,
                        domain: host,
                        location: "\(host)/.well-known/apple-app-site-association"
                    )
                ]
            }
            let known = listed.isEmpty ? "no app IDs" : listed.prefix(5).joined(separator: ", ")
            return [
                CrossCheckRules.rules.appIDNotListed.finding(
                    "\(entry.entry): \(judged.name) does not list \(appID) for \(service.rawValue) (it lists \(known))"
                        + breaks,
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
        bundle: String,
        reach: String? = nil
    ) -> [Finding] {
        let inOrigin = origin.appIDs(for: service).contains(appID)
        let inCDN = cdn.appIDs(for: service).contains(appID)
        if inOrigin && !inCDN {
            return [
                CrossCheckRules.rules.cdnLacksApp.finding(
                    "\(host): the origin lists \(appID) for \(service.rawValue) but Apple's CDN copy does not yet"
                        + (reach.map { "; \($0)" } ?? ""),
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
