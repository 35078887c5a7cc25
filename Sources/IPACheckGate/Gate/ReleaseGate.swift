public import Foundation
import IPACheckAASA
public import IPACheckArchive
import IPACheckBinary
import IPACheckBundle
public import IPACheckFetching
import IPACheckLinks
import IPACheckPlist
public import IPACheckReport
public import IPACheckSigning
public import IPACheckSites

/// What `ipacheck check` needs besides the ipas: how to reach AASA files, what the build is for, what else to check.
public struct GateOptions: Sendable {
    /// Timeouts, CDN base, offline folder.
    public var fetch: FetchOptions
    /// Performs requests; nil when offline.
    public var fetcher: (any HTTPFetching)?
    /// The project configuration (expected domains, suppressions, App Flip, Firebase, distribution).
    public var configuration: GateConfiguration
    /// What the build is for, from `--distribution` (wins over the configuration's).
    public var distribution: Distribution?
    /// The time expiry is judged at.
    public var now: Date
    /// The application identifier of an entitlements file that names none (`--app-id`).
    public var appID: String?
    /// What an ipa may hold (members, sizes): the standard limits keep a run within 64 MiB.
    public var archiveLimits: ArchiveLimits

    /// Creates options.
    public init(
        fetch: FetchOptions,
        fetcher: (any HTTPFetching)?,
        configuration: GateConfiguration = GateConfiguration(),
        distribution: Distribution? = nil,
        now: Date = Date(),
        archiveLimits: ArchiveLimits = .standard,
        appID: String? = nil
    ) {
        self.fetch = fetch
        self.fetcher = fetcher
        self.configuration = configuration
        self.distribution = distribution
        self.now = now
        self.archiveLimits = archiveLimits
        self.appID = appID
    }

    /// The distribution asked for: the option, else the configuration's.
    var askedDistribution: Distribution? { distribution ?? configuration.distribution }
}

/// What the gate found for one ipa.
public struct GateResult: Sendable {
    /// The findings that count, worst first.
    public let findings: [Finding]
    /// The findings the configuration suppressed, each with its reason: still reported, never counted.
    public let suppressed: [Report.Suppressed]
    /// Which rules were carried out, and why the others were not.
    public let coverage: RuleCoverage
    /// What each host served (origin, user agents, CDN), for JSON consumers and triage.
    public let sites: [AASASiteReport]
    /// The distribution the build was judged for (`nil`: nothing said what it is for).
    public let distribution: Distribution?
    /// What iOS will do with the build's links: what `explain` traces a URL through.
    public let links: LinkModel
}

/// The release gate: every bundle's signed entitlements held against the AASA files that serve its domains, plus
/// the archive, the seal (code pages, special slots, CMS, resources), the profile, the distribution, App Flip and
/// Firebase.
///
/// A run reads each ipa once (``SealScan``), one after the other, then fetches every host of every ipa at once,
/// then judges each ipa.
public enum ReleaseGate {
    /// The result for one input.
    public enum Outcome: Sendable {
        /// The ipa was read and judged.
        case checked(GateResult)
        /// The ipa could not be read.
        case unreadable(InputError)
    }

    /// What a run is doing, for a progress line: long work is reading large builds and waiting for many hosts.
    public enum Progress: Sendable {
        /// Reading build `index` (from 1) of `total`.
        case reading(path: String, index: Int, total: Int)
        /// Asking `hosts` hosts for their AASA file (each origin, and Apple's CDN unless offline).
        case fetching(hosts: Int)
    }

