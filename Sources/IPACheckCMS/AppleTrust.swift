public import Foundation
import SwiftASN1
import X509

/// Whether a signer certificate chains to one of Apple's roots.
///
/// It is judged by swift-certificates' verifier (RFC 5280 path validation: every signature, validity at the given
/// time, basic constraints and key usage) against the pinned roots ipacheck ships. Names prove nothing; only
/// this does.
public enum AppleTrust {
    /// The verdict on one signer.
    public enum Verdict: Hashable, Sendable {
        /// The chain from the signer leads to an Apple root; the names of the chain, signer first.
        case trusted(chain: [String])
        /// No chain to an Apple root could be built or validated; why.
        case untrusted(reason: String)

        /// Whether the signer is Apple-issued.
        public var isTrusted: Bool {
            if case .trusted = self { return true }
            return false
        }
    }

    /// The names and fingerprints of the roots ipacheck trusts (only those whose bytes match their pin).
    public static var roots: [(name: String, sha256: String)] {
        AppleRootCertificates.pinned.filter { root in
            AppleRootCertificates.certificates.contains { certificate in
                CertificateSummary.attribute(.RDNAttributeType.commonName, in: certificate.subject) == root.name
            }
        }.map { ($0.name, $0.sha256) }
    }

    /// What the signer's certificate signed, which decides the extended key usage it must allow.
    public enum Purpose: Hashable, Sendable {
        /// Code (a CodeDirectory): the certificate, if it restricts its usage, must allow code signing.
        case codeSigning
        /// A provisioning profile or a signed AASA file: any usage is accepted.
        case content
    }

    /// Apple's own extensions, which Apple marks critical on some intermediate and leaf certificates (developer and
    /// distribution identities); they restrict which Apple services accept the certificate, which is not what this
    /// evaluation asks.
    private static let appleCriticalExtensions: [ASN1ObjectIdentifier] = [
        [1, 2, 840, 113_635, 100, 6, 1, 2], [1, 2, 840, 113_635, 100, 6, 1, 4], [1, 2, 840, 113_635, 100, 6, 1, 12],
        [1, 2, 840, 113_635, 100, 6, 1, 13], [1, 2, 840, 113_635, 100, 6, 2, 1], [1, 2, 840, 113_635, 100, 6, 2, 6],
    ]

