// Written by scripts/register-rule-families from the family files of this folder; run it again after adding
// a family instead of editing this list.
package import IPACheckReport

extension RuleFamily {
    /// Every family of rules, in the order of their folders: the rule catalogue's source.
    package static let registered: [RuleFamily] = [
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