    /// Checks the ipas at `paths`, in order.
    ///
    /// - Parameter progress: Told before each build is read and before the hosts are asked.
    /// - Throws: ``NetworkUnavailable`` when nothing at all could be reached, so no domain is blamed for it.
    public static func run(
        paths: [String],
        options: GateOptions,
        progress: (Progress) -> Void = { _ in }
    ) async throws(NetworkUnavailable) -> [Outcome] {
        var builds: [Result<InspectedBuild, InputError>] = []
        for (index, path) in paths.enumerated() {
            progress(.reading(path: path, index: index + 1, total: paths.count))
            do {
                var build = try inspect(path: path, options: options)
                build.trustFindings = await trustFindings(build)
                builds.append(.success(build))
            } catch {
                builds.append(.failure(error))
            }
        }
        let targets = builds.flatMap { (try? $0.get())?.targets ?? [] }
        if !targets.isEmpty { progress(.fetching(hosts: Set(targets.map(\.fetchHost)).count)) }
        let results = await AASASiteFetcher(fetcher: options.fetcher, options: options.fetch).check(targets)
        if !options.fetch.isOffline, let failure = NetworkUnavailable.diagnose(results) { throw failure }
        return builds.map { build in
            switch build {
            case .success(let inspected): .checked(judge(inspected, sites: results, options: options))
            case .failure(let error): .unreadable(error)
            }
        }
    }

    /// Checks one ipa (fetching only its own hosts).
    ///
    /// - Throws: ``InputError`` when the ipa cannot be read, ``NetworkUnavailable`` when nothing could be reached.
    public static func check(path: String, options: GateOptions) async throws -> GateResult {
        switch try await run(paths: [path], options: options).first {
        case .checked(let result)?: return result
        case .unreadable(let error)?: throw error
        case nil: throw InputError("unreadable", file: path, "was not checked")
        }
    }

    // MARK: - Judging

    static func judge(_ build: InspectedBuild, sites: [AASASiteResult], options: GateOptions) -> GateResult {
        let configuration = options.configuration
        let facts = build.facts
        let wanted = Set(build.targets.map { "\($0.fetchHost)?\($0.mode?.rawValue ?? "")" })
        let documents = SiteDocuments(
            sites.filter { wanted.contains("\($0.report.fetchHost)?\($0.report.mode?.rawValue ?? "")") }
        )
        var coverage = RuleCoverage()
        var findings = build.archiveFindings
        let asked = options.askedDistribution
        let distribution = DistributionChecks.effective(asked: asked, facts: facts)
        if build.isEntitlementsFile {
            coverage.skip(
                ArchiveRules.rules.all + SealScan.rules.all + SignatureVerifier.rules.all + ResourceSeal.rules.all
                    + DistributionChecks.raised + SignedEntitlements.rules.all + ProfileChecks.rules.all
                    + BundleFactRules.rules.all + EntitlementComparison.rules.all + AppFlipChecks.rules.all
                    + FirebaseChecks.rules.all,
                because: "an entitlements file is not a build: check the built ipa for its archive, signature, seal, "
                    + "profile, App Flip and Firebase"
            )
            coverage.ran(EntitlementsFile.rules.all)
            recordDomainCoverage(facts, into: &coverage)
            return judgeLinks(
                build,
                documents: documents,
                findings: findings + facts.flatMap(\.findings),
                coverage: coverage,
                distribution: distribution,
                options: options
            )
        }
        coverage.skip(EntitlementsFile.rules.all, because: "the build's entitlements are signed, not a project file")
        coverage.ran(ArchiveRules.rules.all + SealScan.rules.all)

        // Signatures and seals; unsigned code is the distribution checks' question.
        let sealFindings = build.seals.flatMap(\.findings) + build.trustFindings
        if distribution == .development {
            findings += sealFindings.filter { $0.rule != SignatureVerifier.rules.unsigned.id }
            coverage.ran(
                SignatureVerifier.rules.all.filter { $0 != SignatureVerifier.rules.unsigned } + ResourceSeal.rules.all
            )
        } else {
            findings += sealFindings
            coverage.ran(SignatureVerifier.rules.all + ResourceSeal.rules.all)
        }
        findings += DistributionChecks.findings(
            distribution: distribution,
            asked: asked != nil,
            facts: facts,
            coverage: &coverage
        )

        // What each bundle's signature and profile say.
        findings += facts.flatMap(\.findings)
        coverage.ran(SignedEntitlements.rules.all)
        recordProfileCoverage(facts, into: &coverage)

        findings += appFlipAndFirebase(build, documents: documents, options: options, coverage: &coverage)
        return judgeLinks(
            build,
            documents: documents,
            findings: findings,
            coverage: coverage,
            distribution: distribution,
            options: options
        )
    }

