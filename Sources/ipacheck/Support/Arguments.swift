import ArgumentParser
import IPACheckCommands
import IPACheckReport

// The option values the command line parses, from the library's own enumerations. Kept here so that the library
// never imports ArgumentParser.

extension Severity: ExpressibleByArgument {}

extension ReportFormat: ExpressibleByArgument {}

extension OutputFormat: ExpressibleByArgument {}

extension CommandLineChoices.Service: ExpressibleByArgument {}

extension CommandLineChoices.Distribution: ExpressibleByArgument {}

extension EntitlementSource: ExpressibleByArgument {}

extension EntitlementsRun.Format: ExpressibleByArgument {}

extension LinksRun.Format: ExpressibleByArgument {}

extension RulesRun.Format: ExpressibleByArgument {}

extension ValidationError {
    /// The parser's own usage error for a setting the library refused (exit 64, with the usage line).
    init(_ error: UsageError) {
        self.init(error.description)
    }
}
