package import IPACheckBundle
package import IPACheckReport

extension ArchiveProblem {
    /// The rule this problem breaks.
    package var rule: Rule {
        switch kind {
        case .unsafeMemberPath: ArchiveRules.rules.unsafeMemberPath
        case .duplicateMember: ArchiveRules.rules.duplicateMember
        case .caseCollision: ArchiveRules.rules.caseCollision
        case .unreadableMember: ArchiveRules.rules.unreadableMember
        case .nestedPayload: ArchiveRules.rules.nestedPayload
        case .severalApps: ArchiveRules.rules.severalApps
        case .nonUTF8Name: ArchiveRules.rules.nonUTF8Name
        case .bundleInfoPlist: ArchiveRules.rules.bundleInfoPlist
        case .missingExecutable: ArchiveRules.rules.missingExecutable
        case .unreadableExecutable: ArchiveRules.rules.unreadableExecutable
        case .inconsistentDirectory: ArchiveRules.rules.inconsistentDirectory
        case .linkLeavesBundle: ArchiveRules.rules.linkLeavesBundle
        case .unreadableSealedMember: ArchiveRules.rules.unreadableSealedMember
        }
    }

    /// The problem as a finding of its rule.
    package var finding: Finding {
        rule.finding(message, bundle: bundle, location: location)
    }
}

extension IPAFile {
    /// What opening the archive found, as findings, worst first.
    package var findings: [Finding] { problems.map(\.finding).sorted() }
}

extension SealScan {
    /// The members the pass could not read to their end, as findings.
    package var findings: [Finding] { problems.map(\.finding) }
}
