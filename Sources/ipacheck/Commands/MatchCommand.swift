import ArgumentParser
import Foundation
import IPACheckAASA
import IPACheckFetching
import IPACheckGate
import IPACheckLinks
import IPACheckReport
import IPACheckSites

/// `ipacheck match URL... --app-id ID`, which says whether iOS would open these URLs in this app.
struct MatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Would iOS open these URLs in this app? Apple's matching rules, with the deciding rule and why.",
        discussion: """
            Verdicts: match (the app opens it), block (an exclude rule stops it), none (no rule for this app matches, or devices have no copy of the file). With --aasa the file is read offline. Without it, each URL's host is fetched live and judged on the copy devices read: Apple's CDN copy (the origin's file with --no-cdn or --offline, said so on stderr); when the origin's file answers otherwise, its answer is shown beside. A URL that is not a universal link is reported with its line number and skipped; the others are answered and the run exits 2. Exit 0 only if every verdict is match.

            Examples:
              ipacheck match https://example.com/products/42 --app-id ABCDE12345.com.example.app --aasa aasa.json
              ipacheck match --urls sitemap-urls.txt --app-id ABCDE12345.com.example.app --aasa aasa.json --format json
              ipacheck match https://example.com/cart --app-id ABCDE12345.com.example.app
            """
    )

    @Argument(help: "The URLs to judge.")
    var urls: [String] = []

    @Option(help: "The app's application-identifier (TEAMID.bundle.id), as `ipacheck domains` shows it.")
    var appID: String

    @Option(help: "An AASA file to judge against, offline.")
    var aasa: String?

    @Option(help: "The service: applinks, webcredentials, appclips or activitycontinuation.")
    var service: AASAService = .applinks

    @Option(name: .customLong("urls"), help: ArgumentHelp("Read more URLs from FILE, one a line.", valueName: "file"))
    var urlFile: String?

    @Flag(help: "Also print every rule tried and why it did or did not match.")
    var explain = false

    @OptionGroup var output: FormatOption

    @OptionGroup var network: NetworkOptions

    func validate() throws {
        if urls.isEmpty && urlFile == nil { throw ValidationError("give at least one URL, or --urls FILE") }
        if !appID.contains(".") {
            throw ValidationError("--app-id is TEAMID.bundle.id, e.g. ABCDE12345.com.example.app")
        }
    }

    func run() async throws {
        let list: URLListFile?
        do {
            list = try urlFile.map { path throws(InputError) in try URLListFile(path: path) }
        } catch {
            Console.diagnose("ipacheck: error: \(error.description)")
            throw ExitStatus.badInput
        }
        // First every URL is checked and its host noted; a line that is not a universal link is reported with its
        // line number and skipped, and every other URL is still answered.
        var hosts: Set<String> = []
        var badLines = 0
        try await ExitStatus.reportingInputErrors {
            // With --aasa the hosts do not matter: only whether each line is a universal link.
            let collectingHosts = aasa == nil
            let check: @Sendable (URLBatches.Batch) -> Checked = { batch in
                Self.check(batch, collectingHosts: collectingHosts)
            }
            try URLBatches.forEachResult(urls: urls, list: list, transform: check) { checked in
                for problem in checked.problems {
                    Console.diagnose(
                        "ipacheck: error: \(problem.line.map { "\(urlFile ?? ""):\($0): " } ?? "")\(problem.message)"
                    )
                }
                badLines += checked.problems.count
                hosts.formUnion(checked.hosts)
            }
        }
        let documents = try await loadDocuments(for: hosts)
        let writer = MatchResultWriter(format: output.format == .json ? .json : .text) { Console.write($0) }
        let judge = Judge(
            appID: appID,
            service: service,
            documents: documents,
            live: aasa == nil,
            explain: explain,
            format: writer.format
        )
        try await ExitStatus.reportingInputErrors {
            try URLBatches.forEachResult(urls: urls, list: list, transform: judge.callAsFunction) { writer.write($0) }
        }
        writer.finish()
        // Each bad line was named on stderr as it was found; the answers for the others are out.
        if badLines > 0 { throw ExitStatus.badInput }
        if !writer.everyURLMatches { throw ExitStatus.problems }
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
                    hosts.insert(try LinkURL.universalLinkHost(String(decoding: bytes, as: UTF8.self)))
                } else {
                    try LinkURL.requireUniversalLink(utf8: bytes)
                }
            } catch {
                problems.append((line, error.description))
            }
        }
        return (hosts, problems)
    }

    /// What one host offers a URL: the copy devices read and, when that is Apple's CDN copy, the origin's file
    /// (shown beside the verdict when it answers otherwise), or why devices have no copy.
    private struct HostDocuments: Sendable {
        let device: AASADocument?
        let origin: AASADocument?
        let missing: String
    }

    /// Judges a batch of URLs against the documents (one per host live, one under "" for --aasa) and formats them;
    /// a URL that is not a universal link was reported when the URLs were checked, and is skipped.
    ///
    /// Each batch compiles its own matchers: the threads then share no compiled rule or string, whose reference
    /// counts they would otherwise fight over on every URL (measured: two thirds of the time went to retains).
    private struct Judge: Sendable {
        let appID: String
        let service: AASAService
        let documents: [String: HostDocuments]
        let live: Bool
        let explain: Bool
        let format: MatchResultWriter.Format

        func callAsFunction(_ batch: URLBatches.Batch) -> MatchResultWriter.Batch {
            var matchers = Matchers(judge: self)
            if explain {
                let explanations = batch.map { url, _ -> AASAMatchExplanation? in
                    guard Self.isUniversalLink(url) else { return nil }
                    let host = matchers.host(of: url)
                    guard let matcher = matchers.device(for: host) else {
                        return AASAMatchExplanation(result: unjudged(url, host: host, matchers: &matchers), steps: [])
                    }
                    var explanation = matcher.explain(url)
                    explanation.result.origin = matchers.originAnswer(url, host: host, device: explanation.result)
                    return explanation
                }
                return MatchResultWriter.format(explanations.compactMap { $0 }, as: format)
            }
            if !live, let matcher = matchers.device(for: "") {
                // One document for every URL: no lookup per URL.
                let results = batch.map { url, _ in Self.isUniversalLink(url) ? matcher.evaluate(url) : nil }
                return MatchResultWriter.format(results.compactMap { $0 }, as: format)
            }
            let results = batch.map { url, _ -> AASAMatchResult? in
                guard Self.isUniversalLink(url) else { return nil }
                let host = matchers.host(of: url)
                guard let matcher = matchers.device(for: host) else {
                    return unjudged(url, host: host, matchers: &matchers)
                }
                var result = matcher.evaluate(url)
                result.origin = matchers.originAnswer(url, host: host, device: result)
                return result
            }
            return MatchResultWriter.format(results.compactMap { $0 }, as: format)
        }

        private static func isUniversalLink(_ url: String) -> Bool {
            (try? LinkURL.requireUniversalLink(url)) != nil
        }

        /// The matchers one batch compiles, as its URLs need them.
        private struct Matchers {
            let judge: Judge
            var device: [String: AASAMatcher] = [:]
            var origin: [String: AASAMatcher] = [:]

            func host(of url: String) -> String {
                judge.live ? ((try? LinkURL.universalLinkHost(url)) ?? "") : ""
            }

            mutating func device(for host: String) -> AASAMatcher? {
                if let matcher = device[host] { return matcher }
                guard let document = judge.documents[host]?.device else { return nil }
                let matcher = compile(document, host: host)
                device[host] = matcher
                return matcher
            }

            /// The origin's answer, when devices read Apple's CDN copy and the origin's file answers otherwise.
            mutating func originAnswer(
                _ url: String,
                host: String,
                device: AASAMatchResult?
            ) -> AASAMatchResult.OriginAnswer? {
                let matcher: AASAMatcher
                if let compiled = origin[host] {
                    matcher = compiled
                } else {
                    guard let document = judge.documents[host]?.origin else { return nil }
                    matcher = compile(document, host: host)
                    origin[host] = matcher
                }
                let answer = matcher.evaluate(url)
                guard answer.verdict != device?.verdict else { return nil }
                return AASAMatchResult.OriginAnswer(verdict: answer.verdict, why: answer.why)
            }

            private func compile(_ document: AASADocument, host: String) -> AASAMatcher {
                // A copy of the app ID of its own too: every result holds it.
                document.matcher(
                    for: String(decoding: Array(judge.appID.utf8), as: UTF8.self),
                    service: judge.service,
                    domain: judge.live ? host : nil
                )
            }
        }

        private func unjudged(_ url: String, host: String, matchers: inout Matchers) -> AASAMatchResult {
            var result = AASAMatchResult(
                url: url,
                appID: appID,
                verdict: .none,
                rule: nil,
                why: documents[host]?.missing ?? "no AASA could be read for \(host)"
            )
            result.origin = matchers.originAnswer(url, host: host, device: result)
            return result
        }
    }

    /// The documents to judge against: the --aasa file under the key "", or, for each URL's host, the copy devices
    /// read (Apple's CDN copy; the origin's with --no-cdn, said so) and the origin's file beside it.
    private func loadDocuments(for hostSet: Set<String>) async throws -> [String: HostDocuments] {
        if let aasa {
            let bytes: [UInt8]
            do {
                bytes = try InputFile.read(aasa, limit: AASADocument.Limits.hardByteCap, what: "an AASA file")
            } catch {
                Console.diagnose("ipacheck: error: \(error)")
                throw ExitStatus.badInput
            }
            do {
                let parsed = try AASADocument.parse(bytes)
                for finding in parsed.findings {
                    Console.diagnose("ipacheck: \(finding.severity.rawValue): \(finding.message)")
                }
                return ["": HostDocuments(device: parsed.document, origin: nil, missing: "")]
            } catch {
                Console.diagnose("ipacheck: error: \(aasa): \(error.description)")
                throw ExitStatus.badInput
            }
        }
        let hosts = hostSet.sorted()
        let results = try await ExitStatus.reportingInputErrors {
            try await network.withFetcher { options, fetcher in
                let results = await AASASiteFetcher(fetcher: fetcher, options: options)
                    .check(hosts.map { AASAFetchTarget(host: $0) })
                if !options.isOffline, let failure = NetworkUnavailable.diagnose(results) { throw failure }
                return results
            }
        }
        var documents: [String: HostDocuments] = [:]
        for result in results {
            let host = result.report.host
            let visible = UntrustedText.visibleOnOneLine
            switch result.deviceCopy {
            case .readable(let judged, let source)?:
                Console.diagnose("ipacheck: \(visible(host)): judged on \(visible(source))")
                let origin = judged.copy == .cdn ? result.origin?.document : nil
                documents[host] = HostDocuments(device: judged.document, origin: origin, missing: "")
            case .missing(let reason, let source)?:
                let worst = result.report.findings.first { $0.severity == .error }?.message
                let why = "devices read \(source), and it has none: \(worst ?? reason)"
                Console.diagnose("ipacheck: \(visible(host)): \(visible(why))")
                documents[host] = HostDocuments(device: nil, origin: result.origin?.document, missing: why)
            case nil:
                documents[host] = HostDocuments(device: nil, origin: nil, missing: "\(host) was not fetched")
            }
        }
        return documents
    }
}
