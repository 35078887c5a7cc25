import Foundation
import IPACheckCMS
import IPACheckTestSupport
import SwiftASN1
import Testing
import X509

/// A certificate whose validity holds a time swift-certificates cannot turn into a date (61 seconds, which
/// SwiftASN1 accepts) made a debug build trap (found by the MachO fuzzer); it is refused as unreadable instead.
struct CertificateReadingTests {
    /// The DER of a fresh test certificate, with the seconds of its notBefore `UTCTime` replaced.
    static func der(notBeforeSeconds seconds: String) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(try TestCA().certificate)
        var der = serializer.serializedBytes
        // UTCTime: tag 0x17, length 13, YYMMDDhhmmssZ; the first one is notBefore.
        guard let tag = der.indices.first(where: { der[$0] == 0x17 && der[$0 + 1] == 13 }) else {
            Issue.record("no UTCTime in the test certificate")
            return der
        }
        der.replaceSubrange((tag + 12)..<(tag + 14), with: Array(seconds.utf8))
        return der
    }

    @Test func readsAnOrdinaryCertificate() throws {
        let der = try Self.der(notBeforeSeconds: "59")
        #expect(CertificateReading.certificate(der: der) != nil)
        #expect(CertificateSummary(der: der) != nil)
    }

    @Test func refusesSixtyOneSeconds() throws {
        let der = try Self.der(notBeforeSeconds: "61")
        // swift-certificates' parser takes it (reading its notValidBefore is what traps in a debug build).
        #expect((try? Certificate(derEncoded: der)) != nil)
        #expect(CertificateReading.certificate(der: der) == nil)
        #expect(CertificateSummary(der: der) == nil)
    }
}
