package import IPACheckReport

extension RuleFamily {
    /// FIRE: Firebase Dynamic Links and email action links, and the service file.
    package static let firebase = RuleFamily("FIRE", sets: [FirebaseChecks.rules])
}