    /// Judges `signer` (DER) with the other certificates the message carries as candidate intermediates.
    ///
    /// - Parameters:
    ///   - signer: The signer certificate's DER.
    ///   - intermediates: Every other certificate of the message (any order; the roots among them are ignored:
    ///     only the pinned ones anchor a chain).
    ///   - time: When the chain must have been valid: the signing time, not today (expiry is reported apart).
    ///   - purpose: What was signed.
    public static func evaluate(
        signer: [UInt8],
        intermediates: [[UInt8]],
        at time: Date,
        purpose: Purpose
    ) async -> Verdict {
        guard let leaf = CertificateReading.certificate(der: signer) else {
            return .untrusted(reason: "the signer certificate cannot be parsed")
        }
        let roots = AppleRootCertificates.certificates
        guard !roots.isEmpty else { return .untrusted(reason: "no Apple root certificate matched its pin") }
        let others = intermediates.compactMap { CertificateReading.certificate(der: $0) }.filter {
            $0.subject != $0.issuer
        }
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            // First, so that its worded reasons are the ones reported; RFC 5280 path validation stays the judge.
            WordedValidity(time: time)
            RFC5280Policy(validationTime: time)
            AppleExtensions(handled: appleCriticalExtensions)
            KeyUsagePurpose(purpose: purpose)
        }
        switch await verifier.validate(leaf: leaf, intermediates: CertificateStore(others)) {
        case .validCertificate(let chain):
            return .trusted(chain: chain.map { Self.name($0) })
        case .couldNotValidate(let failures):
            if failures.isEmpty && leaf.subject == leaf.issuer {
                return .untrusted(reason: "it is self-signed, not issued by Apple")
            }
            if failures.isEmpty {
                let issuer = CertificateSummary.attribute(.RDNAttributeType.commonName, in: leaf.issuer) ?? "its issuer"
                return .untrusted(reason: "no chain leads from it through \(issuer) to an Apple root")
            }
            // Every failed chain ends at an Apple root: the chain exists, something on it is wrong.
            let reasons = Set(failures.map { words(forPolicyFailure: $0.policyFailureReason.description) }).sorted()
            return .untrusted(reason: "its chain to an Apple root is not valid: " + reasons.joined(separator: "; "))
        }
    }

    /// A policy failure in words: the worded policies' reasons as they are; swift-certificates' own
    /// (`RFC5280Policy: Certificate Certificate(version: …) has expired`), which dump whole certificates, by what
    /// went wrong alone.
    static func words(forPolicyFailure reason: String) -> String {
        guard reason.hasPrefix("RFC5280Policy") || reason.contains("Certificate(") else { return reason }
        let known: [(clue: String, words: String)] = [
            ("has expired", "a certificate of the chain has expired"),
            ("is not yet valid", "a certificate of the chain is not yet valid"),
            ("invalid expiry", "a certificate of the chain has a validity period that ends before it starts"),
            ("is not marked as a CA", "a certificate that issued another one is not a certificate authority"),
            ("maximum path length", "the chain is longer than one of its certificate authorities allows"),
            ("basic constraints", "a certificate's basic constraints cannot be read"),
            ("name constraints", "a certificate authority's name constraints forbid a name in the chain"),
            ("subtree", "a certificate authority's name constraints forbid a name in the chain"),
            ("SAN", "a certificate's alternative names cannot be read"),
            ("version 1", "a version 1 certificate of the chain carries extensions"),
        ]
        return known.first { reason.contains($0.clue) }?.words ?? "RFC 5280 path validation rejects the chain"
    }

    private static func name(_ certificate: Certificate) -> String {
        CertificateSummary.attribute(.RDNAttributeType.commonName, in: certificate.subject)
            ?? certificate.subject.description
    }

    /// The checks of RFC 5280 path validation a person most often meets, with reasons in words.
    ///
    /// An expired or not yet valid certificate, or an issuer that is no certificate authority, is found here first,
    /// so that the reason names the certificate and its dates. ``RFC5280Policy`` still runs after it and decides
    /// everything else.
    private struct WordedValidity: VerifierPolicy {
        let time: Date
        var verifyingCriticalExtensions: [ASN1ObjectIdentifier] { [] }

        func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
            let when = Self.day(time)
            for certificate in chain {
                let name = "\"\(AppleTrust.name(certificate))\""
                if certificate.notValidBefore > certificate.notValidAfter {
                    return .failsToMeetPolicy(reason: "\(name) has a validity period that ends before it starts")
                }
                if time > certificate.notValidAfter {
                    return .failsToMeetPolicy(
                        reason:
                            "\(name) expired on \(Self.day(certificate.notValidAfter)) (it had to be valid on \(when))"
                    )
                }
                if time < certificate.notValidBefore {
                    return .failsToMeetPolicy(
                        reason:
                            "\(name) is not valid until \(Self.day(certificate.notValidBefore)) (it had to be valid "
                            + "on \(when))"
                    )
                }
            }
            // Every certificate above the signer issued the one below it, so each must be a certificate authority.
            for (issued, issuer) in zip(chain, chain.dropFirst()) where issuer.version != .v1 {
                guard case .isCertificateAuthority? = try? issuer.extensions.basicConstraints else {
                    return .failsToMeetPolicy(
                        reason: "\"\(AppleTrust.name(issuer))\" is not a certificate authority, so it cannot issue "
                            + "\"\(AppleTrust.name(issued))\""
                    )
                }
            }
            return .meetsPolicy
        }

        /// `2035-02-09`.
        private static func day(_ date: Date) -> String {
            date.formatted(.iso8601.year().month().day())
        }
    }

    /// Enforces the extended key usage of the signer: code must be signed by a certificate that allows code signing
    /// (or any usage) whenever it restricts its usage at all.
    private struct KeyUsagePurpose: VerifierPolicy {
        let purpose: Purpose
        var verifyingCriticalExtensions: [ASN1ObjectIdentifier] { [.X509ExtensionID.extendedKeyUsage] }

        func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
            guard purpose == .codeSigning, let leaf = chain.first else { return .meetsPolicy }
            guard let usage = try? leaf.extensions.extendedKeyUsage else { return .meetsPolicy }
            if usage.contains(.codeSigning) || usage.contains(.any) { return .meetsPolicy }
            return .failsToMeetPolicy(reason: "the signer certificate's extended key usage does not allow code signing")
        }
    }

    /// Declares Apple's critical extensions understood, so the path validation judges the chain, not them.
    private struct AppleExtensions: VerifierPolicy {
        let handled: [ASN1ObjectIdentifier]
        var verifyingCriticalExtensions: [ASN1ObjectIdentifier] { handled }

        func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
            .meetsPolicy
        }
    }
}
