import Foundation
package import IPACheckBinary
package import IPACheckLinks
package import IPACheckPlist
package import IPACheckReport
package import IPACheckSigning

/// Everything the signature and profile of one bundle say: the facts every cross-check starts from.
///
/// Gathering never throws: what cannot be read is kept as a fact for the rules to judge, so one broken extension
/// does not hide the main app's problems.
package struct BundleFacts: Sendable {
    /// The bundle.
    package let bundle: AppBundle
    /// The executable's Mach-O, if it could be read.
    package let container: MachOContainer?
    /// Each slice's signed entitlements, by architecture.
    package let slices: [(architecture: String, entitlements: SignedEntitlements)]
    /// The entitlements iOS obeys: the first slice's DER entitlements where present, else its XML ones.
    package let entitlements: [String: PlistValue]
    /// `application-identifier`: the ID the AASA must list (never rebuilt from the team ID).
    package let appID: String?
    /// The embedded provisioning profile, if present and readable.
    package let profile: ProvisioningProfile?
    /// The profile's CMS signature check.
    package let profileSignature: ProfileSignatureStatus?
    /// The parsed associated-domains entries.
    package let domains: [AssociatedDomain]
    /// Development or distribution signing, when it can be told.
    package let signingKind: SigningKind?
    /// A project entitlements file's application identifier as written, when it holds a build setting Xcode has yet
    /// to expand (and no `--app-id` stands in for it).
    package let unexpandedAppID: String?
    /// Why the executable could not be read.
    package let unreadableExecutable: String?
    /// Whether the seal pass reports the unreadable executable, so the facts' own findings leave it out (one cause,
    /// one finding).
    package var sealReportsUnreadableExecutable = false
    /// The embedded profile that is present but cannot be read.
    package let unreadableProfile: UnreadableProfile?
    /// What the associated-domains entitlement's reading found wrong with its entries and the list.
    package let entryProblems: [AssociatedDomains.Located]

    /// An embedded profile that could not be read: where, and why.
    package struct UnreadableProfile: Sendable {
        /// The profile's member.
        package let path: String
        /// Why it cannot be read.
        package let reason: String
    }

    /// The signed entitlements key naming the associated domains.
    package static let associatedDomainsKey = "com.apple.developer.associated-domains"

    /// The facts of every bundle, the main app first, streaming each executable's headers and signatures.
    ///
    /// As in `info`, an unreadable main executable makes the ipa unreadable (exit 2): there is nothing to check
    /// without it. Nested bundles' unreadable executables stay findings.
    package static func gatherAll(ipa: IPAFile) throws(InputError) -> [BundleFacts] {
        var facts: [BundleFacts] = []
        for bundle in ipa.bundles {
            var container: Result<MachOContainer, InputError>?
            if bundle.executable != nil {
                do {
                    container = .success(try ipa.machO(of: bundle))
                } catch {
                    if bundle.parent == nil { throw error }
                    container = .failure(error)
                }
            }
            facts.append(gather(ipa: ipa, bundle: bundle, executable: container, scan: nil))
        }
        return facts
    }

    /// The facts of every bundle from a ``SealScan`` that already read the executables and kept the profiles.
    package static func gatherAll(ipa: IPAFile, scan: SealScan) -> [BundleFacts] {
        scan.bundles.map { scanned in
            let executable = scanned.executable.map { $0.map(\.container) }
            return gather(ipa: ipa, bundle: scanned.bundle, executable: executable, scan: scan)
        }
    }

    /// The members a ``SealScan`` must keep for ``gatherAll(ipa:scan:)``: the embedded profiles.
    package static func keepsMember(_ member: String) -> Bool {
        member.hasSuffix("/embedded.mobileprovision") || member.hasSuffix("/embedded.provisionprofile")
    }

    /// Gathers with the executable already read (or the reason it could not be).
    private static func gather(
        ipa: IPAFile,
        bundle: AppBundle,
        executable: Result<MachOContainer, InputError>?,
        scan: SealScan?
    ) -> BundleFacts {
        var container: MachOContainer?
        var unreadableExecutable: String?
        switch executable {
        case .success(let parsed)?: container = parsed
        case .failure(let error)?: unreadableExecutable = error.message
        case nil: break
        }
        var slices: [(architecture: String, entitlements: SignedEntitlements)] = []
        for slice in container?.slices ?? [] {
            guard let signature = slice.signature else { continue }
            let name = slice.architecture.name
            slices.append((name, SignedEntitlements.read(signature, context: name, bundle: bundle.path)))
        }
        let entitlements = slices.first?.entitlements.effective?.dictionaryValue ?? [:]

        var profile: ProvisioningProfile? = nil
        var profileSignature: ProfileSignatureStatus? = nil
        var unreadableProfile: UnreadableProfile?
        if let profilePath = bundle.provisioningProfile {
            do {
                let bytes = try scan?.bytes(of: profilePath) ?? ipa.read(profilePath)
                let parsed = try ProvisioningProfile.parse(bytes, allowingUnsigned: true)
                profileSignature = parsed.verifySignature()
                profile = parsed
            } catch {
                unreadableProfile = UnreadableProfile(path: profilePath, reason: "\(error)")
            }
        }
        let signingKind = signingKind(signed: entitlements, profile: profile)
        let parsed = AssociatedDomains.from(entitlements: .dictionary(entitlements), bundle: bundle.path)

        var facts = BundleFacts(
            bundle: bundle,
            container: container,
            slices: slices,
            entitlements: entitlements,
            appID: entitlements["application-identifier"]?.stringValue,
            profile: profile,
            profileSignature: profileSignature,
            domains: parsed.domains,
            signingKind: signingKind,
            unexpandedAppID: nil,
            unreadableExecutable: unreadableExecutable,
            unreadableProfile: unreadableProfile,
            entryProblems: parsed.problems
        )
        // With a scan, the seal check reports the unreadable executable.
        facts.sealReportsUnreadableExecutable = scan != nil
        return facts
    }

    /// Decides development vs distribution signing from the signed `get-task-allow` and the profile's kind, for
    /// the `?mode=developer` rule (the associated-domains rules judge entries by it).
    ///
    /// `get-task-allow` true is development; false is distribution unless a development profile says
    /// otherwise; when the key is absent (macOS, ad-hoc signatures) the profile decides; `nil` when neither
    /// says.
    package static func signingKind(signed: [String: PlistValue], profile: ProvisioningProfile?) -> SigningKind? {
        switch signed["get-task-allow"]?.boolValue {
        case true?: return .development
        case false?: return profile?.kind == .development ? .development : .distribution
        case nil:
            guard let profile else { return nil }
            return profile.kind == .development ? .development : .distribution
        }
    }
}