    /// The App Flip and Firebase checks of a build, with their coverage.
    private static func appFlipAndFirebase(
        _ build: InspectedBuild,
        documents: SiteDocuments,
        options: GateOptions,
        coverage: inout RuleCoverage
    ) -> [Finding] {
        let configuration = options.configuration
        let facts = build.facts
        var findings: [Finding] = []
        let cdnAsked = documents.reports.contains { $0.cdn != nil }
        if let appFlip = configuration.appFlip, let main = facts.first, let appID = main.appID {
            findings += AppFlipChecks.check(
                config: appFlip,
                associatedDomains: main.domains,
                appID: appID,
                signing: main.signingKind ?? .distribution,
                infoPlist: main.bundle.infoPlist,
                executable: build.mainExecutableStrings,
                matcher: documents.linkMatcher,
                bundle: main.bundle.path
            )
        }
        AppFlipChecks.recordCoverage(
            config: configuration.appFlip,
            hasAppID: facts.first?.appID != nil,
            cdnAsked: cdnAsked,
            into: &coverage
        )
        for bundle in build.firebase {
            findings += FirebaseChecks.check(bundle, settings: configuration.firebase, matcher: documents.linkMatcher)
        }
        FirebaseChecks.recordCoverage(
            build.firebase,
            settings: configuration.firebase,
            cdnAsked: cdnAsked,
            into: &coverage
        )

        return findings
    }

    /// The cross-checks of every bundle's domains against the fetched files, then the configuration's
    /// suppressions: what a build and an entitlements file share.
    private static func judgeLinks(
        _ build: InspectedBuild,
        documents: SiteDocuments,
        findings bundleFindings: [Finding],
        coverage startingCoverage: RuleCoverage,
        distribution: Distribution?,
        options: GateOptions
    ) -> GateResult {
        let configuration = options.configuration
        let facts = build.facts
        var findings = bundleFindings
        var coverage = startingCoverage
        // The cross-checks against the fetched files.
        var siteFindings = documents.findings
        var unserved: [CrossChecks.UnservedClaim] = []
        for fact in facts {
            let clips = facts.filter { $0.bundle.kind == .appclip && $0.bundle.parent == fact.bundle.path }
            let result = CrossChecks.check(
                fact,
                documents: documents,
                parent: fact.bundle.parent == nil ? nil : facts.first,
                clipAppIDs: clips.compactMap(\.appID)
            )
            findings += result.findings
            unserved += result.unserved
        }
        findings += CrossChecks.unservedHosts(unserved, siteFindings: &siteFindings)
        findings += siteFindings
        findings += CrossChecks.expectedDomains(configuration.expectedDomains, facts: facts)
        recordSiteCoverage(build: build, documents: documents, options: options, into: &coverage)

        var kept: [Finding] = []
        var suppressed: [Report.Suppressed] = []
        for finding in Finding.merged(findings) {
            if let suppression = configuration.suppressions.first(where: { $0.covers(finding) }) {
                suppressed.append(Report.Suppressed(finding, reason: suppression.reason))
            } else {
                kept.append(finding)
            }
        }
        let keptFindings = kept.sorted()
        return GateResult(
            findings: keptFindings,
            suppressed: suppressed.sorted { $0.finding < $1.finding },
            coverage: coverage,
            sites: documents.reports,
            distribution: distribution,
            links: LinkModel(
                claims: LinkModel.claims(of: facts),
                findings: keptFindings,
                distribution: distribution,
                documents: documents
            )
        )
    }

    private static func recordProfileCoverage(_ facts: [BundleFacts], into coverage: inout RuleCoverage) {
        let profileRules =
            ProfileChecks.rules.all.filter { $0 != ProfileChecks.rules.developmentProfileInRelease }
            + BundleFactRules.rules.all
        if facts.contains(where: { $0.bundle.provisioningProfile != nil }) {
            coverage.ran(profileRules)
        } else {
            coverage.skip(profileRules, because: "the build embeds no provisioning profile")
        }
        if facts.contains(where: { $0.profile != nil && !$0.entitlements.isEmpty }) {
            coverage.ran(EntitlementComparison.rules.all)
        } else {
            coverage.skip(
                EntitlementComparison.rules.all,
                because: "no bundle has both a readable profile and signed entitlements to compare"
            )
        }
        recordDomainCoverage(facts, into: &coverage)
    }

