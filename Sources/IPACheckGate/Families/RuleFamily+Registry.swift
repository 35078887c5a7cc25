// Written by scripts/register-rule-families from the family files of this folder; run it again after adding
// a family instead of editing this list.
package import IPACheckReport

extension RuleFamily {
    /// Every family of rules, in the order of their folders, with its rules of their own: the rule catalogue's
    /// source.
    package static let registered: [RuleFamily] = families.map { family in
        family.including(GateRules.registered.map { $0.rule })
    }

    /// Every family, in the order of their folders.
    private static let families: [RuleFamily] = [
        .aasaFile,
        .appFlip,
        .archive,
        .cdn,
        .links,
        .diff,
        .distribution,
        .entitlements,
        .firebase,
        .platform,
        .profile,
        .serving,
        .signature,
    ]
}

/// Every rule of its own (``GateRule``), in the order of their folders.
enum GateRules {
    /// The rules, each a type.
    static let registered: [any GateRule.Type] = [WatchKitExtensionDomains.self]
}
