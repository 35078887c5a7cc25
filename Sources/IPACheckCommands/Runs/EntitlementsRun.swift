import IPACheckPlist
import IPACheckReport

/// `ipacheck entitlements APP.ipa`: one bundle's signed entitlements, as a document.
package enum EntitlementsRun {
    /// The document's format.
    package enum Format: String, CaseIterable, Sendable {
        /// A property list document.
        case xml
        /// JSON.
        case json
    }

    /// Prints the entitlements of `bundle` (default: the main app) of the ipa or Mach-O at `path`, read from
    /// `source`; exits 2 when they cannot be read.
    package static func run(
        path: String,
        bundle: String?,
        source: EntitlementSource,
        format: Format,
        archive: ArchiveSettings
    ) async throws {
        let answer = try await CommandExit.reportingInputErrors {
            try EntitlementsAnswer.read(
                path: path,
                bundle: bundle,
                source: source,
                limits: archive.limits
            )
        }
        for note in answer.notes { Console.diagnose("ipacheck: note: \(note)") }
        switch format {
        case .xml: Console.printRendered(UntrustedText.escapedInXML(answer.value.xmlDocument))
        case .json: try Console.printJSON(answer.value)
        }
    }
}
