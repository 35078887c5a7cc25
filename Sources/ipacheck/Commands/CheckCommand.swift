import ArgumentParser
import Foundation
import IPACheckCore
import IPACheckReport

/// `ipacheck check APP.ipa...`: the release gate.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "The release gate: will this build's links, web credentials, App Clips and App Flip work?",
        discussion: """
            For every bundle: the signature and profile, every associated-domains entry, and the AASA file of every domain (the origin's and Apple's CDN copy, or --offline --aasa-dir) cross-checked against the bundle's signed application-identifier. Findings carry a stable rule ID (see `ipacheck rules`). Exit 0 when nothing reaches --fail-on (default error), 1 when something does, 2 when an ipa cannot be read.

            A config file (.ipacheck.json or .ipacheck.yml in the current folder, or --config) may list expected domains, suppress a rule for a domain with a reason, and pin App Flip and Firebase settings.

            Examples:
              ipacheck check App.ipa
              ipacheck check App.ipa --format sarif > ipacheck.sarif
              ipacheck check App.ipa --offline --aasa-dir aasa/ --appflip appflip.json
              ipacheck check build/*.ipa --fail-on warning --format github
            """
    )

    @Argument(help: "The .ipa files to check.")
    var ipas: [String]

    @Option(help: "App Flip config (JSON) to check the main app against.")
    var appflip: String?

    @Option(help: "Config file, JSON or YAML (default: .ipacheck.json or .ipacheck.yml in the current folder).")
    var config: String?

    @Option(help: "Exit 1 when a finding is at least this severe: error, warning or note.")
    var failOn: Severity?

    @Option(help: "Output: text, json, sarif, junit or github.")
    var format: ReportFormat = .text

    @Option(help: ArgumentHelp("Write the report to this file instead of stdout.", valueName: "file"))
    var output: String?

    @Flag(help: "The build is a development build: development signing and profiles are not errors.")
    var development = false

    @OptionGroup var network: NetworkOptions

    func validate() throws {
        if ipas.isEmpty { throw ValidationError("name at least one .ipa to check") }
    }

    func run() async throws {
        let configuration = try await ExitStatus.reportingInputErrors { try loadConfiguration() }
        let threshold = FailThreshold(failOn: failOn ?? configuration.failOn ?? .error)
        let progress = Progress(total: ipas.count)
        let results = try await network.withFetcher { options, fetcher in
            let gate = GateOptions(
                fetch: options,
                fetcher: fetcher,
                configuration: configuration,
                isReleaseBuild: !development
            )
            return await withTaskGroup(of: (Int, Result<GateResult, InputError>).self) { group in
                for (index, path) in ipas.enumerated() {
                    group.addTask {
                        do {
                            return (index, .success(try await ReleaseGate.check(path: path, options: gate)))
                        } catch let error as InputError {
                            return (index, .failure(error))
                        } catch {
                            return (index, .failure(InputError("unreadable", file: path, "\(error)")))
                        }
                    }
                }
                var results: [(Int, Result<GateResult, InputError>)] = []
                for await result in group {
                    results.append(result)
                    progress.advance(ipas[result.0])
                }
                return results.sorted { $0.0 < $1.0 }.map(\.1)
            }
        }
        progress.finish()

        var report = Report(
            tool: Report.Tool(version: IPACheck.configuration.version, informationUri: Self.projectURL),
            gate: threshold,
            rules: RuleCatalog.all
        )
        var unreadable = false
        for (path, result) in zip(ipas, results) {
            switch result {
            case .success(let gate):
                report.add(input: path, findings: gate.findings)
                if !gate.suppressed.isEmpty {
                    Console.diagnose("ipacheck: \(path): \(gate.suppressed.count) finding(s) suppressed by the config")
                }
            case .failure(let error):
                Console.diagnose("ipacheck: error: \(error.description)")
                unreadable = true
            }
        }
        let rendered = try format.renderer(style: output == nil ? Console.style : .plain).render(report)
        if let output {
            do {
                try Data(rendered.utf8).write(to: URL(fileURLWithPath: output))
            } catch {
                Console.diagnose("ipacheck: error: \(output): cannot be written (\(error.localizedDescription))")
                throw ExitStatus.badInput
            }
        } else {
            Console.print(rendered)
        }
        if unreadable { throw ExitStatus.badInput }
        if report.exitCode != 0 { throw ExitStatus.problems }
    }

    /// Where the README (and its rule anchors) live, for SARIF help links.
    static let projectURL = "https://github.com/ipacheck/ipacheck"

    private func loadConfiguration() throws(InputError) -> GateConfiguration {
        var configuration = GateConfiguration()
        if let config {
            configuration = try GateConfiguration.load(path: config)
        } else if let found = GateConfiguration.defaultFileNames.first(where: FileManager.default.fileExists) {
            configuration = try GateConfiguration.load(path: found)
            Console.diagnose("ipacheck: using ./\(found)")
        }
        if let appflip {
            guard let bytes = FileManager.default.contents(atPath: appflip) else {
                throw InputError("unreadable", file: appflip, "cannot be read")
            }
            do {
                configuration.appFlip = try AppFlipConfig.parse(Array(bytes), file: appflip)
            } catch {
                throw InputError("bad-appflip", file: appflip, error.description)
            }
        }
        return configuration
    }
}

/// A one-line progress indicator on stderr, shown only on a terminal and only for several inputs.
final class Progress: @unchecked Sendable {
    private let total: Int
    private let enabled: Bool
    private var done = 0
    private let lock = NSLock()

    init(total: Int) {
        self.total = total
        enabled = total > 1 && isatty(STDERR_FILENO) == 1
    }

    func advance(_ name: String) {
        guard enabled else { return }
        lock.lock()
        done += 1
        let line = "\r\u{1B}[2Kchecked \(done)/\(total): \(name)"
        lock.unlock()
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
