import Foundation
import IPACheckCMS
import IPACheckTestSupport
import SwiftASN1
import Testing

/// Hostile and damaged input: every failure is a ``CMSError`` with a code, never a crash, a trap or a hang.
struct CMSRobustnessTests {
    private func error(_ bytes: [UInt8]) -> CMSError? {
        do {
            _ = try CMSSignedData.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// X.690 encodings written out by hand.
    private static let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    private static let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]

    @Test("every truncation of a signed message is an error")
    func truncation() throws {
        let bytes = try ProfileBuilder(payload: ProfileBuilder.payload()).build()
        for length in 0..<bytes.count {
            #expect(throws: CMSError.self) { try CMSSignedData.parse(Array(bytes.prefix(length))) }
        }
    }

    @Test("flipping bytes never crashes the reader or the verifier")
    func bitFlips() throws {
        let bytes = try ProfileBuilder(payload: ProfileBuilder.payload()).build()
        var parsed = 0
        for index in stride(from: 0, to: bytes.count, by: 2) {
            var damaged = bytes
            damaged[index] ^= 0xA5
            guard let message = try? CMSSignedData.parse(damaged) else { continue }
            parsed += 1
            for signer in message.signers {
                let result = message.verify(signer: signer)
                #expect(result.chain.count <= message.certificates.count)
            }
        }
        #expect(parsed > 0)  // flips inside the content, certificates and signature still parse
    }

    @Test(
        "garbage is malformed",
        arguments: [
            [], [0x00], [0x30], [0x30, 0x80], [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF, 0x06], [0x30, 0x85, 1, 2, 3, 4, 5],
            [0x30, 0x80, 0x30, 0x80, 0x30, 0x80], [0x04, 0x03, 0x41, 0x42, 0x43], [0x30, 0x00], [0x30, 0x00, 0x00],
        ] as [[UInt8]]
    )
    func garbage(bytes: [UInt8]) {
        #expect(error(bytes)?.code == .malformed)
    }

    @Test("random bytes after a SEQUENCE tag never crash the reader")
    func randomBytes() {
        // A fixed linear congruential generator (Knuth's MMIX constants), so failures reproduce.
        var state: UInt64 = 0x00C0_FFEE
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for _ in 0..<500 {
            let bytes = (0..<(Int(next()) + 1)).map { _ in next() }
            if let error = error([0x30] + bytes) { #expect(!error.description.isEmpty) }
        }
    }

    @Test("a ContentInfo holding id-data is notSignedData")
    func notSignedData() {
        let blob: [UInt8] = [0x30, 0x80] + Self.dataOID + [0xA0, 0x80, 0x04, 0x01, 0x41, 0, 0] + [0, 0]
        #expect(error(blob)?.code == .notSignedData)
    }

    @Test("more than the size cap is tooLarge, before any parsing")
    func tooLarge() {
        #expect(error([UInt8](repeating: 0x30, count: CMSSignedData.maximumSize + 1))?.code == .tooLarge)
    }

    @Test("more certificates than the cap is tooManyElements")
    func tooManyCertificates() throws {
        // Certificates [0] with maximumElements + 1 empty SEQUENCEs (30 00).
        let certificates = [UInt8](repeating: 0, count: (CMSSignedData.maximumElements + 1) * 2).enumerated().map {
            $0.offset.isMultiple(of: 2) ? UInt8(0x30) : UInt8(0x00)
        }
        let encapsulated: [UInt8] = [0x30, 0x80] + Self.dataOID + [0, 0]
        let signedData: [UInt8] =
            [0x30, 0x80, 0x02, 0x01, 0x01, 0x31, 0x00] + encapsulated + [0xA0, 0x80] + certificates + [0, 0]
            + [0x31, 0x00, 0, 0]
        let blob: [UInt8] = [0x30, 0x80] + Self.signedDataOID + [0xA0, 0x80] + signedData + [0, 0] + [0, 0]
        #expect(error(blob)?.code == .tooManyElements)
    }

    @Test("deep nesting is refused")
    func deepNesting() {
        let depth = 10_000
        let blob = (0..<depth).flatMap { _ in [UInt8(0x30), 0x80] } + [UInt8](repeating: 0, count: depth * 2)
        #expect(error(blob)?.code == .malformed)
    }

    @Test("BER: indefinite lengths and a constructed eContent OCTET STRING are joined; no signers is allowed")
    func berAttachedContent() throws {
        // X.690 §8.1.3.6 (indefinite length) and §8.7.3 (constructed OCTET STRING); RFC 5652 would require
        // signerInfos, which iOS 8 AASA extraction never needed.
        let text = Array("hello, constructed world".utf8)
        let octets: [UInt8] =
            [0x24, 0x80, 0x04, 0x05] + text[..<5] + [0x24, 0x80, 0x04, UInt8(text.count - 5)] + text[5...] + [
                0, 0, 0, 0,
            ]
        let encapsulated: [UInt8] = [0x30, 0x80] + Self.dataOID + [0xA0, 0x80] + octets + [0, 0] + [0, 0]
        let signedData: [UInt8] = [0x30, 0x80, 0x02, 0x01, 0x01, 0x31, 0x00] + encapsulated + [0, 0]
        let blob: [UInt8] = [0x30, 0x80] + Self.signedDataOID + [0xA0, 0x80] + signedData + [0, 0] + [0, 0]
        let message = try CMSSignedData.parse(blob)
        #expect(message.content == text)
        #expect(message.signers.isEmpty)
        #expect(message.certificates.isEmpty)
    }

    @Test("errors compare by code and describe where")
    func errorValues() {
        let error = CMSError(.malformed, "SignedData.signerInfos", "has 0 elements")
        #expect(error == CMSError(.malformed, "", ""))
        #expect(error != CMSError(.tooLarge, "", ""))
        #expect(error.description == "SignedData.signerInfos: has 0 elements")
    }
}

/// Real messages from the corpus; expected values from `openssl cms -cmsout -print`, `openssl pkcs7 -print_certs`
/// and `openssl cms -verify -noverify` run on the same files.
@Suite("CMS messages from the corpus", .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct CMSCorpusTests {
    @Test("a BER (indefinite-length) profile: 4894-byte content, one self-signed TestFixture certificate, SHA-1")
    func berProfile() throws {
        let message = try CMSSignedData.parse(
            Corpus.bytes("mobileprovision/fastlane_very-capable-app_embedded.mobileprovision")
        )
        #expect(message.content?.count == 4894)
        #expect(message.certificates.count == 1)
        let signer = try #require(message.signers.first)
        // Apple-style: signatureAlgorithm is plain rsaEncryption, the digest comes from digestAlgorithm.
        #expect(signer.signatureAlgorithm == [1, 2, 840, 113_549, 1, 1, 1])
        let result = message.verify(signer: signer, now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(result.verdict == .valid)
        #expect(result.digestAlgorithm == .sha1)
        #expect(result.signer?.subjectCommonName == "TestFixture")
        #expect(result.chainEndsAtSelfSignedRoot)
        #expect(result.signer?.notValidAfter == ISO8601DateFormatter().date(from: "2028-04-04T01:11:26Z"))
    }

    @Test("the tampered fastlane profile fails on its content digest (openssl: content verify error)")
    func tamperedProfile() throws {
        let message = try CMSSignedData.parse(Corpus.bytes("mobileprovision/fastlane_match_test.provisionprofile"))
        let result = message.verify(signer: try #require(message.signers.first))
        #expect(result.verdict == .contentDigestMismatch)
    }

    @Test("signed AASA files: payload and certificates (openssl asn1parse: 9977 and 5366 bytes, 2 certificates)")
    func signedAASA() throws {
        let facebook = try CMSSignedData.parse(Corpus.bytes("aasa/knil_Facebook-signed-AASA.p7"))
        #expect(facebook.content?.count == 9977)
        #expect(facebook.certificates.count == 2)
        let twitter = try CMSSignedData.parse(Corpus.bytes("aasa/knil_Twitter-signed-AASA.p7"))
        #expect(twitter.content?.count == 5366)
    }
}
