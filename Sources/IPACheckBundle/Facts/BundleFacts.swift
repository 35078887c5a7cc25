package import Foundation
package import IPACheckBinary
package import IPACheckLinks
package import IPACheckPlist
package import IPACheckReport
package import IPACheckSigning

/// Everything the signature and profile of one bundle say: the facts every cross-check starts from.
///
/// Gathering never throws: what cannot be read becomes a finding, so one broken extension does not hide the
/// main app's problems.
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
    /// What is wrong with the signature, entitlements, profile and entries.
    package let findings: [Finding]

    /// The signed entitlements key naming the associated domains.
    package static let associatedDomainsKey = "com.apple.developer.associated-domains"

    /// The facts of every bundle, the main app first, streaming each executable's headers and signatures.
    ///
    /// As in `info`, an unreadable main executable makes the ipa unreadable (exit 2): there is nothing to check
    /// without it. Nested bundles' unreadable executables stay findings.
    package static func gatherAll(ipa: IPAFile, now: Date) throws(InputError) -> [BundleFacts] {
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
            facts.append(gather(ipa: ipa, bundle: bundle, executable: container, scan: nil, now: now))
        }
        return facts
    }

    /// The facts of every bundle from a ``SealScan`` that already read the executables and kept the profiles.
    package static func gatherAll(ipa: IPAFile, scan: SealScan, now: Date) -> [BundleFacts] {
        scan.bundles.map { scanned in
            let executable = scanned.executable.map { $0.map(\.container) }
            return gather(ipa: ipa, bundle: scanned.bundle, executable: executable, scan: scan, now: now)
        }
    }

    /// The members a ``SealScan`` must keep for ``gatherAll(ipa:scan:now:)``: the embedded profiles.
    package static func keepsMember(_ member: String) -> Bool {
        member.hasSuffix("/embedded.mobileprovision") || member.hasSuffix("/embedded.provisionprofile")
    }

    /// Gathers with the executable already read (or the reason it could not be).
    private static func gather(
        ipa: IPAFile,
        bundle: AppBundle,
        executable: Result<MachOContainer, InputError>?,
        scan: SealScan?,
        now: Date
    ) -> BundleFacts {
        var findings: [Finding] = []
        var container: MachOContainer?
        switch executable {
        case .success(let parsed)?: container = parsed
        case .failure(let error)?:
            // With a scan, the seal check reports the unreadable executable (one cause, one finding).
            if scan == nil {
                findings.append(ArchiveRules.rules.unreadableExecutable.finding(error.message, bundle: bundle.path))
            }
        case nil: break
        }
        var slices: [(architecture: String, entitlements: SignedEntitlements)] = []
        for slice in container?.slices ?? [] {
            guard let signature = slice.signature else { continue }
            let name = slice.architecture.name
            slices.append((name, SignedEntitlements.read(signature, context: name, bundle: bundle.path)))
        }
        findings += slices.flatMap(\.entitlements.findings)
        if slices.count > 1 {
            findings += SignedEntitlements.compareSlices(
                slices.map { ($0.architecture, $0.entitlements) },
                bundle: bundle.path
            )
        }
        let entitlements = slices.first?.entitlements.effective?.dictionaryValue ?? [:]

        var profile: ProvisioningProfile? = nil
        var profileSignature: ProfileSignatureStatus? = nil
        if let profilePath = bundle.provisioningProfile {
            do {
                let bytes = try scan?.bytes(of: profilePath) ?? ipa.read(profilePath)
                let parsed = try ProvisioningProfile.parse(bytes, allowingUnsigned: true)
                let status = parsed.verifySignature()
                profile = parsed
                profileSignature = status
                findings += ProfileChecks.findings(for: parsed, signature: status, now: now, bundle: bundle.path)
            } catch {
                findings.append(
                    ProfileChecks.rules.profileUnreadable.finding(
                        "\(profilePath) cannot be read: \(error)",
                        bundle: bundle.path,
                        location: profilePath
                    )
                )
            }
        }
        if let granted = profile?.entitlements, !entitlements.isEmpty {
            findings += EntitlementComparison.compare(signed: entitlements, profile: granted, bundle: bundle.path)
        }
        let signingKind = EntitlementComparison.signingKind(signed: entitlements, profile: profile)
        let parsed = AssociatedDomains.from(entitlements: .dictionary(entitlements), bundle: bundle.path)
        findings += parsed.findings
        findings += AssociatedDomains.alternateModeFindings(parsed.domains, signing: signingKind, bundle: bundle.path)

        return BundleFacts(
            bundle: bundle,
            container: container,
            slices: slices,
            entitlements: entitlements,
            appID: entitlements["application-identifier"]?.stringValue,
            profile: profile,
            profileSignature: profileSignature,
            domains: parsed.domains,
            signingKind: signingKind,
            findings: findings
        )
    }
}
