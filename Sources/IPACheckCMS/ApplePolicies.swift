package import SwiftASN1
import X509

/// Apple's marker extensions, which say what one of Apple's certificates is for.
///
/// They form the `1.2.840.113635.100.6` arc ("appleCertificateExtension"). Apple marks several of them critical on
/// signing identities (Apple Development and Distribution, Developer ID), so a verifier that does not know them
/// refuses those certificates.
///
/// Sources: Apple's Security framework (`libDER/oids.h`: `APPLE_CERT_EXT_INTERMEDIATE_MARKER_*`, the application-,
/// installer- and tvOS-signing leaf markers, the server-authentication arc), the OIDs rcodesign (indygreg's
/// apple-codesign, `certificate.rs`) lists for code-signing and CA certificates, Apple's push-certificate
/// documentation (topics in `6.3.6`), and the certificates of ../shared/corpus read with openssl (`6.1.7` critical
/// beside `6.1.4` on every Apple Distribution leaf, `6.1.2` with `6.1.12` on Apple Development, `6.2.1` on every WWDR
/// CA, `6.2.18` on the 2017 Apple iPhone Certification Authority, `6.2.2.1` and `6.58` on the profile-signing
/// certificates, `6.22` on Apple's own Software Signing certificate).
package enum AppleCertificateExtensions {
    /// One marker: its OID and what Apple means by it.
    package struct Marker: Hashable, Sendable {
        /// The extension's OID.
        package let oid: ASN1ObjectIdentifier
        /// What it marks, in Apple's words where Apple has some.
        package let meaning: String
    }

    /// `1.2.840.113635.100.6`.
    private static let arc: [UInt] = [1, 2, 840, 113_635, 100, 6]

    private static func marker(_ components: [UInt], _ meaning: String) -> Marker? {
        (try? ASN1ObjectIdentifier(elements: arc + components)).map { Marker(oid: $0, meaning: meaning) }
    }

    /// The markers of signing identities and other end-entity certificates (`6.1.x`, push `6.3.x` and the rest):
    /// a certificate that carries one signs; it never issues certificates.
    package static let leafMarkers: [Marker] = [
        marker([1, 1], "Apple code signing (Apple's own released code)"),
        marker([1, 2], "iPhone Developer / Apple Development (iOS)"),
        marker([1, 3], "Apple iPhone OS Application Signing (the App Store's signer)"),
        marker([1, 4], "iPhone Distribution / Apple Distribution (iOS submission)"),
        marker([1, 5], "Safari Developer"),
        marker([1, 6], "Apple iPhone OS VPN Signing"),
        marker([1, 7], "Mac App Signing (3rd Party Mac Developer Application; on every Apple Distribution leaf)"),
        marker([1, 8], "Mac App Signing Submission (3rd Party Mac Developer Installer)"),
        marker([1, 9], "Mac App Store Code Signing"),
        marker([1, 10], "Mac App Store Installer Signing"),
        marker([1, 11], "Mac App Store receipt / secure boot ticket"),
        marker([1, 12], "Mac Developer / Apple Development (macOS)"),
        marker([1, 13], "Developer ID Application"),
        marker([1, 14], "Developer ID Installer"),
        marker([1, 15], "secure boot image manifest"),
        marker([1, 16], "Pass Type ID (Wallet) / installer package signing"),
        marker([1, 17], "Website Push ID"),
        marker([1, 18], "Developer ID Kernel Extension"),
        marker([1, 24], "tvOS Application Signing"),
        marker([1, 24, 1], "tvOS Application Signing (QA)"),
        marker([1, 25, 1], "TestFlight"),
        marker([1, 25, 2], "internal release"),
        marker([1, 30], "Developer ID with notarization ticket"),
        marker([1, 33], "Developer ID date"),
        marker([3, 1], "Apple Push Notification service (development)"),
        marker([3, 2], "Apple Push Notification service (production)"),
        marker([3, 4], "Apple Push Notification service VoIP topic"),
        marker([3, 6], "Apple Push Notification service topics"),
        marker([22], "Apple Software Signing"),
        marker([58], "Apple iPhone OS Provisioning Profile Signing (2024)"),
    ].compactMap { $0 }

    /// The markers of Apple's intermediate certificate authorities (`6.2.x`).
    ///
    /// `6.2.2.1` is one Apple puts on its (leaf) provisioning-profile signer, so these say nothing about a
    /// certificate's place in a chain.
    package static let intermediateMarkers: [Marker] = [
        marker([2, 1], "Apple Worldwide Developer Relations CA (every generation but G2)"),
        marker([2, 2, 1], "Apple iPhone OS Provisioning Profile Signing"),
        marker([2, 3], "Apple Application Integration CA / Apple ID CA"),
        marker([2, 6], "Developer ID Certification Authority"),
        marker([2, 7], "Apple ID CA 2"),
        marker([2, 9], "Apple Timestamp CA"),
        marker([2, 10], "Apple System Integration CA 2"),
        marker([2, 11], "Developer Authentication CA"),
        marker([2, 12], "Apple Server Authentication CA"),
        marker([2, 13], "Apple System Integration CA - G3"),
        marker([2, 14], "Apple Application Integration CA - G3"),
        marker([2, 15], "Apple Worldwide Developer Relations CA - G2"),
        marker([2, 16], "Apple HomeKit Server CA"),
        marker([2, 18], "Apple iPhone Certification Authority (2017)"),
        marker([2, 19], "Apple Software Update CA"),
        marker([2, 31], "Apple Application Integration CA - G1"),
    ].compactMap { $0 }

    /// Every marker ipacheck knows.
    package static var all: [Marker] { leafMarkers + intermediateMarkers }

    /// What `oid` marks, or `nil` when it is not a marker ipacheck knows.
    package static func meaning(of oid: ASN1ObjectIdentifier) -> String? {
        all.first { $0.oid == oid }?.meaning
    }

    /// Whether `oid` lies in Apple's marker arc, known or not.
    package static func isInAppleArc(_ oid: ASN1ObjectIdentifier) -> Bool {
        oid.oidComponents.starts(with: arc)
    }
}

