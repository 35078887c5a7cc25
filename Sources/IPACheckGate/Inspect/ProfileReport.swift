public import Foundation
import IPACheckCMS
public import IPACheckPlist
public import IPACheckReport
public import IPACheckSigning

/// `ipacheck profile FILE.mobileprovision`: a standalone provisioning profile decoded as `security cms -D -i`
/// shows it, and judged as the gate judges an embedded one (expiry, CMS signature, Apple trust chain).
///
/// Device identifiers are personal data: only their count is reported.
public struct ProfileReport: Sendable {
    /// The facts people ask about first.
    public struct Summary: Encodable, Sendable {
        /// The profile's name (`Name`).
        public let name: String?
        /// `UUID`.
        public let uuid: String?
        /// What it is for: development, ad-hoc, app-store, enterprise, developer-id.
        public let type: String
        /// `TeamIdentifier`.
        public let teamIdentifiers: [String]
        /// `TeamName`.
        public let teamName: String?
        /// `AppIDName`.
        public let appIDName: String?
        /// The `application-identifier` its entitlements grant (`TEAMID.bundle.id`, possibly with `*`).
        public let applicationIdentifier: String?
        /// `Platform`.
        public let platforms: [String]
        /// `CreationDate`.
        public let creationDate: Date?
        /// `ExpirationDate`.
        public let expirationDate: Date?
        /// How many devices it lists (`ProvisionedDevices`); the identifiers themselves are never shown.
        public let deviceCount: Int?
        /// `ProvisionsAllDevices` (enterprise and Developer ID profiles).
        public let provisionsAllDevices: Bool
        /// `IsXcodeManaged`.
        public let xcodeManaged: Bool?
        /// The certificates allowed to sign with it (`DeveloperCertificates`).
        public let certificates: [Certificate]
        /// The CMS signature: verdict, signer and chain.
        public let signature: ProfileSignatureStatus
    }

    /// One of `DeveloperCertificates`.
    public struct Certificate: Encodable, Sendable {
        /// The subject's common name, or why the certificate cannot be read.
        public let subject: String
        /// The SHA-256 fingerprint, as `security` prints it.
        public let sha256Fingerprint: String?
        /// The end of its validity.
        public let notValidAfter: Date?
    }

    /// The file read.
    public let path: String
    /// The decoded facts.
    public let summary: Summary
    /// The entitlements it grants.
    public let entitlements: [String: PlistValue]
    /// What is wrong with it.
    public let findings: [Finding]

    /// The rules a profile is judged by.
    public static var rules: [Rule] { ProfileChecks.rules.all }

    /// Reads and judges the profile at `path`.
    ///
    /// - Throws: ``InputError`` when the file cannot be read or is not a provisioning profile.
    public static func read(path: String, now: Date = Date()) async throws(InputError) -> ProfileReport {
        let bytes = try InputFile.read(path, limit: ProvisioningProfile.maximumSize, what: "a provisioning profile")
        let profile: ProvisioningProfile
        do {
            profile = try ProvisioningProfile.parse(bytes, allowingUnsigned: true)
        } catch {
            throw InputError("bad-profile", file: path, error.description)
        }
        let signature = profile.verifySignature()
        var findings = ProfileChecks.findings(for: profile, signature: signature, now: now, file: path)
        if let identity = signature.identity {
            findings += await TrustChecks.findings(
                code: [],
                profiles: [TrustChecks.Signed(identity: identity, bundle: nil, file: path)]
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
            signature: signature
        )
        return ProfileReport(
            path: path,
            summary: summary,
            entitlements: profile.entitlements,
            findings: Finding.merged(findings).sorted()
        )
    }
}
