public import ArgumentParser
public import IPACheckCore
public import IPACheckReport
public import IPACheckAASA

// The library's enums, parsed from the command line. Kept here so the library never imports ArgumentParser.

extension EntitlementSource: ExpressibleByArgument {}

extension Severity: ExpressibleByArgument {}

extension ReportFormat: ExpressibleByArgument {}

extension AASAService: ExpressibleByArgument {}
