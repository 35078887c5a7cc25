import Foundation
import IPACheckTestSupport
import Testing

/// The Homebrew formula and the GitHub Action parse, and say what the README promises (Ruby reads both: the
/// formula is Ruby, and Ruby's YAML reader is the one GitHub's own tooling resembles most closely).
struct DistributionFileTests {
    static let hasRuby: Bool = (try? run(["ruby", "-e", "exit 0"]))?.status == 0

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments,
            directory: Repository.root,
            errors: .merged
        )
        return (result.status, result.output)
    }

    @Test(.enabled(if: hasRuby || Python.isCI, "needs ruby (scripts/test installs it)"))
    func theFormulaParsesAndTestsARealCommand() throws {
        let syntax = try Self.run(["ruby", "-c", "Formula/ipacheck.rb"])
        #expect(syntax.status == 0 && syntax.output.contains("Syntax OK"), "\(syntax.output)")
        let text = try String(
            contentsOf: Repository.root.appendingPathComponent("Formula/ipacheck.rb"),
            encoding: .utf8
        )
        for needed in [
            #"depends_on "libzip""#, #"depends_on "libplist""#, "generate_completions_from_executable",
            "man1.install", "test do", #"#{bin}/ipacheck match"#,
        ] {
            #expect(text.contains(needed), "the formula lacks \(needed)")
        }
    }

    /// Loads action.yml and checks its shape: a composite action with the documented inputs whose run steps are
    /// valid bash, which runs `ipacheck check` with SARIF and uploads it.
    static let actionCheck = #"""
        require "yaml"
        action = YAML.load_file("action.yml")
        abort "not composite" unless action["runs"]["using"] == "composite"
        %w[ipas args fail-on upload-sarif sarif-file category].each { |k| abort "no input #{k}" unless action["inputs"].key?(k) }
        abort "ipas is optional" unless action["inputs"]["ipas"]["required"] == true
        steps = action["runs"]["steps"]
        abort "no upload" unless steps.any? { |s| s["uses"].to_s.start_with?("github/codeql-action/upload-sarif@") }
        check = steps.find { |s| s["id"] == "check" } or abort "no check step"
        abort "check does not run ipacheck check with SARIF" unless check["run"].match?(/(ipacheck|\$IPACHECK)" check /) && check["run"].include?("--format sarif")
        steps.select { |s| s["run"] }.each_with_index do |s, i|
          File.write("/tmp/ipacheck-action-step-#{Process.pid}-#{i}.sh", s["run"].gsub(/\$\{\{[^}]*\}\}/, "x"))
          system("bash", "-n", "/tmp/ipacheck-action-step-#{Process.pid}-#{i}.sh") or abort "step #{s["name"]} is not valid bash"
          File.delete("/tmp/ipacheck-action-step-#{Process.pid}-#{i}.sh")
        end
        puts "ok #{steps.size} steps"
        """#

    @Test(.enabled(if: hasRuby || Python.isCI, "needs ruby (scripts/test installs it)"))
    func theActionParsesAndRunsTheGate() throws {
        let result = try Self.run(["ruby", "-e", Self.actionCheck])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.hasPrefix("ok "), "\(result.output)")
    }
}
