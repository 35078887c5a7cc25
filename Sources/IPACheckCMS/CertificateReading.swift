import SwiftASN1
package import X509

/// The one way ipacheck reads a DER certificate: swift-certificates' parser, after the validity times are checked.
///
/// SwiftASN1 accepts a `UTCTime` with 61 seconds (`151209181061Z`), and swift-certificates then asserts when it turns
/// that time into a date (TimeCalculations.swift: seconds in 0..<61). A release build compiles the assertion out and
/// computes a date a second off, a debug build traps: found by the MachO fuzzer in a code signature's certificate.
/// A certificate whose validity holds a time outside what swift-certificates accepts is refused as unreadable.
package enum CertificateReading {
    /// The certificate in `der`, or nil when it is not one or its validity times are out of range.
    package static func certificate(der: [UInt8]) -> Certificate? {
        guard validityTimesAreInRange(der) else { return nil }
        return try? Certificate(derEncoded: der)
    }

    /// Whether both times of `Certificate.tbsCertificate.validity` lie in the ranges swift-certificates asserts;
    /// false too when the structure cannot be walked (the parser would refuse it anyway).
    static func validityTimesAreInRange(_ der: [UInt8]) -> Bool {
        guard let root = try? DER.parse(der), case .constructed(let certificate) = root.content,
            let tbs = certificate.first(where: { _ in true }), case .constructed(let fields) = tbs.content
        else { return false }
        // TBSCertificate ::= SEQUENCE { [0] version OPTIONAL, serialNumber, signature, issuer, validity, ... }
        var rest = Array(fields.prefix(6))
        if rest.first?.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            rest.removeFirst()
        }
        guard rest.count >= 4, case .constructed(let times) = rest[3].content else { return false }
        let both = Array(times.prefix(3))
        return both.count == 2 && both.allSatisfy(timeIsInRange)
    }

    private static func timeIsInRange(_ node: ASN1Node) -> Bool {
        let parts: (month: Int, day: Int, hours: Int, minutes: Int, seconds: Int)
        if node.identifier == .utcTime, let time = try? UTCTime(derEncoded: node) {
            parts = (time.month, time.day, time.hours, time.minutes, time.seconds)
        } else if node.identifier == .generalizedTime, let time = try? GeneralizedTime(derEncoded: node) {
            parts = (time.month, time.day, time.hours, time.minutes, time.seconds)
        } else {
            return false
        }
        return (1...12).contains(parts.month) && (0...31).contains(parts.day) && (0..<24).contains(parts.hours)
            && (0..<60).contains(parts.minutes) && (0..<61).contains(parts.seconds)
    }
}
