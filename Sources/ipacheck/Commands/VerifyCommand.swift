import ArgumentParser
import IPACheckCore

/// `ipacheck verify TARGET`: the code signature's integrity.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify code signatures as codesign --verify would: hashes, special slots, CMS.",
        discussion: """
            Checks every slice of every bundle's executable: code-page hashes, the special slots (Info.plist, requirements, CodeResources, XML and DER entitlements) against the real bytes, and the CMS signature's mathematics over the CodeDirectory. Ad-hoc signatures can be valid. The signer's chain, trust and expiry are reported beside the verdict and fail it only with --strict. Exit 0 when valid, 1 when broken, 2 when the target cannot be read.

            Examples:
              ipacheck verify App.ipa
              ipacheck verify App.ipa --resources --strict
              ipacheck verify Payload/App.app/App --format json
            """
    )

    @Argument(help: "The .ipa or Mach-O to verify.")
    var target: String

    @Flag(help: "Also check _CodeSignature/CodeResources against each bundle's files.")
    var resources = false

    @Flag(help: "Fail on trust problems too (self-signed or incomplete chain, expired signer).")
    var strict = false

    @OptionGroup var output: FormatOption

    func run() async throws {
        let report = try await ExitStatus.reportingInputErrors {
            try VerifyReport.verify(path: target, resources: resources, strict: strict)
        }
        switch output.format {
        case .json: try Console.printJSON(report)
        case .text: Console.print(report.text(style: Console.style))
        }
        if !report.valid { throw ExitStatus.problems }
    }
}
