package import Foundation
package import IPACheckBinary
package import IPACheckCMS
import IPACheckPlist
import SwiftASN1

/// The outcome of checking a code signature's CMS message (the `0xfade0b01` blob) against its CodeDirectories.
///
/// The message is a detached ``CMSSignedData`` whose content is the primary CodeDirectory;
/// ``CMSSignedData/verify(signer:content:now:)`` checks the mathematics. On top of it come Apple's
/// CodeDirectory-hash attributes, which bind the other CodeDirectories: `1.2.840.113635.100.9.1`, a property
/// list whose `cdhashes` are truncated to 20 bytes, and `1.2.840.113635.100.9.2`,
/// `SEQUENCE { digestAlgorithm OBJECT IDENTIFIER, hash OCTET STRING }` per directory.
/// Trust in the chain is not judged here: ``SignerIdentity`` carries what the trust rules need.
package struct CMSSignatureCheck: Hashable, Sendable {
    /// The signer's certificate, if the message carries it.
    package let signer: CertificateSummary?
    /// The chain from the signer up, as far as the message's certificates reach (signer first), each link's
    /// signature checked.
    package let chain: [CertificateSummary]
    /// The signer, for trust evaluation (``SignerIdentity/evaluateTrust(now:)``), which is not judged here.
    package let identity: SignerIdentity?
    /// The signing time attribute, if present.
    package let signingTime: Date?
    /// The digest algorithm of the signer (`sha256`), or its OID when not supported.
    package let digestAlgorithm: String
    /// Whether the signer's signature over the signed attributes verifies with the certificate's public key.
    package let signatureVerifies: Bool
    /// Whether the `messageDigest` attribute equals the digest of the primary CodeDirectory.
    package let messageDigestMatches: Bool
    /// Whether Apple's CodeDirectory-hash attributes (1.2.840.113635.100.9.1 plist, .9.2 DER) list exactly the
    /// signature's cdhashes; `nil` when neither attribute is present.
    package let codeDirectoryHashesMatch: Bool?

    /// Whether the CMS message proves the CodeDirectories unchanged since signing.
    package var isValid: Bool { signatureVerifies && messageDigestMatches && codeDirectoryHashesMatch != false }

    /// Checks `cms` (the DER of the blob's payload) against the signature's CodeDirectories (primary first).
    ///
    /// - Throws: ``CodeSignatureError`` when the message is not a CMS `SignedData` we can read, or its signer has
    ///   no signed attributes (code signatures always have them).
    package static func check(
        cms: some Collection<UInt8>,
        codeDirectories: [CodeDirectory]
    ) throws(CodeSignatureError)
        -> CMSSignatureCheck
    {
        let message: CMSSignedData
        do {
            message = try CMSSignedData.parse(Array(cms))
        } catch {
            throw CodeSignatureError("CMS signature", error.description)
        }
        guard let signerInfo = message.signers.first else { throw CodeSignatureError("CMS signature", "no SignerInfo") }
        guard let attributes = signerInfo.signedAttributes else {
            throw CodeSignatureError("CMS signature", "no signed attributes (code signatures always have them)")
        }
        let primary = codeDirectories.first
        let verification = message.verify(signer: signerInfo, content: primary.map(\.bytes) ?? [])
        return CMSSignatureCheck(
            signer: verification.signer,
            chain: verification.chain,
            identity: SignerIdentity(verification, signingTime: attributes.signingTime, purpose: .codeSigning),
            signingTime: attributes.signingTime,
            digestAlgorithm: verification.digestAlgorithm?.rawValue ?? signerInfo.digestAlgorithm.description,
            signatureVerifies: verification.signatureVerifies,
            messageDigestMatches: primary != nil && verification.messageDigestMatches == true,
            codeDirectoryHashesMatch: try codeDirectoryHashesMatch(attributes, codeDirectories: codeDirectories)
        )
    }

    /// Compares Apple's cdhash attributes with the CodeDirectories; `nil` when neither attribute is present.
    private static func codeDirectoryHashesMatch(
        _ attributes: CMSSignedAttributes,
        codeDirectories: [CodeDirectory]
    ) throws(CodeSignatureError) -> Bool? {
        let listed: AppleCodeDirectoryHashes
        do {
            listed = try AppleCodeDirectoryHashes(attributes)
        } catch {
            throw CodeSignatureError("CMS signature", error.description)
        }
        var hashesMatch: Bool?
        // An unreadable property list counts as absent, as codesign's own reader treats it.
        if let plist = listed.propertyList,
            let hashes = try? PlistParser.parse(plist)["cdhashes"]?.arrayValue?.compactMap(\.dataValue)
        {
            let expected = codeDirectories.compactMap { directory in
                directory.hashType.map { Array(CodeHash.digest($0, directory.bytes).prefix(20)) }
            }
            hashesMatch = hashes == expected
        }
        if let digests = listed.digests {
            let matches =
                digests.count == codeDirectories.count
                && digests.allSatisfy { digest, hash in
                    codeDirectories.contains { directory in digest?.hash(directory.bytes) == hash }
                }
            hashesMatch = (hashesMatch ?? true) && matches
        }
        return hashesMatch
    }
}
