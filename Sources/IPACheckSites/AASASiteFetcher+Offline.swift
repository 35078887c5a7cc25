import Foundation
import IPACheckAASA
import IPACheckFetching
import IPACheckLinks
import IPACheckReport

/// Files read from a folder instead of the network (`--offline`).
extension AASASiteFetcher {
    func readOffline(_ target: AASAFetchTarget, directory: URL, report: AASASiteReport) -> AASASiteResult {
        var report = report
        let host = target.fetchHost
        let file = directory.appendingPathComponent(host).appendingPathComponent("apple-app-site-association")
        let outcome: FetchOutcome
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            // One byte past the cap tells a file at the cap from a longer one (the cap is a settable property).
            let limit = min(max(1, options.bodyLimit), Int.max - 1)
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            let truncated = data.count > limit
            outcome = .response(
                FetchResponse(
                    status: 200,
                    headers: [],
                    body: Array(data.prefix(limit)),
                    bodyTruncated: truncated
                )
            )
        } catch {
            report.origin = OriginObservation(
                url: file.relativePath,
                location: .offlineFile,
                userAgent: nil,
                outcome: .failure(FetchFailure(.offline, FileProblem.words(error)))
            )
            report.problems = [
                SiteProblem(
                    .offlineMissing,
                    "cannot read \(file.relativePath)",
                    domain: host,
                    location: file.relativePath
                )
            ]
            return AASASiteResult(report: report)
        }
        report.origin = OriginObservation(
            url: file.relativePath,
            location: .offlineFile,
            userAgent: nil,
            outcome: outcome
        )
        guard case .response(let response) = outcome else { return AASASiteResult(report: report) }
        var problems: [SiteProblem] = []
        var parsedFile: ParsedAASA?
        if response.bodyTruncated {
            problems.append(
                SiteProblem(
                    .exceedsFetchLimit,
                    "\(file.relativePath) is larger than the \(options.bodyLimit)-byte cap",
                    domain: host,
                    location: file.relativePath
                )
            )
        } else {
            if response.body.count > Self.appleSizeLimit {
                problems.append(
                    SiteProblem(
                        .tooLarge,
                        "\(file.relativePath) is \(response.body.count) bytes, more than Apple's \(Self.appleSizeLimit)",
                        domain: host,
                        location: file.relativePath
                    )
                )
            }
            switch AASABody.read(response.body, now: options.now) {
            case .success(let parsed):
                parsedFile = parsed
            case .failure(let problem):
                problems.append(
                    SiteProblem(
                        .notJSON,
                        "\(file.relativePath) is not a usable AASA file: \(problem)",
                        domain: host,
                        location: file.relativePath
                    )
                )
            }
        }
        report.problems = problems
        return AASASiteResult(report: report, origin: parsedFile)
    }
}
