package import Foundation
import IPACheckBundle
import IPACheckCMS
import IPACheckGate
package import IPACheckPlist
package import IPACheckReport
package import IPACheckSigning

/// `ipacheck profile FILE.mobileprovision`: a standalone provisioning profile decoded as `security cms -D -i`
/// shows it, and judged as the gate judges an embedded one (expiry, CMS signature, Apple trust chain).
///
/// Device identifiers are personal data: only their count is reported.
package struct ProfileReport: Sendable {
    /// The facts people ask about first.
    package struct Summary: Encodable, Sendable {
        /// The profile's name (`Name`).
        package let name: String?
        /// `UUID`.
        package let uuid: String?
        /// What it is for: development, ad-hoc, app-store, enterprise, developer-id.
        package let type: String
        /// `TeamIdentifier`.
        package let teamIdentifiers: [String]
        /// `TeamName`.
        package let teamName: String?
        /// `AppIDName`.
        package let appIDName: String?
        /// The `application-identifier` its entitlements grant (`TEAMID.bundle.id`, possibly with `*`).
        package let applicationIdentifier: String?
        /// `Platform`.
        package let platforms: [String]
        /// `CreationDate`.
        package let creationDate: Date?
        /// `ExpirationDate`.
        package let expirationDate: Date?
        /// How many devices it lists (`ProvisionedDevices`); the identifiers themselves are never shown.
        package let deviceCount: Int?
        /// `ProvisionsAllDevices` (enterprise and Developer ID profiles).
        package let provisionsAllDevices: Bool
        /// `IsXcodeManaged`.
        package let xcodeManaged: Bool?
        /// The certificates allowed to sign with it (`DeveloperCertificates`).
        package let certificates: [Certificate]
        /// The CMS signature: verdict, signer and chain.
        package let signature: ProfileSignatureStatus
        /// Where in a build the profile was read (`Payload/X.app/embedded.mobileprovision`), when a build was given.
        package var embeddedAt: String?
    }

    /// One of `DeveloperCertificates`.
    package struct Certificate: Encodable, Sendable {
        /// The subject's common name, or why the certificate cannot be read.
        package let subject: String
        /// The SHA-256 fingerprint, as `security` prints it.
        package let sha256Fingerprint: String?
        /// The end of its validity.
        package let notValidAfter: Date?
    }

    /// The file read.
    package let path: String
    /// The decoded facts.
    package let summary: Summary
    /// The entitlements it grants.
    package let entitlements: [String: PlistValue]
    /// What is wrong with it.
    package let findings: [Finding]

    /// The profile family's rules, in ID order: those a profile is judged by, and release policy's (PROF007, which
    /// only a gated build raises).
    package static var rules: [Rule] { RuleFamily.profile.all }

    /// Reads and judges the profile at `path`: a provisioning profile, or a build (an ipa, an `.app`, an
    /// `.xcarchive`), whose main app's embedded profile is read, opened as every command opens a build.
    ///
    /// - Throws: ``InputError`` when the file cannot be read, is not a provisioning profile, or is a build whose
    ///   main app embeds none.
    package static func read(path: String, now: Date = Date()) async throws(InputError) -> ProfileReport {
        let (bytes, embeddedAt) = try profileBytes(at: path)
        let profile: ProvisioningProfile
        do {
            profile = try ProvisioningProfile.parse(bytes, allowingUnsigned: true)
        } catch {
            throw InputError("bad-profile", file: path, (embeddedAt.map { "\($0): " } ?? "") + error.description)
        }
        let signature = profile.verifySignature()
        let file = embeddedAt ?? path
        var findings = ProfileChecks.findings(for: profile, signature: signature, now: now, file: file)
        if let identity = signature.identity {
            findings += await TrustChecks.findings(
                code: [],
                profiles: [TrustChecks.Signed(identity: identity, bundle: nil, file: file)],
                now: now
            )
        }
        let certificates = profile.developerCertificates.map { certificate -> Certificate in
            switch certificate {
            case .certificate(let summary):
                Certificate(
                    subject: summary.subjectCommonName ?? summary.subject,
                    sha256Fingerprint: summary.sha256Fingerprint,
                    notValidAfter: summary.notValidAfter
                )
            case .unreadable(let reason):
                Certificate(subject: "unreadable: \(reason)", sha256Fingerprint: nil, notValidAfter: nil)
            }
        }
        let summary = Summary(
            name: profile.name,
            uuid: profile.uuid,
            type: profile.kind.rawValue,
            teamIdentifiers: profile.teamIdentifiers,
            teamName: profile.teamName,
            appIDName: profile.appIDName,
            applicationIdentifier: (profile.entitlements["application-identifier"]
                ?? profile.entitlements["com.apple.application-identifier"])?.stringValue,
            platforms: profile.platforms,
            creationDate: profile.creationDate,
            expirationDate: profile.expirationDate,
            deviceCount: profile.provisionedDeviceCount,
            provisionsAllDevices: profile.provisionsAllDevices,
            xcodeManaged: profile.isXcodeManaged,
            certificates: certificates,
            signature: signature,
            embeddedAt: embeddedAt
        )
        return ProfileReport(
            path: path,
            summary: summary,
            entitlements: profile.entitlements,
            findings: Finding.merged(findings).sorted()
        )
    }

    /// The profile's bytes, and the member they were read from when `path` is a build.
    private static func profileBytes(at path: String) throws(InputError) -> (bytes: [UInt8], embeddedAt: String?) {
        guard (try? TargetKind.of(path: path)) == .archive else {
            let bytes = try InputFile.read(path, limit: ProvisioningProfile.maximumSize, what: "a provisioning profile")
            return (bytes, nil)
        }
        let ipa = try IPAFile(path: path)
        guard let main = ipa.bundles.first else { throw InputError("no-app", file: path, "holds no app") }
        guard let member = main.provisioningProfile else {
            throw InputError(
                "no-profile",
                file: path,
                "\(main.path) embeds no provisioning profile (no embedded.mobileprovision)"
            )
        }
        return (try ipa.read(member, limit: ProvisioningProfile.maximumSize), member)
    }
}