    private static func recordDomainCoverage(_ facts: [BundleFacts], into coverage: inout RuleCoverage) {
        if facts.contains(where: { $0.entitlements[AssociatedDomains.key] != nil }) {
            coverage.ran(AssociatedDomainRules.rules.all)
        } else {
            coverage.skip(AssociatedDomainRules.rules.all, because: "no bundle is signed with associated domains")
        }
    }

    private static func recordSiteCoverage(
        build: InspectedBuild,
        documents: SiteDocuments,
        options: GateOptions,
        into coverage: inout RuleCoverage
    ) {
        let expected = options.configuration.expectedDomains
        if expected.isEmpty {
            coverage.skip(
                [CrossCheckRules.rules.expectedDomainMissing],
                because: "the config file lists no expectedDomains"
            )
        } else {
            coverage.ran([CrossCheckRules.rules.expectedDomainMissing])
        }
        if build.facts.contains(where: { $0.bundle.kind == .appclip }) {
            coverage.ran([CrossCheckRules.rules.appClipWithoutAppLinks])
        } else {
            coverage.skip([CrossCheckRules.rules.appClipWithoutAppLinks], because: "the build has no App Clip")
        }
        let linkRules = CrossCheckRules.rules.all.filter {
            $0 != CrossCheckRules.rules.expectedDomainMissing && $0 != CrossCheckRules.rules.appClipWithoutAppLinks
        }
        let cdnRules = [CrossCheckRules.rules.cdnDiffersForApp, CrossCheckRules.rules.cdnLacksApp]
        guard !build.targets.isEmpty else {
            let reason = "no bundle claims an associated domain whose AASA iOS reads"
            coverage.skip(linkRules + AASARules.all + ServingRules.rules.all + CDNRules.rules.all, because: reason)
            return
        }
        AASASiteFetcher.recordCoverage(options: options.fetch, into: &coverage)
        var linkRulesLeft = linkRules
        if options.fetch.isOffline || options.fetch.skipCDN {
            coverage.skip(cdnRules, because: "Apple's CDN was not asked (--offline or --no-cdn)")
            linkRulesLeft.removeAll { cdnRules.contains($0) }
        }
        // The rules that hold an app ID against a file ran only where a claimed host's file was read; LINK006
        // passed only where every claimed host's was (otherwise the host's serving finding names the claims).
        let claimed = build.facts.flatMap { fact in
            fact.domains.compactMap { fetchTarget($0, signing: fact.signingKind) }
        }
        let read = claimed.filter { documents.judged($0) != nil }
        let needFile =
            [
                CrossCheckRules.rules.appIDNotListed, CrossCheckRules.rules.appIDWrongPrefix,
                CrossCheckRules.rules.noReachablePaths, CrossCheckRules.rules.appClipsWithoutClip,
            ] + cdnRules
        if read.isEmpty {
            coverage.skip(
                linkRulesLeft.filter { needFile.contains($0) },
                because: "no AASA file of a claimed domain could be read (see the serving findings)"
            )
            linkRulesLeft.removeAll { needFile.contains($0) }
        }
        if read.count < claimed.count {
            coverage.skip(
                [CrossCheckRules.rules.noUsableAASA],
                because: "the hosts whose AASA could not be read are reported by their serving findings, which name "
                    + "the claims they break"
            )
            linkRulesLeft.removeAll { $0 == CrossCheckRules.rules.noUsableAASA }
        }
        coverage.ran(linkRulesLeft)
        if documents.anyDocument {
            coverage.ran(AASARules.all)
        } else {
            coverage.skip(AASARules.all, because: "no AASA file could be read (see the serving findings)")
        }
    }
}
