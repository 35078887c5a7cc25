import ArgumentParser
import IPACheckGate
import IPACheckReport

/// `ipacheck verify TARGET`: the code signature's integrity.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify code signatures as codesign --verify would: hashes, special slots, CMS.",
        discussion: """
            Checks every slice of every bundle's executable: code-page hashes, the special slots (Info.plist, requirements, CodeResources, XML and DER entitlements) against the real bytes, and the CMS signature's mathematics over the CodeDirectory. --resources also checks every file against _CodeSignature/CodeResources and the nested code (frameworks, extensions, dylibs) against the hashes the seal names. The target is read once, as a stream. Ad-hoc signatures can be valid. The signer's chain, trust and expiry are reported beside the verdict and fail it only with --strict. Exit 0 when valid, 1 when broken, 2 when the target cannot be read.

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

    @Flag(help: "Fail on trust problems too (signer not traced to an Apple root, expired signer, no signer).")
    var strict = false

    @OptionGroup var output: ReportFormatOption

    @OptionGroup var archive: ArchiveOptions

    func run() async throws {
        var report = ReportOutput.report(rules: VerifyReport.rules(strict: strict))
        do {
            let answer = try await VerifyReport.verify(path: target, resources: resources, limits: archive.limits)
            report.add(input: target, findings: answer.findings, coverage: answer.coverage)
            report.add(section: try answer.section())
            report.add(section: try ReportSection(key: "valid", value: answer.isValid, lines: []))
        } catch let error as InputError {
            report.add(unreadable: target, reason: error.message)
        }
        try ReportOutput.finish(report, format: output.format)
    }
}
