import Foundation
public import IPACheckCMS

/// Who signed something (a code signature, a profile), with what trust evaluation needs: the signer's
/// certificate, the other certificates the message carries, and when it was signed.
public struct SignerIdentity: Hashable, Sendable {
    /// The signer certificate, summarised.
    public let certificate: CertificateSummary
    /// Its DER.
    let signerDER: [UInt8]
    /// Every certificate of the message (DER): the candidate intermediates.
    let messageCertificates: [[UInt8]]
    /// What was signed.
    let purpose: AppleTrust.Purpose
    /// When the chain must have been valid: the signing time when the message has one, else the start of the
    /// signer's validity (expiry is reported apart, so an old signature is not untrusted for being old).
    let trustTime: Date

    /// The identity of a verified CMS signer, when the message carries its certificate.
    init?(_ verification: CMSSignerVerification, signingTime: Date?, purpose: AppleTrust.Purpose) {
        guard let certificate = verification.signer, let der = verification.signerCertificate else { return nil }
        self.certificate = certificate
        self.signerDER = der
        self.messageCertificates = verification.messageCertificates
        self.trustTime = signingTime ?? certificate.notValidBefore.addingTimeInterval(1)
        self.purpose = purpose
    }

    /// Whether a chain leads from the signer to one of Apple's pinned roots.
    public func evaluateTrust() async -> AppleTrust.Verdict {
        await AppleTrust.evaluate(
            signer: signerDER,
            intermediates: messageCertificates,
            at: trustTime,
            purpose: purpose
        )
    }
}
