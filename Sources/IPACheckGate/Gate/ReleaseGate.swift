package import Foundation
import IPACheckAASA
package import IPACheckArchive
import IPACheckBinary
package import IPACheckBundle
package import IPACheckFetching
import IPACheckLinks
import IPACheckPlist
package import IPACheckReport
package import IPACheckSigning
package import IPACheckSites

/// What `ipacheck check` needs besides the ipas: how to reach AASA files, what the build is for, what else to check.
package struct GateOptions: Sendable {
    /// Timeouts, CDN base, offline folder.
    package var fetch: FetchOptions
    /// Performs requests; nil when offline.
    package var fetcher: (any HTTPFetching)?
    /// The project configuration (expected domains, suppressions, App Flip, Firebase, distribution).
    package var configuration: GateConfiguration
    /// What the build is for, from `--distribution` (wins over the configuration's).
    package var distribution: Distribution?
    /// The time expiry is judged at, for the build and the files its hosts serve alike: the fetch options' own
    /// (one value, so the two cannot drift apart).
    package var now: Date {
        get { fetch.now }
        set { fetch.now = newValue }
    }
    /// The application identifier of an entitlements file that names none (`--app-id`).
    package var appID: String?
    /// What an ipa may hold (members, sizes): ``ArchiveLimits/standard`` unless `--max-members` says otherwise.
    package var archiveLimits: ArchiveLimits
    /// Whether managed (`?mode=managed`) entries are judged as on a device whose MDM enables direct downloads
    /// (the origin's file) rather than Apple's CDN copy (`--mdm-direct-downloads`).
    package var mdmDirectDownloads: Bool
    /// Which hosts' files are asked for; the build's own checks all run whichever.
    package var hostsAsked: HostsAsked = .every

    /// Which hosts' files a run asks for.
    package enum HostsAsked: Sendable, Equatable {
        /// Every host the build's entries name (`check`, `links`).
        case every
        /// Only the files of the entries that claim this host (`explain` asks what one URL needs).
        case claimsOf(String)
        /// None: the build's own judgement only (`domains`, which says where a device installs the build).
        case none
    }

    /// Creates options; the judgement time is `fetch`'s.
    package init(
        fetch: FetchOptions,
        fetcher: (any HTTPFetching)?,
        configuration: GateConfiguration = GateConfiguration(),
        distribution: Distribution? = nil,
        archiveLimits: ArchiveLimits = .standard,
        appID: String? = nil,
        mdmDirectDownloads: Bool = false
    ) {
        self.mdmDirectDownloads = mdmDirectDownloads
        self.fetch = fetch
        self.fetcher = fetcher
        self.configuration = configuration
        self.distribution = distribution
        self.archiveLimits = archiveLimits
        self.appID = appID
    }

    /// The distribution asked for: the option, else the configuration's.
    var askedDistribution: Distribution? { distribution ?? configuration.distribution }
}

/// What the gate found for one ipa.
package struct GateResult: Sendable {
    /// The findings that count, worst first.
    package let findings: [Finding]
    /// The findings the configuration suppressed, each with its reason: still reported, never counted.
    package let suppressed: [Report.Suppressed]
    /// Which rules were carried out, and why the others were not.
    package let coverage: RuleCoverage
    /// What each host served (origin, user agents, CDN), for JSON consumers and triage.
    package let sites: [AASASiteReport]
    /// The distribution the build was judged for (`nil`: nothing said what it is for).
    package let distribution: Distribution?
    /// What iOS will do with the build's links: what `explain` traces a URL through.
    package let links: LinkModel
    /// What the build's bundles hold, as read once for the judgement (`domains` lists them from here).
    package let facts: [BundleFacts]
    /// What opening and reading the archive found, before any judgement.
    package let archiveFindings: [Finding]
    /// Set when nothing at all could be reached: the hosts' files were not checked, everything else was.
    package var networkUnavailable: NetworkUnavailable? = nil
}

