import ArgumentParser
import IPACheckCommands

/// `ipacheck verify TARGET`: the code signature's integrity.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify code signatures as codesign --verify would: hashes, special slots, CMS.",
        discussion: """
            Checks every slice of every bundle's executable: code-page hashes, the special slots (Info.plist, requirements, CodeResources, XML and DER entitlements) against the real bytes, and the CMS signature's mathematics over the CodeDirectory. As codesign does, it also checks every file of each bundle against _CodeSignature/CodeResources and the nested code (frameworks, extensions, dylibs) against the hashes the seal names: an edited, added or removed file, or a removed extension, breaks the signature. --resources is accepted and changes nothing (it is the default); --no-resources leaves that comparison out for a quick run, and the report then says the seal was not checked. The target is read once, as a stream. Ad-hoc signatures can be valid. The signer's chain, trust and expiry are reported beside the verdict and fail it only with --strict. Exit 0 when valid, 1 when broken, 2 when the target cannot be read.

            Examples:
              ipacheck verify App.ipa
              ipacheck verify App.ipa --strict
              ipacheck verify App.ipa --no-resources
              ipacheck verify Payload/App.app/App --format json
            """
    )

    @Argument(help: "The .ipa or Mach-O to verify.")
    var target: String

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Check each bundle's files and nested code against _CodeSignature/CodeResources, as codesign does.",
            discussion: "On by default: --resources is accepted but no longer needed (it changes nothing). "
                + "--no-resources skips the comparison; the report then says the seal was not checked."
        )
    )
    var resources = true

    @Flag(help: "Fail on trust problems too (signer not traced to an Apple root, expired signer, no signer).")
    var strict = false

    @OptionGroup var output: ReportFormatOption

    @OptionGroup var archive: ArchiveOptions

    @OptionGroup var time: TimeOptions

    func run() async throws {
        try await VerifyRun.run(
            target: target,
            resources: resources,
            strict: strict,
            format: output.format,
            archive: try archive.settings,
            now: time.date
        )
    }
}
