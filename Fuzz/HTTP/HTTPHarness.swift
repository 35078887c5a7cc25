import Foundation
import IPACheckFetching
import IPACheckFuzzSupport
import IPACheckReport
import IPACheckSites

/// A site check against made-up answers: status and header classification (Content-Type, redirects, encodings,
/// sizes), the CDN's cache and failure headers (`Cache-Control`, `Age`, `Apple-Failure-Reason`,
/// `Apple-Failure-Details`, `Apple-Try-Direct`), the body as an AASA file, and the report rendered as text.
///
/// Input: up to three answers separated by NUL bytes, for the well-known URL (and the user-agent comparison),
/// the root-path fallback, and Apple's CDN. Each answer is an HTTP/1.1-like text: a status line (`200`; `200 cut`
/// for a body the fetcher cut at its size cap; `!timeout` or any other ``FetchFailure/Kind`` for a failed
/// fetch), header lines `Name: value`, an empty line, the body. A missing answer is a reset connection.
enum HTTPHarness {
    /// The host every check is for.
    static let target = AASAFetchTarget(host: "example.com")

    static func run(_ bytes: [UInt8]) {
        let answers = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map(answer)
        let fetcher = AnswerFetcher(answers: answers)
        let result = waitFor { await AASASiteFetcher(fetcher: fetcher, options: FetchOptions()).check(target) }
        _ = result.report.lines
        _ = try? JSONEncoder().encode(result.report)
        _ = NetworkUnavailable.diagnose([result])
    }

    /// Decodes one answer (see the type's comment).
    static func answer(_ bytes: ArraySlice<UInt8>) -> FetchOutcome {
        let blankLine = bytes.indices.first {
            bytes[$0] == 0x0A && bytes.index(after: $0) < bytes.endIndex
                && bytes[bytes.index(after: $0)] == 0x0A
        }
        let headEnd = blankLine ?? bytes.endIndex
        let body = blankLine.map { Array(bytes[($0 + 2)...]) } ?? []
        var lines = String(decoding: bytes[..<headEnd], as: UTF8.self).split(separator: "\n")
        let statusLine = lines.isEmpty ? "" : lines.removeFirst()
        if statusLine.hasPrefix("!") {
            let kind = FetchFailure.Kind(rawValue: String(statusLine.dropFirst())) ?? .other
            return .failure(FetchFailure(kind, "fuzzed failure"))
        }
        let headers = lines.compactMap { line -> HTTPHeaderField? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return HTTPHeaderField(String(line[..<colon]), String(line[line.index(after: colon)...]))
        }
        return .response(
            FetchResponse(
                status: Int(statusLine.prefix { $0 != " " }) ?? 200,
                headers: headers,
                body: body,
                bodyTruncated: statusLine.hasSuffix(" cut")
            )
        )
    }
}

/// Answers each request from the input: the CDN lookup with the third answer, the root-path fallback with the
/// second, everything else (the well-known URL under any user agent) with the first.
struct AnswerFetcher: HTTPFetching {
    let answers: [FetchOutcome]

    func fetch(_ request: FetchRequest) async -> FetchOutcome {
        let index =
            if request.url.host == FetchOptions.appleCDNBase?.host {
                2
            } else if request.url.path == "/apple-app-site-association" {
                1
            } else {
                0
            }
        return index < answers.count ? answers[index] : .failure(FetchFailure(.connectionReset, "no answer"))
    }
}

/// Fuzzes with libFuzzer in a fuzz build, replays the files named on the command line otherwise.
@main
enum Main {
    static func main() { FuzzMain.run(HTTPHarness.run) }
}
