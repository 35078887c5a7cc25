import ArgumentParser
import Foundation
import IPACheckAASA
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
            Verdicts: match (the app opens it), block (an exclude rule stops it), none (no rule for this app matches). With --aasa the file is read offline; without it, each URL's host is fetched live (Apple's CDN copy, which devices use, else the origin's file). Exit 0 only if every verdict is match.

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
        // First every URL is checked (and its host noted), so that a bad line stops the run before any output.
        var hosts: Set<String> = []
        try await ExitStatus.reportingInputErrors {
            // With --aasa the hosts do not matter: only whether each line is a universal link.
            let collectingHosts = aasa == nil
            let check: @Sendable (URLBatches.Batch) -> Checked = { batch in
                Self.check(batch, collectingHosts: collectingHosts)
            }
            try URLBatches.forEachResult(urls: urls, list: list, transform: check) { checked in
                if let problem = checked.problem {
                    Console.diagnose(
                        "ipacheck: error: \(problem.line.map { "\(urlFile ?? ""):\($0): " } ?? "")\(problem.message)"
                    )
                    throw ExitStatus.badInput
                }
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
        if !writer.everyURLMatches { throw ExitStatus.problems }
    }

    /// What checking a batch found: the hosts of its URLs (if collected), or the first that is not a universal link.
    private typealias Checked = (hosts: Set<String>, problem: (line: Int?, message: String)?)

    private static func check(_ batch: URLBatches.Batch, collectingHosts: Bool) -> Checked {
        var hosts: Set<String> = []
        var problem: (line: Int?, message: String)?
        do {
            try batch.forEachURL { bytes, line in
                do throws(LinkURL.NotAUniversalLink) {
                    if collectingHosts {
                        hosts.insert(try LinkURL.universalLinkHost(String(decoding: bytes, as: UTF8.self)))
                    } else {
                        try LinkURL.requireUniversalLink(utf8: bytes)
                    }
                } catch {
                    problem = (line, error.description)
                    throw error
                }
            }
        } catch {
            // The problem is noted; the batch's later URLs do not matter.
        }
        return (hosts, problem)
    }

    /// Judges a batch of URLs against the documents (one per host live, one under "" for --aasa) and formats them.
    ///
    /// Each batch compiles its own matchers: the threads then share no compiled rule or string, whose reference
    /// counts they would otherwise fight over on every URL (measured: two thirds of the time went to retains).
    private struct Judge: Sendable {
        let appID: String
        let service: AASAService
        let documents: [String: AASADocument]
        let live: Bool
        let explain: Bool
        let format: MatchResultWriter.Format

        func callAsFunction(_ batch: URLBatches.Batch) -> MatchResultWriter.Batch {
            var matchers = Matchers(judge: self)
            if explain {
                return MatchResultWriter.format(
                    batch.map { url, _ in
                        guard let matcher = matchers.matcher(for: url) else {
                            return AASAMatchExplanation(result: unjudged(url), steps: [])
                        }
                        return matcher.explain(url)
                    },
                    as: format
                )
            }
            if !live, let matcher = matchers.matcher(for: "") {
                // One document for every URL: no lookup per URL.
                return MatchResultWriter.format(batch.map { url, _ in matcher.evaluate(url) }, as: format)
            }
            return MatchResultWriter.format(
                batch.map { url, _ in
                    guard let matcher = matchers.matcher(for: url) else { return unjudged(url) }
                    return matcher.evaluate(url)
                },
                as: format
            )
        }

        /// The matchers one batch compiles, as its URLs need them.
        private struct Matchers {
            let judge: Judge
            var compiled: [String: AASAMatcher] = [:]

            mutating func matcher(for url: String) -> AASAMatcher? {
                let host = judge.live ? ((try? LinkURL.universalLinkHost(url)) ?? "") : ""
                if let matcher = compiled[host] { return matcher }
                guard let document = judge.documents[host] else { return nil }
                // A copy of the app ID of its own too: every result holds it.
                let matcher = document.matcher(
                    for: String(decoding: Array(judge.appID.utf8), as: UTF8.self),
                    service: judge.service,
                    domain: judge.live ? host : nil
                )
                compiled[host] = matcher
                return matcher
            }
        }

        private func unjudged(_ url: String) -> AASAMatchResult {
            let host = LinkURL(url).host ?? ""
            return AASAMatchResult(
                url: url,
                appID: appID,
                verdict: .none,
                rule: nil,
                why: "no AASA could be read for \(host)"
            )
        }
    }

    /// The documents to judge against: the --aasa file under the key "", or each URL host's live file.
    private func loadDocuments(for hostSet: Set<String>) async throws -> [String: AASADocument] {
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
                return ["": parsed.document]
            } catch {
                Console.diagnose("ipacheck: error: \(aasa): \(error.description)")
                throw ExitStatus.badInput
            }
        }
        let hosts = hostSet.sorted()
        let results = try await network.withFetcher { options, fetcher in
            await AASASiteFetcher(fetcher: fetcher, options: options).check(hosts.map { AASAFetchTarget(host: $0) })
        }
        var documents: [String: AASADocument] = [:]
        for result in results {
            guard let judged = result.judged else {
                let worst = result.report.findings.first { $0.severity == .error }?.message ?? "no usable file"
                Console.diagnose("ipacheck: \(UntrustedText.visibleOnOneLine("\(result.report.host): \(worst)"))")
                continue
            }
            Console.diagnose("ipacheck: judged against \(UntrustedText.visibleOnOneLine(judged.name))")
            documents[result.report.host] = judged.document
        }
        return documents
    }
}
