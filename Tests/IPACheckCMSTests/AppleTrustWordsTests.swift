import Foundation
import IPACheckTestSupport
import SwiftASN1
import Testing
import X509

@testable import IPACheckCMS

/// Why a signer is not trusted, in words: which certificate, what is wrong with it and when, never
/// swift-certificates' `RFC5280Policy: Certificate Certificate(version: X509v3, serialNumber: …)` dump.
struct AppleTrustWordsTests {
    static let dumps = ["RFC5280Policy", "Certificate(", "serialNumber", "X509v3"]

    /// The DER of the pinned Apple Root CA (valid 2006-04-25 to 2035-02-09).
    static func appleRootCA() throws -> [UInt8] {
        let pinned = try #require(AppleRootCertificates.pinned.first { $0.name == "Apple Root CA" })
        return try #require(Data(base64Encoded: pinned.base64, options: .ignoreUnknownCharacters).map(Array.init))
    }

    static func date(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }

    static func reason(_ verdict: AppleTrust.Verdict) -> String {
        switch verdict {
        case .untrusted(let reason), .invalidChain(_, let reason): return reason
        case .expired(let expiry): return expiry.reason
        case .trusted:
            Issue.record("expected a verdict other than trusted, got \(verdict)")
            return ""
        }
    }

    @Test func anExpiredCertificateOnAChainToAnAppleRootIsSaidToHaveExpired() async throws {
        let verdict = await AppleTrust.evaluate(
            signer: try Self.appleRootCA(),
            intermediates: [],
            at: try Self.date("2040-01-01T00:00:00Z"),
            purpose: .content
        )
        guard case .expired = verdict else {
            Issue.record("expected expired, got \(verdict)")
            return
        }
        let reason = Self.reason(verdict)
        #expect(
            reason
                == "\"Apple Root CA\" expired on 2035-02-09T21:40:36Z; the chain was judged at the CMS signing time, "
                + "2040-01-01T00:00:00Z"
        )
        #expect(!reason.contains("no chain"), "\(reason)")
        for dump in Self.dumps { #expect(!reason.contains(dump), "\(reason)") }
    }

    @Test func aCertificateNotYetValidIsSaidToBeSo() async throws {
        let verdict = await AppleTrust.evaluate(
            signer: try Self.appleRootCA(),
            intermediates: [],
            at: try Self.date("2001-01-01T00:00:00Z"),
            purpose: .content
        )
        let reason = Self.reason(verdict)
        #expect(reason.hasPrefix("\"Apple Root CA\" was not valid until 2006-04-25T21:40:36Z;"), "\(reason)")
        for dump in Self.dumps { #expect(!reason.contains(dump), "\(reason)") }
    }

    @Test func aSignerFromAnotherCASaysNoChainLeadsToAnAppleRoot() async throws {
        let ca = try TestCA(commonName: "Elsewhere CA")
        let identity = try ca.issueServerCertificate(dnsNames: ["example.test"])
        let leaf = try Certificate(pemEncoded: identity.certificatePEM)
        var serializer = DER.Serializer()
        try serializer.serialize(leaf)
        let verdict = await AppleTrust.evaluate(
            signer: serializer.serializedBytes,
            intermediates: [],
            at: Date(),
            purpose: .content
        )
        #expect(Self.reason(verdict) == "no chain leads from it through Elsewhere CA to an Apple root")
    }

    @Test(arguments: [
        "RFC5280Policy: Certificate Certificate(version: X509v3, serialNumber: 19, …) has expired",
        "RFC5280Policy: CA Certificate(version: X509v3, …) has maximum path length 0, but chain has 1 subCAs",
        "RFC5280Policy: Unable to validate permitted subtree for [], no matches!",
        "version 1 certificate contains extensions but should not: Certificate(version: X509v1, …)",
        "RFC5280Policy: something new",
    ])
    func swiftCertificatesReasonsAreNeverDumped(reason: String) {
        let words = AppleTrust.words(forPolicyFailure: reason)
        for dump in Self.dumps { #expect(!words.contains(dump), "\(words)") }
        #expect(!words.isEmpty)
    }

    @Test func ownReasonsPassThrough() {
        let own = "the signer certificate's extended key usage does not allow code signing"
        #expect(AppleTrust.words(forPolicyFailure: own) == own)
    }
}
