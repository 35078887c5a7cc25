import IPACheckGate
import IPACheckLinks
import IPACheckReport

/// `ipacheck explain URL TARGET`: support triage for one link, traced through the release gate's own judgement.
package enum ExplainRun {
    /// Walks `url` through the gate's judgement of the build at `path` and prints the steps in `format`; exits 1
    /// when the link does not open the app, 2 when it cannot be decided.
    package static func run(
        url: String,
        path: String,
        appID: String?,
        format: OutputFormat,
        project: ProjectSettings,
        network: NetworkSettings,
        archive: ArchiveSettings
    ) async throws {
        // Only the files of the entries that claim the URL's host are asked for (as a device sends the host).
        let result = try await GateAnswerRun.check(
            path: path,
            appID: appID,
            project: project,
            network: network,
            archive: archive,
            onlyClaimsOf: (try? TappedURL(url))?.host ?? "",
            keepingLocalJudgement: true
        )
        let explanation = result.links.explain(url)
        switch format {
        case .json: try Console.printJSON(explanation, schema: .explain)
        case .text: Console.printRendered(explanation.text(style: Console.style))
        }
        // With no network, the steps before the file still stand: a link they break is decided (exit 1), one that
        // needs the file is not (exit 2), and either way the network is named once.
        if let unavailable = result.networkUnavailable {
            let undecided = explanation.verdict == .undecided
            Console.diagnose("ipacheck: \(undecided ? "error" : "note"): \(unavailable)")
            if undecided { throw CommandExit.badInput }
        }
        if !explanation.opensApp { throw CommandExit.problems }
    }
}
