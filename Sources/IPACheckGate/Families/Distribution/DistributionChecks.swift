import IPACheckBinary
import IPACheckBundle
import IPACheckCMS
import IPACheckPlist
package import IPACheckReport
import IPACheckSigning

/// The `DIST` rules (and PROF007): whether the build is fit for the distribution it is gated for.
///
/// A development profile, no profile, a simulator build, or ad hoc or unsigned code fails every gate but
/// `development`; a profile of another kind than the one asked for fails.
package enum DistributionChecks {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .distribution }

        /// The set, its rules as declared below.
        package init() {}

        /// DIST001: a bundle has no provisioning profile.
        package let noProfile = Rule(
            "DIST001",
            .error,
            "no provisioning profile",
            summary: "An app, extension, App Clip or watch app without embedded.mobileprovision installs on no device "
                + "(only a simulator runs it), and App Store Connect rejects it.",
            fix: "Archive for a device and export with a distribution profile (Xcode › Organizer › Distribute App)."
        )

        /// DIST002: a simulator build.
        package let simulatorBuild = Rule(
            "DIST002",
            .error,
            "simulator build",
            summary: "The bundle is built for the iOS Simulator (DTPlatformName, supported platforms or only Intel "
                + "slices), so no device can run it.",
            fix: "Build for a device (Any iOS Device) and export the archive."
        )

        /// DIST003: signed ad hoc, without an identity.
        package let adHocSignature = Rule(
            "DIST003",
            .error,
            "ad hoc code signature",
            summary: "The executable is signed without an identity (codesign -s -): devices refuse to run it unless it "
                + "is re-signed; that is fine for a simulator, not for distribution.",
            fix: "Sign with a distribution certificate: archive and export from Xcode, or codesign with an identity."
        )

        /// DIST004: the profile is of another kind than the distribution asked for.
        package let profileKindMismatch = Rule(
            "DIST004",
            .error,
            "provisioning profile of another kind",
            summary: "The build is gated for one distribution (--distribution or the config file) but its profile is "
                + "for another: an ad hoc build uploaded to App Store Connect, an App Store build sent to testers.",
            fix: "Export again with the profile for the intended distribution, or correct --distribution.",
            linkPath: .offPath
        )

        /// DIST005: an app as the App Store delivers it, which needs no profile.
        package let appStoreBuild = Rule(
            "DIST005",
            .note,
            "FairPlay-encrypted App Store build",
            summary: "The bundle is an app as the App Store delivers it: its code is FairPlay-encrypted "
                + "(LC_ENCRYPTION_INFO cryptid 1), it is signed by Apple's application-signing certificate (Apple "
                + "iPhone OS Application Signing) and it has no embedded.mobileprovision, which store builds do not "
                + "carry. Its distribution is the App Store; a missing profile is not a fault (DIST001 does not apply).",
            fix: "Nothing to fix. To check what you upload, run ipacheck on the .ipa exported from Xcode."
        )
    }

    /// Why a bundle counts as an App Store delivery: its encrypted slices and its signer.
    struct AppStoreDelivery: Hashable, Sendable {
        /// The architectures whose code is FairPlay-encrypted.
        let encryptedArchitectures: [String]
        /// The signer certificate's subject, as read from the CMS message.
        let signer: String
    }

    /// Whether `fact` is an app as the App Store delivers it: no embedded profile, every slice signed, some slice
    /// still FairPlay-encrypted (`cryptid` ≠ 0), and the CMS signer is Apple's application-signing certificate
    /// (``SignatureVerifier/isAppStoreSigner(_:)``).
    ///
    /// Only the subject is read here; whether the signer chains to Apple's root is ``TrustChecks``' question (a
    /// self-made certificate with this name is reported there, SIG009).
    static func appStoreDelivery(_ fact: BundleFacts) -> AppStoreDelivery? {
        guard fact.bundle.provisioningProfile == nil, let slices = fact.container?.slices, !slices.isEmpty,
            slices.allSatisfy({ $0.signature != nil })
        else { return nil }
        let encrypted = slices.filter(\.isEncrypted).map(\.architecture.name)
        guard !encrypted.isEmpty else { return nil }
        var subject: String?
        for slice in slices {
            guard let signature = slice.signature, let cms = signature.cmsSignature, !cms.payload.isEmpty,
                let check = try? CMSSignatureCheck.check(cms: cms.payload, codeDirectories: signature.codeDirectories),
                let signer = check.signer, SignatureVerifier.isAppStoreSigner(signer)
            else { return nil }
            subject = subject ?? signer.subject
        }
        return subject.map { AppStoreDelivery(encryptedArchitectures: encrypted, signer: $0) }
    }

    /// The rules declared here.
    package static let rules = Rules()

    /// Every rule these checks raise: their own and PROF007, declared with the profile rules.

    /// What stops every device from installing or running a bundle, whatever the distribution asked for: no
    /// profile (and not an App Store delivery), a simulator build, code signed without an identity.
    ///
    /// `check --distribution development` accepts these builds as policy (for a simulator), but a device still
    /// runs none of them, so `explain`, `links`, `match --build` and `domains` always say so.
    static func installFacts(_ facts: [BundleFacts]) -> [Finding] {
        var coverage = RuleCoverage()
        let found = findings(distribution: nil, asked: false, facts: facts, coverage: &coverage)
        let device = Set([rules.noProfile, rules.simulatorBuild, rules.adHocSignature].map(\.id))
        return found.filter { device.contains($0.rule) }
    }

    /// Why the rules that judge a bundle's code did not run: no bundle has an executable to read.
    static let noExecutable = "no bundle has an executable that could be read (ARC008, ARC009)"

    /// Why the distribution-only rules do not run in a development gate.
    static let developmentAccepts =
        "--distribution development accepts development profiles, simulator, ad hoc and unsigned builds"

    /// The rules whose checks apply only to a build gated for distribution (with `development` they are not run).
    static let distributionOnlyRules: [Rule] = [
        DistributionChecks.rules.noProfile, DistributionChecks.rules.simulatorBuild,
        DistributionChecks.rules.adHocSignature, ProfileChecks.releaseRules.developmentProfileInRelease,
        SignatureVerifier.rules.unsigned, DistributionChecks.rules.appStoreBuild,
    ]

    /// The distribution a build is judged for: the one asked for, else the one the main app's profile is for
    /// (App Store, ad hoc, enterprise); `nil` without a profile or with a development one, which a gate never
    /// assumes on its own.
    static func effective(asked: Distribution?, facts: [BundleFacts]) -> Distribution? {
        if let asked { return asked }
        if let main = facts.first, main.profile == nil, appStoreDelivery(main) != nil { return .appStore }
        guard let kind = facts.first?.profile?.kind, let derived = Distribution(profile: kind), derived != .development
        else { return nil }
        return derived
    }

    /// Judges every bundle that installs on its own (apps, extensions, App Clips, watch apps; frameworks carry
    /// no profile) against the distribution.
    ///
    /// - Parameters:
    ///   - distribution: What the build is for; `nil` when nothing says (no option and no profile).
    ///   - facts: Every bundle's signing facts, the main app first.
    ///   - coverage: Records which of these rules ran.
    static func findings(
        distribution: Distribution?,
        asked: Bool,
        facts: [BundleFacts],
        coverage: inout RuleCoverage
    ) -> [Finding] {
        if distribution == .development {
            coverage.ran([DistributionChecks.rules.profileKindMismatch])
            coverage.skip(distributionOnlyRules, because: developmentAccepts)
            return facts.compactMap { fact in
                guard asked, let kind = fact.profile?.kind, kind != .development else { return nil }
                return mismatch(fact, kind: kind, distribution: .development)
            }
        }
        let judged = facts.filter { $0.bundle.kind != .framework && $0.bundle.executable != nil }
        guard !judged.isEmpty else {
            // Nothing to judge is not a pass.
            coverage.skip(rules.all + ProfileChecks.releaseRules.all, because: noExecutable)
            return []
        }
        coverage.ran(rules.all + ProfileChecks.releaseRules.all)
        var findings: [Finding] = []
        for fact in judged {
            let path = fact.bundle.path
            if isSimulatorBuild(fact) {
                findings.append(
                    DistributionChecks.rules.simulatorBuild.finding(
                        "\(path) is built for the iOS Simulator (\(simulatorEvidence(fact))); no device runs it",
                        bundle: path
                    )
                )
            }
            if let signatures = fact.container?.slices.compactMap(\.signature), !signatures.isEmpty,
                signatures.allSatisfy({ $0.isAdHoc || ($0.cmsSignature?.payload.isEmpty ?? true) })
            {
                findings.append(
                    DistributionChecks.rules.adHocSignature.finding(
                        "\(path) is signed ad hoc, without a signing identity",
                        bundle: path
                    )
                )
            }
            if fact.profile == nil, let delivery = appStoreDelivery(fact) {
                findings.append(
                    DistributionChecks.rules.appStoreBuild.finding(
                        "\(path) is an App Store delivery: FairPlay-encrypted "
                            + "(\(delivery.encryptedArchitectures.joined(separator: ", "))), signed by \(delivery.signer), "
                            + "no embedded.mobileprovision; its distribution is the App Store",
                        bundle: path
                    )
                )
                if let distribution, distribution != .appStore {
                    findings.append(
                        DistributionChecks.rules.profileKindMismatch.finding(
                            "\(path) is gated for \(distribution.rawValue) but is an App Store delivery "
                                + "(FairPlay-encrypted, signed by Apple for the App Store)",
                            bundle: path
                        )
                    )
                }
                continue
            }
            guard let profile = fact.profile else {
                findings.append(
                    DistributionChecks.rules.noProfile.finding(
                        "\(path) has no embedded.mobileprovision, so no device installs it"
                            + (distribution.map { " (gated for \($0.rawValue))" } ?? ""),
                        bundle: path
                    )
                )
                continue
            }
            if profile.kind == .development {
                findings.append(
                    ProfileChecks.developmentProfileInRelease(bundle: path, gatedFor: distribution?.rawValue)
                )
            } else if let distribution, profile.kind != distribution.profileKind {
                findings.append(mismatch(fact, kind: profile.kind, distribution: distribution))
            }
        }
        return findings
    }

    private static func mismatch(_ fact: BundleFacts, kind: ProfileKind, distribution: Distribution) -> Finding {
        DistributionChecks.rules.profileKindMismatch.finding(
            "\(fact.bundle.path) is gated for \(distribution.rawValue) but its profile is \(kind.rawValue)",
            bundle: fact.bundle.path,
            location: "embedded.mobileprovision"
        )
    }

    /// Whether Info.plist or the executable says the bundle is for a simulator.
    static func isSimulatorBuild(_ fact: BundleFacts) -> Bool {
        !simulatorEvidence(fact).isEmpty
    }

    private static func simulatorEvidence(_ fact: BundleFacts) -> String {
        let info = fact.bundle.infoPlist
        if let platform = info["DTPlatformName"]?.stringValue, platform.lowercased().hasSuffix("simulator") {
            return "DTPlatformName \(platform)"
        }
        if let platforms = info["CFBundleSupportedPlatforms"]?.stringArray,
            let simulator = platforms.first(where: { $0.lowercased().hasSuffix("simulator") })
        {
            return "CFBundleSupportedPlatforms lists \(simulator)"
        }
        let architectures = fact.container?.architectureNames ?? []
        if !architectures.isEmpty, architectures.allSatisfy({ $0 == "x86_64" || $0 == "i386" }) {
            return "only \(architectures.joined(separator: " and ")) slices"
        }
        return ""
    }
}