/// Apple's signing-identity markers (``AppleCertificateExtensions/leafMarkers``), understood as Apple applies them:
/// they declare what the certificate that carries them may sign, so a certificate carrying one is an end entity
/// and may not issue another certificate in the chain.
///
/// Which Apple service accepts which marker (the App Store a Distribution leaf, a device a Development leaf) is not
/// this policy's question; whether Apple issued the certificate is.
struct AppleSigningMarkerPolicy: VerifierPolicy {
    var verifyingCriticalExtensions: [ASN1ObjectIdentifier] { AppleCertificateExtensions.leafMarkers.map(\.oid) }

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        let markers = Set(AppleCertificateExtensions.leafMarkers.map(\.oid))
        for (issued, issuer) in zip(chain, chain.dropFirst()) {
            if let marker = issuer.extensions.first(where: { markers.contains($0.oid) }) {
                let meaning = AppleCertificateExtensions.meaning(of: marker.oid) ?? "\(marker.oid)"
                return .failsToMeetPolicy(
                    reason: "\"\(AppleTrust.name(issuer))\" carries Apple's marker of a signing identity (\(meaning)), "
                        + "so it cannot issue \"\(AppleTrust.name(issued))\""
                )
            }
        }
        return .meetsPolicy
    }
}

/// Apple's certificate-authority markers (``AppleCertificateExtensions/intermediateMarkers``), understood: they name
/// the Apple CA a certificate belongs to, which restricts nothing RFC 5280 path validation does not already check.
struct AppleAuthorityMarkerPolicy: VerifierPolicy {
    var verifyingCriticalExtensions: [ASN1ObjectIdentifier] {
        AppleCertificateExtensions.intermediateMarkers.map(\.oid)
    }

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        .meetsPolicy
    }
}
