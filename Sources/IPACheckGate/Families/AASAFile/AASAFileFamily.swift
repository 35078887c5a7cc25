import IPACheckAASA
package import IPACheckReport

extension RuleFamily {
    /// AASA: What an apple-app-site-association file says: its JSON, its details, components and patterns.
    package static let aasaFile = RuleFamily("AASA", sets: AASARules.sets)
}
