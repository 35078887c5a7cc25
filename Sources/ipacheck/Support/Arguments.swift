import ArgumentParser
import IPACheckAASA
import IPACheckGate
import IPACheckReport
import IPACheckSigning

// The library's enums, parsed from the command line. Kept here so the library never imports ArgumentParser.

extension EntitlementSource: ExpressibleByArgument {}

extension Severity: ExpressibleByArgument {}

extension ReportFormat: ExpressibleByArgument {}

extension AASAService: ExpressibleByArgument {}

extension Distribution: ExpressibleByArgument {}
