import IPACheckAASA
import IPACheckLinks

/// Judges a batch of URLs against the documents (one per host live, one under "" for --aasa) and formats them;
/// a URL that is not a universal link is skipped, and named in the batch's problems when the judge reports them
/// (otherwise it was reported when the URLs were checked, before).
///
/// Each batch compiles its own matchers: the threads then share no compiled rule or string, whose reference
/// counts they would otherwise fight over on every URL (measured: two thirds of the time went to retains).
struct MatchJudge: Sendable {
    /// What one host offers a URL: the copy devices read and, when that is Apple's CDN copy, the origin's file
    /// (shown beside the verdict when it answers otherwise), or why devices have no copy.
    struct HostDocuments: Sendable {
        let device: AASADocument?
        let origin: AASADocument?
        let missing: String
    }

    let appID: String
    let service: AASAService
    let documents: [String: HostDocuments]
    let live: Bool
    let explain: Bool
    let format: MatchResultWriter.Format
    /// Whether the lines that are not universal links are named here, as each is judged: a run with --aasa needs
    /// no hosts before judging, so the list is read once (the pass that checked every line first took a tenth of
    /// `match --urls`' time, measured with scripts/bench-match).
    var reportsProblems = false

    /// A batch judged: its formatted answers, and each line that is not a universal link (when the judge reports
    /// them), with its line number (nil for a URL given as an argument).
    struct Judged: Sendable {
        let results: MatchResultWriter.Batch
        var problems: [(line: Int?, message: String)] = []
    }

    func callAsFunction(_ batch: URLBatches.Batch) -> Judged {
        var problems: [(line: Int?, message: String)] = []
        let results = judge(batch, problems: &problems)
        return Judged(results: results, problems: problems)
    }

    /// The URL as a device receives it, or nil when it is no universal link: then named in `problems` in the words
    /// the check before judging used (``LinkURL/requireUniversalLink(utf8:)``'s), when this judge reports them.
    private func deviceForm(
        _ bytes: ArraySlice<UInt8>,
        line: Int?,
        problems: inout [(line: Int?, message: String)]
    ) -> String? {
        do throws(LinkURL.NotAUniversalLink) {
            return try TappedURL.deviceForm(utf8: bytes)
        } catch {
            guard reportsProblems else { return nil }
            do throws(LinkURL.NotAUniversalLink) {
                try LinkURL.requireUniversalLink(utf8: bytes)
                problems.append((line, error.description))
            } catch {
                problems.append((line, error.description))
            }
            return nil
        }
    }

    private func judge(
        _ batch: URLBatches.Batch,
        problems: inout [(line: Int?, message: String)]
    )
        -> MatchResultWriter.Batch
    {
        var matchers = Matchers(judge: self)
        if explain {
            let explanations = batch.map { written, _ -> AASAMatchExplanation? in
                guard let url = Self.deviceForm(written) else { return nil }
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
        // Results are appended where they are made: a million of them are not copied again (each copy retains
        // every string of the result).
        var results: [AASAMatchResult] = []
        results.reserveCapacity(batch.count)
        if !live, let matcher = matchers.device(for: "") {
            // One document for every URL: no lookup per URL.
            batch.forEachURL { bytes, line in
                if let url = deviceForm(bytes, line: line, problems: &problems) {
                    results.append(matcher.evaluate(url))
                }
            }
            return MatchResultWriter.format(results, as: format)
        }
        batch.forEachURL { bytes, line in
            guard let url = deviceForm(bytes, line: line, problems: &problems) else { return }
            let host = matchers.host(of: url)
            guard let matcher = matchers.device(for: host) else {
                results.append(unjudged(url, host: host, matchers: &matchers))
                return
            }
            var result = matcher.evaluate(url)
            result.origin = matchers.originAnswer(url, host: host, device: result)
            results.append(result)
        }
        return MatchResultWriter.format(results, as: format)
    }

    /// The URL as a device receives it (``TappedURL``), or `nil` when it is no universal link (reported when the
    /// URLs were checked).
    private static func deviceForm(_ url: String) -> String? {
        try? TappedURL.deviceForm(url)
    }

    /// The matchers one batch compiles, as its URLs need them.
    private struct Matchers {
        let judge: MatchJudge
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
