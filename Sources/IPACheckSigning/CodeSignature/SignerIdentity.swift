package import Foundation
package import IPACheckCMS

/// Who signed something (a code signature, a profile), with what trust evaluation needs: the signer's
/// certificate, the other certificates the message carries, and when it was signed.
package struct SignerIdentity: Hashable, Sendable {
    /// The signer certificate, summarised.
    package let certificate: CertificateSummary
    /// Its DER.
    let signerDER: [UInt8]
    /// Every certificate of the message (DER): the candidate intermediates.
    let messageCertificates: [[UInt8]]
    /// What was signed.
    let purpose: AppleTrust.Purpose
    /// The CMS signing time the message states, at which the chain must have been valid; `nil` when it states
    /// none, and the chain is then judged at the time of the check.
    let signingTime: Date?

    /// The identity of a verified CMS signer, when the message carries its certificate.
    init?(_ verification: CMSSignerVerification, signingTime: Date?, purpose: AppleTrust.Purpose) {
        guard let certificate = verification.signer, let der = verification.signerCertificate else { return nil }
        self.certificate = certificate
        self.signerDER = der
        self.messageCertificates = verification.messageCertificates
        self.signingTime = signingTime
        self.purpose = purpose
    }

    /// When the chain is judged: at the signing time the message states, else `now`.
    package func judgementTime(now: Date = Date()) -> AppleTrust.JudgementTime {
        signingTime.map(AppleTrust.JudgementTime.signingTime) ?? .now(now)
    }

    /// Whether a chain leads from the signer to one of Apple's pinned roots, valid at the signing time (or `now`
    /// when the message states none).
    package func evaluateTrust(now: Date) async -> AppleTrust.Verdict {
        await AppleTrust.evaluate(
            signer: signerDER,
            intermediates: messageCertificates,
            at: judgementTime(now: now),
            purpose: purpose
        )
    }
}
