import ArgumentParser
import IPACheckCommands

/// `ipacheck entitlements TARGET`: the signed entitlements, as `codesign -d --entitlements -` prints them.
struct EntitlementsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entitlements",
        abstract: "Print the entitlements a build is signed with (or its profile grants).",
        discussion: """
            TARGET is an .ipa or a bare Mach-O (thin or fat). By default the main app's signed entitlements are printed: the XML blob, or the DER blob decoded where there is no XML. Caveats (slices or XML and DER that disagree) go to stderr.

            Examples:
              ipacheck entitlements App.ipa
              ipacheck entitlements App.ipa --bundle Share.appex --format json
              ipacheck entitlements App.ipa --source der      # what iOS 15+ enforces
              ipacheck entitlements App.ipa --source profile  # what the profile allows
              ipacheck entitlements Payload/App.app/App
            """
    )

    /// How the dictionary is printed.
    @Argument(help: "The .ipa or Mach-O to read.")
    var target: String

    @Option(help: "The bundle to read: its path, folder name (Share.appex) or bundle ID. Default: the main app.")
    var bundle: String?

    @Option(help: "Where to read: signature (XML, else DER), der, or profile.")
    var source: EntitlementSource = .signature

    @Option(help: "Output format: xml (a plist document) or json.")
    var format: EntitlementsRun.Format = .xml

    @OptionGroup var archive: ArchiveOptions

    func run() async throws {
        try await EntitlementsRun.run(
            path: target,
            bundle: bundle,
            source: source,
            format: format,
            archive: try archive.settings
        )
    }
}
