import SwiftASN1

/// The code directory hashes Apple's code-signing CMS lists among its signed attributes, decoded from ASN.1.
///
/// codesign writes two attributes: `1.2.840.113635.100.9.1` holds a property list
/// `{cdhashes = [<data>, …]}` (truncated to 20 bytes), `1.2.840.113635.100.9.2` one `SEQUENCE { digestAlgorithm,
/// OCTET STRING }` per code directory. Comparing them with the code directories is the signature check's job.
package struct AppleCodeDirectoryHashes: Sendable {
    /// The property list of the first attribute, as bytes; nil when it is absent or not a primitive value.
    package let propertyList: [UInt8]?
    /// The entries of the second attribute (the digest algorithm, nil when unknown, and the hash); nil when absent.
    package let digests: [(algorithm: CMSDigestAlgorithm?, hash: [UInt8])]?

    static let propertyListOID: ASN1ObjectIdentifier = "1.2.840.113635.100.9.1"
    static let digestsOID: ASN1ObjectIdentifier = "1.2.840.113635.100.9.2"

    /// Reads both attributes from `attributes`.
    ///
    /// - Throws: ``CMSError`` when the second attribute's values are not `SEQUENCE`s or name no valid algorithm.
    package init(_ attributes: CMSSignedAttributes) throws(CMSError) {
        let name = "CDHashes2 attribute"
        if let value = attributes.values(of: Self.propertyListOID)?.first, case .primitive(let plist) = value.content {
            propertyList = Array(plist)
        } else {
            propertyList = nil
        }
        guard let values = attributes.values(of: Self.digestsOID) else {
            digests = nil
            return
        }
        var entries: [(algorithm: CMSDigestAlgorithm?, hash: [UInt8])] = []
        for value in values {
            guard case .constructed(let nodes) = value.content else {
                throw CMSError(.malformed, name, "its value is not constructed")
            }
            let pair = Array(nodes)
            guard pair.count == 2, case .primitive(let hash) = pair[1].content else { continue }
            let oid = try ASN1Reading.objectIdentifier(pair[0], named: name)
            entries.append((CMSDigestAlgorithm(oid: oid), Array(hash)))
        }
        digests = entries
    }
}
