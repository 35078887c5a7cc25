import Foundation
import IPACheckAASA
import IPACheckGate
import IPACheckPlist
import IPACheckReport
import IPACheckTestSupport
import Testing

/// Signed (iOS 8) AASA files report the signer and its expiry; a broken signature or an expired certificate is an
/// error (QA1916).
///
/// Ground truth from openssl on the corpus files: both signatures verify
/// (`openssl smime -verify -noverify`); the signers *.facebook.com and twitter.com expire on 2018-10-18 and
/// 2019-04-08 (`openssl x509 -enddate`).
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct SignedFileTests {
    private static let facebook = "aasa/knil_Facebook-signed-AASA.p7"
    private static let twitter = "aasa/knil_Twitter-signed-AASA.p7"

    private static func day(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text + "T00:00:00Z"))
    }

    private func rules(_ path: String, now: Date) throws -> [String] {
        AASAFileReading.findings(of: try AASADocument.parse(try Corpus.bytes(path), now: now)).map(\.rule)
    }

    @Test(arguments: [(facebook, "2018-10-01"), (twitter, "2019-03-01")])
    func aValidSignatureWithACurrentCertificateIsOnlyTheObsoleteWarning(path: String, now: String) throws {
        #expect(try rules(path, now: try Self.day(now)) == ["AASA011"])
    }

    @Test(arguments: [(facebook, "2018-10-18"), (twitter, "2019-04-08")])
    func anExpiredSigningCertificateIsAnError(path: String, expiry: String) throws {
        let findings = AASAFileReading.findings(
            of: try AASADocument.parse(try Corpus.bytes(path), now: try Self.day("2026-11-22"))
        )
        let error = try #require(findings.first { $0.rule == "AASA012" })
        #expect(error.severity == .error)
        #expect(error.message.contains("expired on \(expiry)"))
        #expect(findings.contains { $0.rule == "AASA011" && $0.message.contains("valid until \(expiry)") })
    }

    @Test func aChangedPayloadNoLongerVerifies() throws {
        var bytes = try Corpus.bytes(Self.facebook)
        // Rename the first "applinks" key to "bpplinks": the JSON stays valid, the signed digest no longer holds.
        let key = Array("\"applinks\"".utf8)
        let offset = try #require(
            (0...(bytes.count - key.count)).first { bytes[$0..<($0 + key.count)].elementsEqual(key) }
        )
        bytes[offset + 1] = UInt8(ascii: "b")
        let findings = AASAFileReading.findings(of: try AASADocument.parse(bytes, now: try Self.day("2018-10-01")))
        #expect(findings.contains { $0.rule == "AASA012" && $0.message.contains("does not verify") })
    }
}

/// The same rules on a signed file made here (a throwaway CA's certificates, valid 2023-11-14 to 2033-05-18), so they
/// are shown without the corpus: a current signature is only the obsolete warning, an expired certificate or a
/// payload changed after signing the error.
struct GeneratedSignedFileTests {
    private static let payload = Array(#"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#.utf8)
    private static let during = Date(timeIntervalSince1970: 1_800_000_000)
    private static let after = Date(timeIntervalSince1970: 2_100_000_000)

    private static func signed(_ change: (inout ProfileBuilder) -> Void = { _ in }) throws -> [UInt8] {
        var builder = ProfileBuilder(payload: .dictionary([:]))
        builder.signedContent = payload
        change(&builder)
        return try builder.build()
    }

    private static func findings(_ bytes: [UInt8], now: Date) throws -> [Finding] {
        AASAFileReading.findings(of: try AASADocument.parse(bytes, now: now))
    }

    @Test func aCurrentSignatureIsOnlyTheObsoleteWarning() throws {
        let findings = try Self.findings(try Self.signed(), now: Self.during)
        #expect(findings.map(\.rule) == ["AASA011"])
        #expect(findings.first?.severity == .warning)
        #expect(try Self.findings(Self.payload, now: Self.during).isEmpty, "the same file unsigned raises nothing")
    }

    @Test func anExpiredCertificateIsAnError() throws {
        let findings = try Self.findings(try Self.signed(), now: Self.after)
        let error = try #require(findings.first { $0.rule == "AASA012" })
        #expect(error.severity == .error)
        #expect(error.message.contains("expired"))
    }

    @Test func aPayloadChangedAfterSigningIsAnError() throws {
        let tampered = try Self.signed { builder in
            builder.tamper = { bytes in bytes.map { $0 == UInt8(ascii: "E") ? UInt8(ascii: "F") : $0 } }
        }
        let findings = try Self.findings(tampered, now: Self.during)
        #expect(findings.contains { $0.rule == "AASA012" && $0.message.contains("does not verify") })
    }
}
