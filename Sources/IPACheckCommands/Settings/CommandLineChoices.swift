package import IPACheckAASA
package import IPACheckSigning

/// The library's enumerations the command line offers as option values, named here so that the executable parses
/// them without importing the modules that declare them (it imports this one and the report's vocabulary only).
///
/// Only the type is reached through these names: a member, such as a default value, is not visible to a module
/// that does not import the declaring one, so options of these types default to nil and the run supplies the
/// default (``MatchRun`` answers for applinks unless told otherwise).
package enum CommandLineChoices {
    /// `--service` of `match`.
    package typealias Service = AASAService
    /// `--distribution` of `check`, `explain` and `links`.
    package typealias Distribution = IPACheckSigning.Distribution

    /// Whether `service` is applinks, the one service `match --build` resolves claims for.
    package static func isAppLinks(_ service: Service) -> Bool { service == .applinks }
}
