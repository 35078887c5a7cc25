package import Foundation
package import IPACheckCMS

/// The content of an iOS 8-era signed AASA file: CMS (PKCS#7) SignedData with the JSON embedded.
///
/// Read by ``CMSSignedData/parse(_:)``, and its first signer verified (signature, message digest, certificate
/// validity at `now`): QA1916 lists an expired signing certificate among the causes of broken universal links.
package struct AASASignedEnvelope: Sendable, Hashable {
    /// The embedded JSON bytes (eContent, with constructed OCTET STRING chunks joined).
    package var payload: [UInt8]
    /// The DER encoding of each certificate in SignedData's `certificates` field, in file order.
    package var certificates: [[UInt8]]
    /// The first signer's verification, or nil when the file names no signer.
    package var verification: CMSSignerVerification?

    /// Whether `bytes` starts the way a DER/BER ContentInfo does (SEQUENCE with a long or indefinite length).
    ///
    /// A JSON document never starts with 0x30 0x8x, so this cannot misfire on text.
    package static func looksSigned(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x30 && bytes[1] >= 0x80
    }

    /// Extracts the payload of a CMS SignedData blob.
    ///
    /// - Throws: ``AASAParseError/Code/malformedCMS`` when the blob is not readable SignedData or carries no
    ///   content (a detached signature).
    package static func extract(from bytes: [UInt8], now: Date = Date()) throws(AASAParseError) -> AASASignedEnvelope {
        let message: CMSSignedData
        do {
            message = try CMSSignedData.parse(bytes)
        } catch {
            throw AASAParseError(.malformedCMS, "malformed CMS: \(error)")
        }
        guard let payload = message.content else {
            throw AASAParseError(
                .malformedCMS,
                "malformed CMS: the signature is detached: SignedData carries no content"
            )
        }
        return AASASignedEnvelope(
            payload: payload,
            certificates: message.certificates,
            verification: message.signers.first.map { message.verify(signer: $0, now: now) }
        )
    }
}
