import Foundation
import IPACheckCMS
import IPACheckReport
import IPACheckSigning
import IPACheckTestSupport
import Testing

@testable import IPACheckGate

/// What the trust rules say for each verdict.
///
/// SIG009/PROF006 only when no chain leads to an Apple root, SIG012/PROF010 for an Apple chain with a certificate
/// outside its validity (naming it, its date and the time judged), SIG013/PROF011 for an Apple chain that breaks
/// another rule. The verdicts themselves are tested in IPACheckCMSTests (AppleChainTests, CorpusChainOpenSSLTests).
struct TrustFindingsTests {
    static let signed = Date(timeIntervalSince1970: 1_610_591_736)  // 2021-01-14T02:35:36Z
    static let expiry = AppleTrust.Expiry(
        lapses: [
            AppleTrust.Lapse(
                certificate: "Apple Worldwide Developer Relations Certification Authority",
                isSigner: false,
                notValidBefore: Date(timeIntervalSince1970: 1_202_928_995),
                notValidAfter: Date(timeIntervalSince1970: 1_455_476_195),
                hasExpired: true
            )
        ],
        judgedAt: .signingTime(signed),
        chain: ["Test Signer", "Apple Worldwide Developer Relations Certification Authority", "Apple Root CA"]
    )

    @Test("an expired certificate on an Apple chain is SIG012 for code, naming it, its date and the time judged")
    func expiredCodeChainIsSIG012() throws {
        let finding = try #require(
            TrustChecks.finding(for: .expired(Self.expiry), code: true, signer: "Test Signer", bundle: "A.app")
        )
        #expect(finding.rule == "SIG012")
        #expect(finding.rule == SignatureVerifier.trustRules.chainCertificateExpired.id)
        #expect(
            finding.message
                == "The code is signed by \"Test Signer\", whose chain to \"Apple Root CA\" was not valid when judged: "
                + "\"Apple Worldwide Developer Relations Certification Authority\" expired on 2016-02-14T18:56:35Z; "
                + "the chain was judged at the CMS signing time, 2021-01-14T02:35:36Z."
        )
        #expect(!finding.message.contains("does not chain"))
    }

    @Test("the same for a profile is PROF010, located at the profile")
    func expiredProfileChainIsPROF010() throws {
        let now = AppleTrust.Expiry(lapses: Self.expiry.lapses, judgedAt: .now(Self.signed), chain: Self.expiry.chain)
        let finding = try #require(
            TrustChecks.finding(
                for: .expired(now),
                code: false,
                signer: "Test Signer",
                bundle: nil,
                file: "p.mobileprovision"
            )
        )
        #expect(finding.rule == ProfileChecks.rules.chainCertificateExpired.id)
        #expect(finding.rule == "PROF010")
        #expect(finding.message.hasSuffix("judged now, 2021-01-14T02:35:36Z, as the signature states no signing time."))
    }

    @Test("an Apple chain that breaks another rule is SIG013 / PROF011, with the reason")
    func invalidChainIsSIG013AndPROF011() throws {
        let verdict = AppleTrust.Verdict.invalidChain(
            root: "Apple Root CA",
            reason: "the signer certificate carries the critical extension 1.2.840.113635.100.6.1.99"
        )
        let code = try #require(TrustChecks.finding(for: verdict, code: true, signer: "S", bundle: nil))
        let profile = try #require(TrustChecks.finding(for: verdict, code: false, signer: "S", bundle: nil))
        #expect(code.rule == SignatureVerifier.trustRules.chainInvalid.id)
        #expect(code.rule == "SIG013")
        #expect(profile.rule == ProfileChecks.rules.chainInvalid.id)
        #expect(profile.rule == "PROF011")
        #expect(code.message.contains("whose chain to \"Apple Root CA\" is not valid: the signer certificate carries"))
    }

    @Test("no chain at all is SIG009 / PROF006, and a trusted signer raises nothing")
    func noChainIsSIG009AndPROF006() throws {
        let verdict = AppleTrust.Verdict.untrusted(reason: "it is self-signed, not issued by Apple")
        #expect(TrustChecks.finding(for: verdict, code: true, signer: "S", bundle: nil)?.rule == "SIG009")
        #expect(TrustChecks.finding(for: verdict, code: false, signer: "S", bundle: nil)?.rule == "PROF006")
        #expect(
            TrustChecks.finding(for: .trusted(chain: ["S", "Apple Root CA"]), code: true, signer: "S", bundle: nil)
                == nil
        )
    }

    @Test(
        "genuine Apple Distribution signatures raise no trust finding",
        .enabled(if: Corpus.isAvailable, "\(Corpus.absentReason)"),
        arguments: [
            "macho/appinfo_FMDB.framework_bin", "macho/appinfo_NotificationService.appex_exec",
            "macho/appinfo_libswiftPhotos.dylib",
        ]
    )
    func appleDistributionRaisesNoTrustFinding(file: String) async throws {
        let check = try SignatureVerifier.verify(
            fileBytes: try Corpus.bytes(file),
            infoPlist: .notChecked,
            codeResources: .notChecked
        )
        let signers = TrustChecks.codeSigners(check, bundle: nil)
        #expect(signers.count == 2)
        let findings = await TrustChecks.findings(code: signers, profiles: [])
        #expect(findings.isEmpty, "\(findings.map(\.rule))")
    }
}
