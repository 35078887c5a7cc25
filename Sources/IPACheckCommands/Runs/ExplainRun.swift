package import IPACheckArchive
import IPACheckDevice
package import IPACheckFetching
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
        device devicePath: String? = nil,
        format: OutputFormat,
        project: ProjectSettings,
        network: FetchOptions,
        archive: ArchiveLimits
    ) async throws {
        // The URL first: one iOS never opens as a universal link is answered before any build is read or host asked.
        if let refused = LinkExplanation.refusing(url) {
            try show(refused, format: format)
            throw CommandExit.problems
        }
        // The device's record next: evidence that cannot be read ends the run before the network is asked.
        let device = try await CommandExit.reportingInputErrors {
            try devicePath.map { path throws(InputError) in try DeviceEvidence(path: path) }
        }
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
        var explanation = result.links.explain(url)
        if let device {
            explanation = explanation.joined(
                with: device,
                build: DeviceComparedBuild(facts: result.facts),
                now: result.links.now
            )
        }
        try show(explanation, format: format)
        // With no network, the steps before the file still stand: a link they break is decided (exit 1), one that
        // needs the file is not (exit 2), and either way the network is named once.
        if let unavailable = result.networkUnavailable {
            let undecided = explanation.verdict == .undecided
            Console.diagnose("ipacheck: \(undecided ? "error" : "note"): \(unavailable)")
            if undecided { throw CommandExit.badInput }
        }
        if !explanation.opensApp { throw CommandExit.problems }
    }

    private static func show(_ explanation: LinkExplanation, format: OutputFormat) throws {
        switch format {
        case .json: try Console.printJSON(explanation, schema: .explain)
        case .text: Console.printRendered(explanation.text(style: Console.style))
        }
    }
}