/// The release gate: every bundle's signed entitlements held against the AASA files that serve its domains, plus
/// the archive, the seal (code pages, special slots, CMS, resources), the profile, the distribution, App Flip and
/// Firebase.
///
/// A run reads each ipa once (``SealScan``), one after the other, then fetches every host of every ipa at once,
/// then judges each ipa.
package enum ReleaseGate {
    /// The result for one input.
    package enum Outcome: Sendable {
        /// The ipa was read and judged.
        case checked(GateResult)
        /// The ipa could not be read.
        case unreadable(InputError)
    }

    /// What a run is doing, for a progress line: long work is reading large builds and waiting for many hosts.
    package enum Progress: Sendable {
        /// Reading build `index` (from 1) of `total`.
        case reading(path: String, index: Int, total: Int)
        /// Asking `hosts` hosts for their AASA file (each origin, and Apple's CDN unless offline).
        case fetching(hosts: Int)
    }

    /// Checks the ipas at `paths`, in order.
    ///
    /// - Parameter progress: Told before each build is read and before the hosts are asked.
    /// When nothing at all could be reached, no domain is blamed for it: each result carries
    /// ``GateResult/networkUnavailable``, the checks of the hosts' files are listed as not run, and every other
    /// finding stands (a failure in one part never hides another part's findings).
    package static func run(
        paths: [String],
        options: GateOptions,
        progress: (Progress) -> Void = { _ in }
    ) async -> [Outcome] {
        var builds: [Result<InspectedBuild, InputError>] = []
        for (index, path) in paths.enumerated() {
            progress(.reading(path: path, index: index + 1, total: paths.count))
            do {
                var build = try await inspect(path: path, options: options)
                switch options.hostsAsked {
                case .every: break
                case .claimsOf(let host): build.targets = build.targets.filter { $0.serves(host: host) }
                case .none: build.targets = []
                }
                build.integrity.trustFindings = await trustFindings(build, now: options.now)
                builds.append(.success(build))
            } catch {
                builds.append(.failure(error))
            }
        }
        let targets = builds.flatMap { (try? $0.get())?.targets ?? [] }
        if !targets.isEmpty { progress(.fetching(hosts: Set(targets.map(\.fetchHost)).count)) }
        let results = await AASASiteFetcher(fetcher: options.fetcher, options: options.fetch).checkAndJudge(targets)
        let unavailable = options.fetch.isOffline ? nil : NetworkUnavailable.diagnose(results)
        return builds.map { build in
            switch build {
            case .success(let inspected):
                .checked(
                    judge(
                        inspected,
                        sites: unavailable == nil ? results : [],
                        options: options,
                        unavailable: unavailable
                    )
                )
            case .failure(let error): .unreadable(error)
            }
        }
    }

    /// Checks one ipa (fetching only its own hosts).
    ///
    /// - Throws: ``InputError`` when the ipa cannot be read, ``NetworkUnavailable`` when nothing could be reached.
    package static func check(
        path: String,
        options: GateOptions,
        progress: (Progress) -> Void = { _ in }
    ) async throws -> GateResult {
        let result = try await judge(path: path, options: options, progress: progress)
        if let unavailable = result.networkUnavailable { throw unavailable }
        return result
    }

    /// Checks one ipa as ``check(path:options:progress:)`` does, but keeps the build's own judgement when nothing
    /// could be reached (``GateResult/networkUnavailable`` says so) rather than ending with the network's error.
    ///
    /// - Throws: ``InputError`` when the ipa cannot be read.
    package static func judge(
        path: String,
        options: GateOptions,
        progress: (Progress) -> Void = { _ in }
    ) async throws(InputError) -> GateResult {
        switch await run(paths: [path], options: options, progress: progress).first {
        case .checked(let result)?: return result
        case .unreadable(let error)?: throw error
        case nil: throw InputError("unreadable", file: path, "was not checked")
        }
    }

    // MARK: - Judging

    static func judge(
        _ build: InspectedBuild,
        sites: [AASASiteResult],
        options: GateOptions,
        unavailable: NetworkUnavailable? = nil
    ) -> GateResult {
        let facts = build.facts
        let wanted = Set(build.targets.map { "\($0.fetchHost)?\($0.mode?.rawValue ?? "")" })
        let documents = SiteDocuments(
            sites.filter { wanted.contains("\($0.report.fetchHost)?\($0.report.mode?.rawValue ?? "")") }
        )
        let distribution = DistributionChecks.effective(asked: options.askedDistribution, facts: facts)
        var input = GateInput(build: build, documents: documents, options: options, distribution: distribution)
        input.networkUnavailable = unavailable
        var findings: [Finding] = []
        var coverage = RuleCoverage()
        for check in GateChecks.all {
            let outcome = check.outcome(on: input)
            findings += outcome.findings
            coverage.merge(outcome.coverage)
        }
        let configuration = options.configuration
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
        // What a device does with the build does not depend on the distribution asked for: a build no device
        // installs says so in every command, even where `--distribution development` accepts it as policy.
        var deviceFindings = keptFindings
        if !build.isEntitlementsFile {
            // Only the unsigned code of each seal, merged as the seal's findings are: judging every seal again here
            // would build each resource seal's findings twice.
            let unsigned = build.integrity.seals.flatMap { seal in
                Finding.merged(
                    seal.problems.compactMap { problem in
                        guard case .signing(let signing) = problem, signing.kind == .unsigned else { return nil }
                        return signing.finding
                    }
                )
                .sorted()
            }
            let installFacts = DistributionChecks.installFacts(facts) + unsigned
            for finding in installFacts
            where !deviceFindings.contains(finding)
                && !configuration.suppressions.contains(where: { $0.covers(finding) })
            {
                deviceFindings.append(finding)
            }
        }
        return GateResult(
            findings: keptFindings,
            suppressed: suppressed.sorted { $0.finding < $1.finding },
            coverage: coverage,
            sites: documents.reports,
            distribution: distribution,
            links: LinkModel(
                claims: LinkModel.claims(of: facts, mdmDirectDownloads: options.mdmDirectDownloads),
                findings: deviceFindings.sorted(),
                distribution: distribution,
                installsOn: build.isEntitlementsFile ? nil : LinkModel.installation(facts.first),
                buildNotChecked: build.isEntitlementsFile ? GateChecks.notABuild : nil,
                now: options.now,
                filesUnavailable: unavailable?.notCheckedReason,
                unclaimedBecause: facts.unsignedReason,
                documents: documents
            ),
            facts: facts,
            archiveFindings: build.integrity.archiveFindings,
            networkUnavailable: unavailable
        )
    }
}
