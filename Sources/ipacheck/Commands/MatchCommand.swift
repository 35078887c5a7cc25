import ArgumentParser
import Foundation
import IPACheckAASA
import IPACheckCore
import IPACheckReport

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
        var all = urls
        if let urlFile {
            guard let data = FileManager.default.contents(atPath: urlFile) else {
                Console.diagnose("ipacheck: error: \(urlFile): cannot be read")
                throw ExitStatus.badInput
            }
            all += String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        var hosts: [String: String] = [:]
        for url in all {
            do {
                hosts[url] = try LinkURL.universalLink(url).host
            } catch {
                Console.diagnose("ipacheck: error: \(UntrustedText.visibleOnOneLine(error.description))")
                throw ExitStatus.badInput
            }
        }
        let documents = try await loadDocuments(for: Set(hosts.values))
        var results: [AASAMatchResult] = []
        var explanations: [AASAMatchExplanation] = []
        var matchers: [String: AASAMatcher] = [:]
        for url in all {
            let host = hosts[url] ?? ""
            guard let document = documents[aasa == nil ? host : ""] else {
                results.append(
                    AASAMatchResult(
                        url: url,
                        appID: appID,
                        verdict: .none,
                        rule: nil,
                        why: "no AASA could be read for \(host)"
                    )
                )
                continue
            }
            let key = aasa == nil ? host : ""
            let matcher =
                matchers[key] ?? document.matcher(for: appID, service: service, domain: aasa == nil ? host : nil)
            matchers[key] = matcher
            if explain {
                let explanation = matcher.explain(url)
                explanations.append(explanation)
                results.append(explanation.result)
            } else {
                results.append(matcher.evaluate(url))
            }
        }
        switch output.format {
        case .json: try Console.printJSON(MatchOutput(results: results))
        case .text:
            if explain {
                Console.print(explanations.map { $0.textLines.joined(separator: "\n") }.joined(separator: "\n\n"))
            } else {
                Console.print(results.map(\.textLine).joined(separator: "\n"))
            }
        }
        if !results.allSatisfy({ $0.verdict == .match }) { throw ExitStatus.problems }
    }

    /// The documents to judge against: the --aasa file under the key "", or each URL host's live file.
    private func loadDocuments(for hostSet: Set<String>) async throws -> [String: AASADocument] {
        if let aasa {
            guard let data = FileManager.default.contents(atPath: aasa) else {
                Console.diagnose("ipacheck: error: \(aasa): cannot be read")
                throw ExitStatus.badInput
            }
            do {
                let parsed = try AASADocument.parse(Array(data))
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

/// `ipacheck match --format json`: `{"results": [...]}`.
private struct MatchOutput: Encodable {
    let results: [AASAMatchResult]
}
