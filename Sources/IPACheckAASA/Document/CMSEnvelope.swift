import IPACheckCMS

/// The content of an iOS 8-era signed AASA file: CMS (PKCS#7) SignedData with the JSON embedded.
///
/// Only the structure is read, by ``CMSSignedData/parse(_:)``; the signature is NOT verified. Callers that want
/// the signer certificate's expiry parse ``certificates`` with swift-certificates.
public struct AASASignedEnvelope: Sendable, Hashable {
    /// The embedded JSON bytes (eContent, with constructed OCTET STRING chunks joined).
    public var payload: [UInt8]
    /// The DER encoding of each certificate in SignedData's `certificates` field, in file order.
    public var certificates: [[UInt8]]

    /// Whether `bytes` starts the way a DER/BER ContentInfo does (SEQUENCE with a long or indefinite length).
    ///
    /// A JSON document never starts with 0x30 0x8x, so this cannot misfire on text.
    public static func looksSigned(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x30 && bytes[1] >= 0x80
    }

    /// Extracts the payload of a CMS SignedData blob.
    ///
    /// - Throws: ``AASAParseError/Code/malformedCMS`` when the blob is not readable SignedData or carries no
    ///   content (a detached signature).
    public static func extract(from bytes: [UInt8]) throws(AASAParseError) -> AASASignedEnvelope {
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
        return AASASignedEnvelope(payload: payload, certificates: message.certificates)
    }
}
