import Foundation
package import IPACheckAASA
import IPACheckCMS
package import IPACheckReport

/// The AASA family's judgement of how a file was written (its encoding, size and signing) and of a file that could
/// not be read at all: the facts ``AASADocument/parse(_:now:)`` keeps, as findings.
package enum AASAFileReading {
    /// What a readable file's writing says: a signed file's signer (and a broken signature or an expired
    /// certificate), a byte order mark, a file over Apple's 128 KB, each repeated key.
    package static func findings(of document: AASADocument) -> [Finding] {
        var findings = document.signedEnvelope.map(signingFindings) ?? []
        if document.encoding.startsWithByteOrderMark {
            findings.append(
                AASARules.document.byteOrderMark.finding("the JSON starts with a UTF-8 byte order mark (EF BB BF)")
            )
        }
        let limit = AASADocument.Limits.appleByteLimit
        if document.byteCount > limit {
            findings.append(
                AASARules.document.overSizeLimit.finding(
                    "the file has \(document.byteCount) bytes, over Apple's limit of \(limit) bytes (128 KB)"
                )
            )
        }
        for duplicate in document.encoding.duplicateKeys {
            findings.append(
                AASARules.document.duplicateKey.finding(
                    "key \"\(duplicate.key)\" appears more than once in \(duplicate.objectPath); "
                        + "only the last value is used",
                    location: "\(duplicate.objectPath) (\(duplicate.position))"
                )
            )
        }
        return findings
    }

    /// What a signed file's envelope says: always the obsolete-signing warning naming the signer and its expiry,
    /// and an error when the signature fails or the signing certificate has expired.
    private static func signingFindings(_ envelope: AASASignedEnvelope) -> [Finding] {
        guard let verification = envelope.verification else {
            return [
                AASARules.document.signedFile.finding(
                    "the file is CMS-signed (iOS 8 style) but names no signer; the JSON payload was read"
                )
            ]
        }
        let signer = verification.signer
        let name = signer?.subjectCommonName ?? signer?.subject ?? "an unknown certificate"
        let expiry = signer.map { " (valid until \(day($0.notValidAfter)))" } ?? ""
        var findings = [
            AASARules.document.signedFile.finding(
                "the file is CMS-signed (iOS 8 style) by \(name)\(expiry); the \(envelope.payload.count)-byte JSON "
                    + "payload was read"
            )
        ]
        if !verification.signatureVerifies || verification.messageDigestMatches == false {
            findings.append(
                AASARules.document.brokenSignature.finding("the CMS signature over the file does not verify (\(name))")
            )
        } else if verification.signerValidAtNow == false, let signer {
            findings.append(
                AASARules.document.brokenSignature.finding(
                    "the signing certificate \(name) expired on \(day(signer.notValidAfter))"
                )
            )
        }
        return findings
    }

    private static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}

extension AASAParseError {
    /// The rule this failure reports under.
    package var rule: Rule {
        switch code {
        case .empty: AASARules.rules.emptyFile
        case .invalidUTF8: AASARules.rules.invalidUTF8
        case .invalidJSON: AASARules.rules.invalidJSON
        case .rootNotObject: AASARules.rules.rootNotObject
        case .tooDeep: AASARules.rules.tooDeep
        case .tooLarge: AASARules.rules.tooLarge
        case .malformedCMS: AASARules.rules.malformedCMS
        }
    }

    /// This failure as a finding, for reports that list it beside other problems.
    package func finding(domain: String? = nil) -> Finding {
        rule.finding(description, domain: domain, location: position.map { "\($0)" })
    }
}
