import IPACheckBundle
package import IPACheckReport

extension RuleFamily {
    /// ARC: How the ipa is zipped and what its members are: what an installer would read from it.
    package static let archive = RuleFamily("ARC", sets: [ArchiveRules.rules])
}
