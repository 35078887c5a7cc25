package import Foundation
import SwiftASN1
// The chain is judged at a fixed time (the signing time); `RFC5280Policy(fixedExpiryValidationTime:)` is how
// swift-certificates 1.21 spells that (its `init(validationTime:)` is deprecated in favour of it).
@_spi(FixedExpiryValidationTime) import X509

/// Whether a signer certificate chains to one of Apple's roots, judged as Apple's own tools judge it.
///
/// It is judged by swift-certificates' verifier (RFC 5280 path validation: every signature, validity at the given
/// time, basic constraints and key usage) against the pinned roots ipacheck ships, with Apple's marker extensions
/// understood (``AppleCertificateExtensions``) and Apple's intermediates (``AppleIntermediateCertificates``) offered
/// as path candidates beside the certificates the message carries. Names prove nothing; only this does.
///
/// The verdict says what is really wrong: no chain at all (``Verdict/untrusted(reason:)``), a chain whose
/// certificates were not all valid at the time it was judged (``Verdict/expired(_:)``), or a chain that breaks
/// another rule (``Verdict/invalidChain(root:reason:)``).
package enum AppleTrust {
    /// When the chain must have been valid, and why that time.
    package enum JudgementTime: Hashable, Sendable {
        /// The CMS signing time the message states (a signed attribute).
        case signingTime(Date)
        /// The time of the check, because the message states no signing time.
        case now(Date)

        /// The time itself.
        package var date: Date {
            switch self {
            case .signingTime(let date), .now(let date): return date
            }
        }

        /// `at the CMS signing time, 2021-01-14T02:35:36Z`.
        package var words: String {
            switch self {
            case .signingTime(let date): return "at the CMS signing time, \(AppleTrust.timestamp(date))"
            case .now(let date):
                return "now, \(AppleTrust.timestamp(date)), as the signature states no signing time"
            }
        }
    }

    /// A certificate of a chain that was outside its validity period when the chain was judged.
    package struct Lapse: Hashable, Sendable {
        /// Its common name (or whole subject when it has none).
        package let certificate: String
        /// Whether it is the signer's own certificate (else an intermediate or root).
        package let isSigner: Bool
        /// Start of its validity.
        package let notValidBefore: Date
        /// End of its validity.
        package let notValidAfter: Date
        /// Whether it had expired (else it was not valid yet).
        package let hasExpired: Bool

        /// Describes a lapsed certificate.
        package init(certificate: String, isSigner: Bool, notValidBefore: Date, notValidAfter: Date, hasExpired: Bool) {
            self.certificate = certificate
            self.isSigner = isSigner
            self.notValidBefore = notValidBefore
            self.notValidAfter = notValidAfter
            self.hasExpired = hasExpired
        }

        /// `"Apple Worldwide Developer Relations Certification Authority" expired on 2023-02-07T21:48:47Z`.
        package var words: String {
            hasExpired
                ? "\"\(certificate)\" expired on \(AppleTrust.timestamp(notValidAfter))"
                : "\"\(certificate)\" was not valid until \(AppleTrust.timestamp(notValidBefore))"
        }
    }

    /// A chain to an Apple root that holds in every respect but time.
    package struct Expiry: Hashable, Sendable {
        /// The certificates that were outside their validity, signer first.
        package let lapses: [Lapse]
        /// When the chain was judged.
        package let judgedAt: JudgementTime
        /// The names of the chain, signer first, root last.
        package let chain: [String]

        /// Describes a chain that held but for time.
        package init(lapses: [Lapse], judgedAt: JudgementTime, chain: [String]) {
            self.lapses = lapses
            self.judgedAt = judgedAt
            self.chain = chain
        }

        /// What is wrong, in words: which certificate, its date, and when the chain was judged.
        package var reason: String {
            lapses.map(\.words).joined(separator: " and ") + "; the chain was judged " + judgedAt.words
        }
    }

    /// The verdict on one signer.
    package enum Verdict: Hashable, Sendable {
        /// The chain from the signer leads to an Apple root; the names of the chain, signer first.
        case trusted(chain: [String])
        /// A chain leads to an Apple root but a certificate on it was not valid when the chain was judged.
        case expired(Expiry)
        /// A chain leads to the Apple root `root`, but it breaks a rule of path validation other than time; why.
        case invalidChain(root: String, reason: String)
        /// No chain leads from the signer to an Apple root; why.
        case untrusted(reason: String)

        /// Whether the signer is Apple-issued and its chain valid when judged.
        package var isTrusted: Bool {
            if case .trusted = self { return true }
            return false
        }
    }

    /// The names and fingerprints of the roots ipacheck trusts (only those whose bytes match their pin).
    package static var roots: [(name: String, sha256: String)] {
        AppleRootCertificates.pinned.filter { root in
            AppleRootCertificates.certificates.contains { certificate in
                CertificateSummary.attribute(.RDNAttributeType.commonName, in: certificate.subject) == root.name
            }
        }.map { ($0.name, $0.sha256) }
    }

    /// The names and fingerprints of the intermediates ipacheck offers as path candidates (never as anchors).
    package static var intermediates: [(name: String, sha256: String)] {
        AppleIntermediateCertificates.matching.map { ($0.name, $0.sha256) }
    }

    /// What the signer's certificate signed, which decides the extended key usage it must allow.
    package enum Purpose: Hashable, Sendable {
        /// Code (a CodeDirectory): the certificate, if it restricts its usage, must allow code signing.
        case codeSigning
        /// A provisioning profile or a signed AASA file: any usage is accepted.
        case content
    }

    /// Judges `signer` (DER) with the other certificates the message carries, and Apple's shipped intermediates, as
    /// candidate intermediates.
    ///
    /// - Parameters:
    ///   - signer: The signer certificate's DER.
    ///   - intermediates: Every other certificate of the message (any order; the roots among them are ignored:
    ///     only the pinned ones anchor a chain).
    ///   - time: When the chain must have been valid: the signing time when the message states one, else now.
    ///   - purpose: What was signed.
    package static func evaluate(
        signer: [UInt8],
        intermediates: [[UInt8]],
        at time: JudgementTime,
        purpose: Purpose
    ) async -> Verdict {
        await evaluate(
            signer: signer,
            intermediates: intermediates,
            at: time,
            purpose: purpose,
            roots: AppleRootCertificates.certificates,
            shipped: AppleIntermediateCertificates.certificates
        )
    }

    /// Judges `signer` at `time`, taken as the message's signing time.
    package static func evaluate(
        signer: [UInt8],
        intermediates: [[UInt8]],
        at time: Date,
        purpose: Purpose
    ) async -> Verdict {
        await evaluate(signer: signer, intermediates: intermediates, at: .signingTime(time), purpose: purpose)
    }

    /// Judges `signer` against `roots` (the only anchors) with the message's certificates and `shipped` as path
    /// candidates.
    static func evaluate(
        signer: [UInt8],
        intermediates: [[UInt8]],
        at time: JudgementTime,
        purpose: Purpose,
        roots: [Certificate],
        shipped: [Certificate]
    ) async -> Verdict {
        guard let leaf = CertificateReading.certificate(der: signer) else {
            return .untrusted(reason: "the signer certificate cannot be parsed")
        }
        guard !roots.isEmpty else { return .untrusted(reason: "no Apple root certificate matched its pin") }
        let candidates =
            intermediates.compactMap { CertificateReading.certificate(der: $0) }.filter { $0.subject != $0.issuer }
            + shipped
        let judge = Judge(roots: roots, purpose: purpose)
        switch await judge.validate(leaf, through: candidates, at: time.date) {
        case .validCertificate(let chain):
            return .trusted(chain: chain.map { name($0) })
        case .couldNotValidate(let failures) where failures.isEmpty:
            return await noChain(leaf, candidates: candidates, judge: judge, at: time.date)
        case .couldNotValidate(let failures):
            // Every failed chain ends at an Apple root: a chain exists, and something on it is wrong.
            return await wrongChain(leaf, failures: failures, judge: judge, at: time)
        }
    }

    /// The verdict when the verifier found no chain to judge: none exists, or the signer carries a critical
    /// extension ipacheck does not understand (the verifier then refuses it before building any chain).
    private static func noChain(
        _ leaf: Certificate,
        candidates: [Certificate],
        judge: Judge,
        at time: Date
    ) async -> Verdict {
        let unknown = leaf.extensions.filter { $0.critical && !Judge.understood.contains($0.oid) }.map(\.oid)
        if !unknown.isEmpty, let root = await judge.rootReached(leaf, through: candidates, ignoring: unknown, at: time)
        {
            let named = unknown.map { oid in
                AppleCertificateExtensions.isInAppleArc(oid) ? "\(oid) (in Apple's marker arc)" : "\(oid)"
            }
            return .invalidChain(
                root: root,
                reason: "the signer certificate carries the critical extension"
                    + (named.count == 1 ? " " : "s ") + named.joined(separator: ", ")
                    + ", which ipacheck does not know, so it cannot tell what the certificate may be used for"
            )
        }
        if leaf.subject == leaf.issuer {
            return .untrusted(reason: "it is self-signed, not issued by Apple")
        }
        let issuer = CertificateSummary.attribute(.RDNAttributeType.commonName, in: leaf.issuer) ?? "its issuer"
        return .untrusted(reason: "no chain leads from it through \(issuer) to an Apple root")
    }

    /// The verdict when chains to an Apple root exist but none is valid: expired when one of them holds in every
    /// respect but the validity of its certificates at `time`, else the reasons the chains break.
    private static func wrongChain(
        _ leaf: Certificate,
        failures: [CertificateValidationResult.PolicyFailure],
        judge: Judge,
        at time: JudgementTime
    ) async -> Verdict {
        var expired: [Expiry] = []
        var reasons: [String] = []
        var seen: [[Certificate]] = []
        for failure in failures {
            let chain = Array(failure.chain)
            guard !seen.contains(chain) else { continue }
            seen.append(chain)
            let lapses = lapses(in: chain, at: time.date)
            // A time at which every certificate of the chain was valid: judged then, does the chain hold?
            guard !lapses.isEmpty, let probe = commonValidity(of: chain) else {
                reasons.append(words(forPolicyFailure: failure.policyFailureReason.description))
                continue
            }
            let middle = Array(chain.dropFirst().dropLast())
            switch await judge.validate(leaf, through: middle, at: probe) {
            case .validCertificate:
                expired.append(Expiry(lapses: lapses, judgedAt: time, chain: chain.map { name($0) }))
            case .couldNotValidate(let others):
                reasons += others.map { words(forPolicyFailure: $0.policyFailureReason.description) }
                if others.isEmpty { reasons.append(words(forPolicyFailure: failure.policyFailureReason.description)) }
            }
        }
        // The chain that is least wrong: the fewest lapsed certificates, then the one valid the longest.
        if let best = expired.min(by: { left, right in
            if left.lapses.count != right.lapses.count { return left.lapses.count < right.lapses.count }
            return left.lapses.map(\.notValidAfter).min() ?? .distantPast
                > right.lapses.map(\.notValidAfter).min() ?? .distantPast
        }) {
            return .expired(best)
        }
        let root = seen.first?.last.map { name($0) } ?? "an Apple root"
        return .invalidChain(root: root, reason: Set(reasons).sorted().joined(separator: "; "))
    }

    /// The certificates of `chain` outside their validity at `time`, signer first.
    private static func lapses(in chain: [Certificate], at time: Date) -> [Lapse] {
        chain.enumerated().compactMap { index, certificate in
            guard time > certificate.notValidAfter || time < certificate.notValidBefore else { return nil }
            return Lapse(
                certificate: name(certificate),
                isSigner: index == 0,
                notValidBefore: certificate.notValidBefore,
                notValidAfter: certificate.notValidAfter,
                hasExpired: time > certificate.notValidAfter
            )
        }
    }

    /// A moment at which every certificate of `chain` was valid (the middle of their common validity), or `nil`
    /// when their validity periods never overlap.
    private static func commonValidity(of chain: [Certificate]) -> Date? {
        guard let start = chain.map(\.notValidBefore).max(), let end = chain.map(\.notValidAfter).min(),
            start <= end
        else { return nil }
        return start.addingTimeInterval(end.timeIntervalSince(start) / 2)
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

    /// The name people know a certificate by: its common name, else its whole subject.
    static func name(_ certificate: Certificate) -> String {
        CertificateSummary.attribute(.RDNAttributeType.commonName, in: certificate.subject)
            ?? certificate.subject.description
    }

    /// `2021-01-14T02:35:36Z`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// One configuration of swift-certificates' verifier: the anchors and the policies, at a time given per call.
    private struct Judge {
        let roots: [Certificate]
        let purpose: Purpose

        /// Every extension some policy of ``validate(_:through:at:)`` understands.
        static let understood: Set<ASN1ObjectIdentifier> = Set(
            AppleCertificateExtensions.all.map(\.oid) + KeyUsagePurpose(purpose: .content).verifyingCriticalExtensions
                + RFC5280Policy(fixedExpiryValidationTime: Date()).verifyingCriticalExtensions
        )

        /// Path validation of `leaf` through `candidates` to the anchors at `time`.
        func validate(
            _ leaf: Certificate,
            through candidates: [Certificate],
            at time: Date
        ) async
            -> CertificateValidationResult
        {
            var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
                // First, so that its worded reasons are the ones reported; RFC 5280 path validation stays the judge.
                WordedValidity(time: time)
                RFC5280Policy(fixedExpiryValidationTime: time)
                AppleSigningMarkerPolicy()
                AppleAuthorityMarkerPolicy()
                KeyUsagePurpose(purpose: purpose)
            }
            return await verifier.validate(leaf: leaf, intermediates: CertificateStore(candidates))
        }

        /// The root a chain from `leaf` reaches when the critical extensions `unknown` are set aside, or `nil`.
        ///
        /// A diagnosis only, never a verdict of trust: the policy that sets them aside accepts no chain, so that
        /// every chain that reaches a root comes back as a failure that names it.
        func rootReached(
            _ leaf: Certificate,
            through candidates: [Certificate],
            ignoring unknown: [ASN1ObjectIdentifier],
            at time: Date
        ) async -> String? {
            var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
                DiagnosisOnly(setAside: unknown)
                RFC5280Policy(fixedExpiryValidationTime: time)
                AppleSigningMarkerPolicy()
                AppleAuthorityMarkerPolicy()
                KeyUsagePurpose(purpose: purpose)
            }
            guard
                case .couldNotValidate(let failures) = await verifier.validate(
                    leaf: leaf,
                    intermediates: CertificateStore(candidates)
                )
            else { return nil }
            return failures.first.flatMap { Array($0.chain).last }.map { AppleTrust.name($0) }
        }
    }

    /// Sets extensions aside to find out whether a chain exists, and accepts none.
    private struct DiagnosisOnly: VerifierPolicy {
        let setAside: [ASN1ObjectIdentifier]
        var verifyingCriticalExtensions: [ASN1ObjectIdentifier] { setAside }

        func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
            .failsToMeetPolicy(reason: "diagnosis only")
        }
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
            let when = AppleTrust.timestamp(time)
            for certificate in chain {
                let name = "\"\(AppleTrust.name(certificate))\""
                if certificate.notValidBefore > certificate.notValidAfter {
                    return .failsToMeetPolicy(reason: "\(name) has a validity period that ends before it starts")
                }
                if time > certificate.notValidAfter {
                    return .failsToMeetPolicy(
                        reason: "\(name) expired on \(AppleTrust.timestamp(certificate.notValidAfter)) (it had to be "
                            + "valid at \(when))"
                    )
                }
                if time < certificate.notValidBefore {
                    return .failsToMeetPolicy(
                        reason: "\(name) is not valid until \(AppleTrust.timestamp(certificate.notValidBefore)) (it "
                            + "had to be valid at \(when))"
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
}
