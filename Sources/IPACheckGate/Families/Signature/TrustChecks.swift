package import Foundation
import IPACheckCMS
package import IPACheckReport
package import IPACheckSigning

/// The trust rules: whether each signer of code or of a provisioning profile is Apple's, and if not, what is really
/// wrong (SIG009/PROF006 no chain to an Apple root; SIG012/PROF010 an Apple chain with a certificate outside its
/// validity when judged; SIG013/PROF011 an Apple chain that breaks another rule).
///
/// Each distinct signer is evaluated once, and one finding names every bundle (and slice) it signed, because one
/// untrusted certificate is one cause.
package enum TrustChecks {
    /// Something signed, and where.
    package struct Signed: Sendable {
        /// The signer.
        package let identity: SignerIdentity
        /// The bundle (or Mach-O) it signed.
        package let bundle: String?
        /// The slice, for code signatures.
        package let slice: String?
        /// The file it signed, for a standalone profile (an embedded one is `embedded.mobileprovision`).
        package let file: String?

        /// Creates an entry.
        package init(identity: SignerIdentity, bundle: String?, slice: String? = nil, file: String? = nil) {
            self.identity = identity
            self.bundle = bundle
            self.slice = slice
            self.file = file
        }
    }

    /// The code signers of these signature checks (ad hoc signatures have none).
    package static func codeSigners(_ check: SignatureCheck, bundle: String?) -> [Signed] {
        check.slices.compactMap { slice in
            slice.cms?.identity.map { Signed(identity: $0, bundle: bundle, slice: slice.architecture) }
        }
    }

    /// Evaluates every distinct signer once, at its signing time (or `now` when it states none), and reports those
    /// whose chain is not valid, each with the rule for what is really wrong.
    package static func findings(code: [Signed], profiles: [Signed], now: Date = Date()) async -> [Finding] {
        var verdicts: [SignerIdentity: AppleTrust.Verdict] = [:]
        for identity in Set((code + profiles).map(\.identity)) {
            verdicts[identity] = await identity.evaluateTrust(now: now)
        }
        var findings: [Finding] = []
        for (signed, isCode) in code.map({ ($0, true) }) + profiles.map({ ($0, false) }) {
            guard let verdict = verdicts[signed.identity],
                let finding = finding(
                    for: verdict,
                    code: isCode,
                    signer: signed.identity.certificate.displayName,
                    bundle: signed.bundle,
                    slice: signed.slice,
                    file: signed.file
                )
            else { continue }
            findings.append(finding)
        }
        return Finding.merged(findings)
    }

    /// The finding for a verdict on the signer named `signer` of code (or of a profile), or `nil` when the signer is
    /// trusted: the rule says what is really wrong, the message names the certificate, its date and the time judged.
    static func finding(
        for verdict: AppleTrust.Verdict,
        code: Bool,
        signer: String,
        bundle: String?,
        slice: String? = nil,
        file: String? = nil
    ) -> Finding? {
        let what = code ? "The code" : "The profile"
        let rule: Rule
        let message: String
        switch verdict {
        case .trusted:
            return nil
        case .expired(let expiry):
            let root = expiry.chain.last.map { "\"\($0)\"" } ?? "an Apple root"
            rule =
                code
                ? SignatureVerifier.trustRules.chainCertificateExpired : ProfileChecks.rules.chainCertificateExpired
            message =
                "\(what) is signed by \"\(signer)\", whose chain to \(root) was not valid when judged: "
                + "\(expiry.reason)."
        case .invalidChain(let root, let reason):
            rule = code ? SignatureVerifier.trustRules.chainInvalid : ProfileChecks.rules.chainInvalid
            message = "\(what) is signed by \"\(signer)\", whose chain to \"\(root)\" is not valid: \(reason)."
        case .untrusted(let reason):
            rule = code ? SignatureVerifier.trustRules.chainIncomplete : ProfileChecks.rules.notAppleSigner
            message = "\(what) is signed by \"\(signer)\", which does not chain to an Apple root: \(reason)."
        }
        return code
            ? rule.finding(message, bundle: bundle, affects: slice.map { [$0] })
            : rule.finding(message, bundle: bundle, location: file ?? "embedded.mobileprovision")
    }
}
