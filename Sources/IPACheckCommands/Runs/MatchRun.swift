package import IPACheckAASA
package import IPACheckArchive
package import IPACheckFetching
import IPACheckGate
import IPACheckLinks
import IPACheckReport
import IPACheckSites

/// `ipacheck match URL... --app-id ID`: whether iOS would open these URLs in this app, with the deciding rule.
package enum MatchRun {
    /// Judges every URL (the arguments, then the lines of `urlFile`) for `appID` and `service`.
    ///
    /// The service defaults to applinks. URLs are judged against the `aasa` file offline, else against the copy
    /// devices read of each URL's host, and the answers streamed in `format`; exits 2 when a line is not a
    /// universal link (every other URL is still answered), 1 unless every verdict is match.
    package static func run(
        urls: [String],
        urlFile: String?,
        appID: String,
        aasa: String?,
        service: AASAService?,
        explain: Bool,
        format: OutputFormat,
        network: FetchOptions
    ) async throws {
        let service = service ?? .applinks
        let list = try openList(urlFile)
        // A line that is not a universal link is reported with its line number and skipped, and every other URL is
        // still answered. Live, every URL is checked first and its host noted, to fetch each host's file; with
        // --aasa (and no --explain) each is checked as it is judged, in one pass over the list.
        let checkedWhileJudged = aasa != nil && !explain
        var hosts: Set<String> = []
        var badLines = 0
        if !checkedWhileJudged {
            // With --aasa the hosts do not matter: only whether each line is a universal link.
            let collectingHosts = aasa == nil
            let checkBatch: @Sendable (URLBatches.Batch) -> Checked = { batch in
                check(batch, collectingHosts: collectingHosts)
            }
            try await CommandExit.reportingInputErrors {
                try URLBatches.forEachResult(urls: urls, list: list, transform: checkBatch) { checked in
                    report(checked.problems, in: urlFile)
                    badLines += checked.problems.count
                    hosts.formUnion(checked.hosts)
                }
            }
        }
        let documents = try await loadDocuments(for: hosts, aasa: aasa, network: network)
        if aasa == nil {
            Console.diagnose(
                "ipacheck: note: with --app-id each URL's host is assumed to be claimed literally (applinks:HOST, "
                    + "read from its own file); pass --build to resolve the claim as the build does"
            )
        }
        let writer = MatchResultWriter(format: format == .json ? .json : .text) { Console.write($0) }
        let judge = MatchJudge(
            appID: appID,
            service: service,
            documents: documents,
            live: aasa == nil,
            explain: explain,
            format: writer.format,
            reportsProblems: checkedWhileJudged
        )
        try await CommandExit.reportingInputErrors {
            try URLBatches.forEachResult(urls: urls, list: list, transform: judge.callAsFunction) { judged in
                report(judged.problems, in: urlFile)
                badLines += judged.problems.count
                writer.write(judged.results)
            }
        }
        writer.finish()
        // Each bad line was named on stderr as it was found; the answers for the others are out.
        if badLines > 0 { throw CommandExit.badInput }
        if !writer.everyURLMatches { throw CommandExit.problems }
    }

    /// `ipacheck match URL... --build TARGET`: every URL judged as ``LinkModel/matchAnswer(_:)`` judges it, on the
    /// gate's judgement of the build (the claim resolved as the build's entitlements make iOS resolve it, the
    /// build's app IDs, the copy devices read), so the answer is `explain`'s and `links`'.
    package static func run(
        urls: [String],
        urlFile: String?,
        build: String,
        appID: String?,
        explain: Bool,
        format: OutputFormat,
        project: ProjectSettings,
        network: FetchOptions,
        archive: ArchiveLimits
    ) async throws {
        let list = try openList(urlFile)
        var badLines = 0
        let result = try await GateAnswerRun.check(
            path: build,
            appID: appID,
            project: project,
            network: network,
            archive: archive
        )
        let model = result.links
        let writer = MatchResultWriter(format: format == .json ? .json : .text) { Console.write($0) }
        let outputFormat = writer.format
        // Each line is checked as it is judged, in one pass over the list: one that is not a universal link is
        // named with its line number and skipped, and every other URL is still answered.
        let judge: @Sendable (URLBatches.Batch) -> (MatchResultWriter.Batch, Checked) = { batch in
            var problems: [(line: Int?, message: String)] = []
            var answers: [AASAMatchExplanation] = []
            batch.forEachURL { bytes, line in
                do throws(LinkURL.NotAUniversalLink) {
                    try LinkURL.requireUniversalLink(utf8: bytes)
                } catch {
                    problems.append((line, error.description))
                    return
                }
                let url = String(decoding: bytes, as: UTF8.self)
                guard (try? TappedURL.deviceForm(url)) != nil else { return }
                answers.append(model.matchAnswer(url))
            }
            let formatted =
                explain
                ? MatchResultWriter.format(answers, as: outputFormat)
                : MatchResultWriter.format(answers.map(\.result), as: outputFormat)
            return (formatted, (hosts: [], problems: problems))
        }
        try await CommandExit.reportingInputErrors {
            try URLBatches.forEachResult(urls: urls, list: list, transform: judge) { formatted, checked in
                report(checked.problems, in: urlFile)
                badLines += checked.problems.count
                writer.write(formatted)
            }
        }
        writer.finish()
        if badLines > 0 { throw CommandExit.badInput }
        if !writer.everyURLMatches { throw CommandExit.problems }
    }

    /// Names each line that is not a universal link on stderr, with the list's name and the line number.
    private static func report(_ problems: [(line: Int?, message: String)], in urlFile: String?) {
        for problem in problems {
            Console.diagnose(
                "ipacheck: error: \(problem.line.map { "\(urlFile ?? ""):\($0): " } ?? "")\(problem.message)"
            )
        }
    }

    /// The `--urls` file, opened to stream; one that cannot be read ends the run (exit 2).
    private static func openList(_ urlFile: String?) throws -> URLListFile? {
        do {
            return try urlFile.map { path throws(InputError) in try URLListFile(path: path) }
        } catch {
            Console.diagnose("ipacheck: error: \(error.description)")
            throw CommandExit.badInput
        }
    }

    /// What checking a batch found: the hosts of its URLs (if collected), and every line that is not a universal
    /// link.
    private typealias Checked = (hosts: Set<String>, problems: [(line: Int?, message: String)])

    private static func check(_ batch: URLBatches.Batch, collectingHosts: Bool) -> Checked {
        var hosts: Set<String> = []
        var problems: [(line: Int?, message: String)] = []
        batch.forEachURL { bytes, line in
            do throws(LinkURL.NotAUniversalLink) {
                if collectingHosts {
                    let url = try TappedURL.deviceForm(String(decoding: bytes, as: UTF8.self))
                    hosts.insert(try LinkURL.universalLinkHost(url))
                } else {
                    try LinkURL.requireUniversalLink(utf8: bytes)
                }
            } catch {
                problems.append((line, error.description))
            }
        }
        return (hosts, problems)
    }

    /// The documents to judge against: the --aasa file under the key "", or, for each URL's host, the copy devices
    /// read (Apple's CDN copy; the origin's with --no-cdn, said so) and the origin's file beside it.
    private static func loadDocuments(
        for hostSet: Set<String>,
        aasa: String?,
        network: FetchOptions
    ) async throws -> [String: MatchJudge.HostDocuments] {
        if let aasa {
            let bytes: [UInt8]
            do {
                bytes = try InputFile.read(aasa, limit: AASADocument.Limits.hardByteCap, what: "an AASA file")
            } catch {
                Console.diagnose("ipacheck: error: \(error)")
                throw CommandExit.badInput
            }
            do {
                let document = try AASADocument.parse(bytes, now: network.now)
                for finding in AASAFileReading.findings(of: document) {
                    Console.diagnose("ipacheck: \(finding.severity.rawValue): \(finding.message)")
                }
                return ["": MatchJudge.HostDocuments(device: document, origin: nil, missing: "")]
            } catch {
                Console.diagnose("ipacheck: error: \(aasa): \(error.description)")
                throw CommandExit.badInput
            }
        }
        let hosts = hostSet.sorted()
        let results = try await CommandExit.reportingInputErrors {
            try await network.withFetcher { options, fetcher in
                let results = await AASASiteFetcher(fetcher: fetcher, options: options)
                    .checkAndJudge(hosts.map { AASAFetchTarget(host: $0) })
                if !options.isOffline, let failure = NetworkUnavailable.diagnose(results) { throw failure }
                return results
            }
        }
        var documents: [String: MatchJudge.HostDocuments] = [:]
        for result in results {
            let host = result.report.host
            let visible = UntrustedText.visibleOnOneLine
            switch result.deviceCopy {
            case .readable(let judged, let source)?:
                Console.diagnose("ipacheck: \(visible(host)): judged on \(visible(source))")
                let origin = judged.copy == .cdn ? result.origin?.document : nil
                documents[host] = MatchJudge.HostDocuments(device: judged.document, origin: origin, missing: "")
            case .missing(let reason, let source)?:
                let worst = result.report.findings.first { $0.severity == .error }?.message
                let why = "devices read \(source), and it has none: \(worst ?? reason)"
                Console.diagnose("ipacheck: \(visible(host)): \(visible(why))")
                documents[host] = MatchJudge.HostDocuments(device: nil, origin: result.origin?.document, missing: why)
            case nil:
                documents[host] = MatchJudge.HostDocuments(device: nil, origin: nil, missing: "\(host) was not fetched")
            }
        }
        return documents
    }
}
