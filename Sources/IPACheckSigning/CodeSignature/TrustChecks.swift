import IPACheckCMS
public import IPACheckReport

/// The trust rules (SIG009, PROF006): whether each signer of code or of a provisioning profile is Apple's.
///
/// A signer is Apple's when it chains to one of Apple's pinned roots. Each distinct signer is evaluated once, and
/// one finding names every bundle (and slice) it signed, because one untrusted certificate is one cause.
public enum TrustChecks {
    /// Something signed, and where.
    public struct Signed: Sendable {
        /// The signer.
        public let identity: SignerIdentity
        /// The bundle (or Mach-O) it signed.
        public let bundle: String?
        /// The slice, for code signatures.
        public let slice: String?
        /// The file it signed, for a standalone profile (an embedded one is `embedded.mobileprovision`).
        public let file: String?

        /// Creates an entry.
        public init(identity: SignerIdentity, bundle: String?, slice: String? = nil, file: String? = nil) {
            self.identity = identity
            self.bundle = bundle
            self.slice = slice
            self.file = file
        }
    }

    /// The rules raised here.
    public static let rules = [SignatureVerifier.rules.chainIncomplete, ProfileChecks.rules.notAppleSigner]

    /// The code signers of these signature checks (ad hoc signatures have none).
    public static func codeSigners(_ check: SignatureCheck, bundle: String?) -> [Signed] {
        check.slices.compactMap { slice in
            slice.cms?.identity.map { Signed(identity: $0, bundle: bundle, slice: slice.architecture) }
        }
    }

    /// Evaluates every distinct signer once and reports the untrusted ones.
    ///
    /// The message says "does not chain to an Apple root" only when that is the reason; an expired certificate on a
    /// chain that does reach an Apple root is reported as expired (``AppleTrust/Verdict/untrusted(reason:)``).
    public static func findings(code: [Signed], profiles: [Signed]) async -> [Finding] {
        var verdicts: [SignerIdentity: AppleTrust.Verdict] = [:]
        for identity in Set((code + profiles).map(\.identity)) {
            verdicts[identity] = await identity.evaluateTrust()
        }
        var findings: [Finding] = []
        for signed in code {
            guard case .untrusted(let reason)? = verdicts[signed.identity] else { continue }
            findings.append(
                SignatureVerifier.rules.chainIncomplete.finding(
                    "The code is signed by \"\(signed.identity.certificate.displayName)\", which Apple does not "
                        + "vouch for: \(reason).",
                    bundle: signed.bundle,
                    affects: signed.slice.map { [$0] }
                )
            )
        }
        for signed in profiles {
            guard case .untrusted(let reason)? = verdicts[signed.identity] else { continue }
            findings.append(
                ProfileChecks.rules.notAppleSigner.finding(
                    "The profile is signed by \"\(signed.identity.certificate.displayName)\", which Apple does not "
                        + "vouch for: \(reason).",
                    bundle: signed.bundle,
                    location: signed.file ?? "embedded.mobileprovision"
                )
            )
        }
        return Finding.merged(findings)
    }
}
