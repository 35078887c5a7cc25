package import IPACheckArchive
import IPACheckDevice
package import IPACheckFetching
import IPACheckGate
import IPACheckReport

/// `ipacheck links TARGET`: for every rule the build's domains serve, a link it decides and what iOS will do.
package enum LinksRun {
    /// The sheet's format.
    package enum Format: String, CaseIterable, Sendable {
        /// For people.
        case text
        /// For machines.
        case json
        /// A page to tap through on a device.
        case html
    }

    /// Prints the link sheet of the build at `path` (or an entitlements file, whose application identifier
    /// `appID` gives when it names none) in `format`.
    package static func run(
        path: String,
        appID: String?,
        device devicePath: String? = nil,
        format: Format,
        project: ProjectSettings,
        network: FetchOptions,
        archive: ArchiveLimits
    ) async throws {
        let device = try await CommandExit.reportingInputErrors {
            try devicePath.map { path throws(InputError) in try DeviceEvidence(path: path) }
        }
        let result = try await GateAnswerRun.check(
            path: path,
            appID: appID,
            project: project,
            network: network,
            archive: archive
        )
        let sheet =
            device.map { result.links.linkSheet(device: $0, build: DeviceComparedBuild(facts: result.facts)) }
            ?? result.links.linkSheet()
        switch format {
        case .json: try Console.printJSON(sheet, schema: .links)
        case .text: Console.printRendered(sheet.text(style: Console.style))
        case .html: Console.write(Array(sheet.html.utf8))
        }
    }
}
