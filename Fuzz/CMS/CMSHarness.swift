import Foundation
import IPACheckAASA
import IPACheckCMS
import IPACheckFuzzSupport
import IPACheckGate
import IPACheckSigning

/// CMS SignedData as ipacheck meets it: parsed, every signer verified over the attached content (offline: the
/// chain is judged against the pinned Apple roots only), read as a provisioning profile and as a signed AASA file.
enum CMSHarness {
    /// A fixed clock, so that certificate validity (and so the outcome) depends on the input alone.
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    static func run(_ bytes: [UInt8]) {
        if let message = try? CMSSignedData.parse(bytes) {
            for signer in message.signers.prefix(4) {
                let verification = message.verify(signer: signer, now: now)
                if let leaf = verification.signerCertificate {
                    let intermediates = message.certificates
                    _ = waitFor {
                        await AppleTrust.evaluate(
                            signer: leaf,
                            intermediates: intermediates,
                            at: now,
                            purpose: .content
                        )
                    }
                }
            }
            for certificate in message.certificates.prefix(8) { _ = CertificateSummary(der: certificate) }
        }
        if let profile = try? ProvisioningProfile.parse(bytes, allowingUnsigned: true) {
            let signature = profile.verifySignature()
            _ = ProfileChecks.findings(for: profile, signature: signature, now: now)
            _ = try? JSONEncoder().encode(signature)
        }
        if AASASignedEnvelope.looksSigned(bytes) {
            _ = try? AASASignedEnvelope.extract(from: bytes, now: now)
        }
    }
}

/// Fuzzes with libFuzzer in a fuzz build, replays the files named on the command line otherwise.
@main
enum Main {
    static func main() { FuzzMain.run(CMSHarness.run) }
}
