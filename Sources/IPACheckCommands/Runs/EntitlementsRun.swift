package import IPACheckArchive
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
        archive: ArchiveLimits
    ) async throws {
        let answer = try await CommandExit.reportingInputErrors {
            let answer = try EntitlementsAnswer.read(path: path, bundle: bundle, source: source, limits: archive)
            if format == .json, answer.value.dictionaryValue == nil {
                throw InputError(
                    "not-a-dictionary",
                    file: path,
                    "the entitlements' root is of type \(answer.value.typeName), not a dictionary (iOS refuses them); "
                        + "--format xml prints them as signed"
                )
            }
            return answer
        }
        for note in answer.notes { Console.diagnose("ipacheck: note: \(note)") }
        switch format {
        case .xml: Console.printRendered(UntrustedText.escapedInXML(answer.value.xmlDocument))
        case .json:
            if answer.value.dictionaryValue?["$schema"] != nil {
                Console.diagnose(
                    "ipacheck: note: the entitlements hold a key named $schema; the JSON shows the schema's address "
                        + "there (--format xml prints the signed value)"
                )
            }
            try Console.printJSON(answer.value, schema: .entitlements)
        }
    }
}
