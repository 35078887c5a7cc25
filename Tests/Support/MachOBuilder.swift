import Crypto
import Foundation
import SwiftASN1
import X509

/// Builds Mach-O slices and universal binaries for tests, with an optional real code signature.
package enum MachOBuilder {
    /// What to put in a slice's signature.
    package struct Signing {
        /// CodeDirectory hash types, primary first (1 SHA-1, 2 SHA-256); more make alternates at 0x1000...
        package var hashTypes: [UInt8] = [2]
        /// CodeDirectory version.
        package var version: UInt32 = 0x20400
        /// CodeDirectory flags (0x2 = ad hoc).
        package var flags: UInt32 = 0x2
        /// XML entitlements plist bytes.
        package var xmlEntitlements: [UInt8]?
        /// DER entitlements bytes.
        package var derEntitlements: [UInt8]?
        /// Info.plist bytes sealed in slot −1.
        package var infoPlist: [UInt8]?
        /// CodeResources bytes sealed in slot −3.
        package var codeResources: [UInt8]?
        /// The CMS payload; `[]` = empty wrapper (ad hoc), `nil` = no signature slot.
        package var cms: [UInt8]? = []
        /// log2 of the CodeDirectory's page size (12: the 4096-byte pages every iOS signature uses).
        package var pageSizeLog2: UInt8 = 12

        package init() {}
    }

    /// Appends a 32-bit value in the slice's byte order.
    static func u32(_ value: UInt32, bigEndian: Bool) -> [UInt8] {
        let be = SuperBlobBuilder.be32(value)
        return bigEndian ? be : be.reversed()
    }

    /// A Mach-O slice: header, `LC_ENCRYPTION_INFO(_64)` if `cryptID` is set (`cryptoff` `cryptOffset`,
    /// `cryptsize` `cryptSize`), `LC_CODE_SIGNATURE` if `signing` is set, `bodySize` bytes of pseudo-code, then the
    /// signature.
    package static func slice(
        cpuType: UInt32 = 0x0100_000c,
        cpuSubtype: UInt32 = 0,
        is64Bit: Bool = true,
        bigEndian: Bool = false,
        fileType: UInt32 = 2,
        bodySize: Int = 10_000,
        cryptID: UInt32? = nil,
        cryptOffset: UInt32 = 0x4000,
        cryptSize: UInt32 = 0x1000,
        signing: Signing? = nil
    ) -> [UInt8] {
        layout(
            cpuType: cpuType,
            cpuSubtype: cpuSubtype,
            is64Bit: is64Bit,
            bigEndian: bigEndian,
            fileType: fileType,
            bodySize: bodySize,
            cryptID: cryptID,
            cryptOffset: cryptOffset,
            cryptSize: cryptSize,
            signed: signing != nil
        ) { code in
            signing.map { signature(code: code, signing: $0) } ?? []
        }
    }

    /// Lays out a slice around a signature `sign(code)` makes; its size must not depend on the hashes.
    private static func layout(
        cpuType: UInt32,
        cpuSubtype: UInt32,
        is64Bit: Bool,
        bigEndian: Bool,
        fileType: UInt32,
        bodySize: Int,
        cryptID: UInt32?,
        cryptOffset: UInt32,
        cryptSize: UInt32,
        signed: Bool,
        sign: (ArraySlice<UInt8>) throws -> [UInt8]
    ) rethrows -> [UInt8] {
        let signing: Bool? = signed ? true : nil
        let headerSize = is64Bit ? 32 : 28
        var commands: [[UInt8]] = []
        if let cryptID {
            let type: UInt32 = is64Bit ? 0x2c : 0x21
            var command = u32(type, bigEndian: bigEndian) + u32(is64Bit ? 24 : 20, bigEndian: bigEndian)
            command += u32(cryptOffset, bigEndian: bigEndian) + u32(cryptSize, bigEndian: bigEndian)
            command += u32(cryptID, bigEndian: bigEndian)
            if is64Bit { command += u32(0, bigEndian: bigEndian) }
            commands.append(command)
        }
        let commandsSize = commands.reduce(0) { $0 + $1.count } + (signing == nil ? 0 : 16)
        let codeLimit = (headerSize + commandsSize + bodySize + 15) / 16 * 16
        func build(signatureSize: Int) -> [UInt8] {
            let count = UInt32(commands.count + (signing == nil ? 0 : 1))
            var out = SuperBlobBuilder.be32(is64Bit ? 0xfeed_facf : 0xfeed_face)
            if !bigEndian { out.reverse() }
            out += u32(cpuType, bigEndian: bigEndian) + u32(cpuSubtype, bigEndian: bigEndian)
            out += u32(fileType, bigEndian: bigEndian) + u32(count, bigEndian: bigEndian)
            out += u32(UInt32(commandsSize), bigEndian: bigEndian) + u32(0x0020_0085, bigEndian: bigEndian)
            if is64Bit { out += u32(0, bigEndian: bigEndian) }
            for command in commands { out += command }
            if signing != nil {
                out += u32(0x1d, bigEndian: bigEndian) + u32(16, bigEndian: bigEndian)
                out += u32(UInt32(codeLimit), bigEndian: bigEndian) + u32(UInt32(signatureSize), bigEndian: bigEndian)
            }
            var filler: UInt8 = 0x5a
            while out.count < codeLimit {
                out.append(filler)
                filler = filler &* 31 &+ 7
            }
            return out
        }
        guard signing != nil else { return build(signatureSize: 0) }
        // The signature's size does not depend on the hashes, so size it with a first pass over dummy code.
        let firstPass = try sign(build(signatureSize: 0)[...])
        let code = build(signatureSize: firstPass.count)
        return code + (try sign(code[...]))
    }

    /// The certificate subject Apple signs App Store deliveries with (its names only: the key and issuer here are
    /// generated at test time and chain to no Apple root).
    package static let appStoreSignerName = "Apple iPhone OS Application Signing"

    /// An app executable as the App Store delivers it, generated: one arm64 slice whose `LC_ENCRYPTION_INFO_64`
    /// says `cryptID` (1: FairPlay-encrypted) over `cryptOffset..<cryptOffset + cryptSize`, signed with an
    /// identity (flags 0, SHA-256 CodeDirectory hashing the pages as they lie in the file, the "encrypted" bytes
    /// included) and a detached CMS message over the CodeDirectory by a leaf named ``appStoreSignerName``
    /// (`OU=Apple iPhone, O=Apple Inc., C=US`) under a throwaway root.
    ///
    /// The bytes in the encrypted range are the builder's pseudo-code standing for ciphertext: FairPlay cannot be
    /// reproduced, and what matters to a verifier is that the hashes are of the bytes as delivered.
    package static func appStoreExecutable(
        bodySize: Int = 40_000,
        cryptID: UInt32 = 1,
        cryptOffset: UInt32 = 0x4000,
        cryptSize: UInt32 = 0x4000,
        signerName: String = appStoreSignerName,
        infoPlist: [UInt8]? = nil,
        codeResources: [UInt8]? = nil
    ) throws -> [UInt8] {
        var signing = Signing()
        signing.flags = 0
        signing.infoPlist = infoPlist
        signing.codeResources = codeResources
        // Room for the message; the SuperBlob is zero-padded to this size, as codesign pads LC_CODE_SIGNATURE.
        signing.cms = [UInt8](repeating: 0, count: 4096)
        return try layout(
            cpuType: 0x0100_000c,
            cpuSubtype: 0,
            is64Bit: true,
            bigEndian: false,
            fileType: 2,
            bodySize: bodySize,
            cryptID: cryptID,
            cryptOffset: cryptOffset,
            cryptSize: cryptSize,
            signed: true
        ) { code in
            let reserved = signature(code: code, signing: signing).count
            var blobs = signatureBlobs(code: code, signing: signing)
            let directory: [UInt8] = blobs.first(where: { $0.slot == 0 }).map(\.blob) ?? []
            let message = try detachedCMS(over: directory, signerName: signerName)
            blobs = blobs.map {
                $0.slot == 0x10000 ? ($0.slot, SuperBlobBuilder.blob(magic: 0xfade_0b01, payload: message)) : $0
            }
            let superBlob = SuperBlobBuilder.superBlob(blobs)
            // The message is about 1 KB; the room is 4 KB.
            guard superBlob.count <= reserved else { throw CocoaError(.coderInvalidValue) }
            return superBlob + [UInt8](repeating: 0, count: reserved - superBlob.count)
        }
    }

    /// A detached CMS `SignedData` over `content` (signed attributes contentType, signingTime, messageDigest;
    /// SHA-256 with ECDSA P-256), its signer a fresh leaf named `CN=signerName, OU=Apple iPhone, O=Apple Inc.,
    /// C=US` under a fresh root; both certificates are carried, valid 2023-11 to 2033-05.
    package static func detachedCMS(over content: [UInt8], signerName: String) throws -> [UInt8] {
        let rootKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let validFrom = Date(timeIntervalSince1970: 1_700_000_000)
        let validUntil = Date(timeIntervalSince1970: 2_000_000_000)
        let rootName = try DistinguishedName { CommonName("ipacheck Test Root (not Apple)") }
        let leafName = try DistinguishedName {
            CountryName("US")
            OrganizationName("Apple Inc.")
            OrganizationalUnitName("Apple iPhone")
            CommonName(signerName)
        }
        let root = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(rootKey.publicKey),
            notValidBefore: validFrom,
            notValidAfter: validUntil,
            issuer: rootName,
            subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            },
            issuerPrivateKey: Certificate.PrivateKey(rootKey)
        )
        let leaf = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(leafKey.publicKey),
            notValidBefore: validFrom,
            notValidAfter: validUntil,
            issuer: rootName,
            subject: leafName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { try ExtendedKeyUsage([.codeSigning]) },
            issuerPrivateKey: Certificate.PrivateKey(rootKey)
        )
        func attribute(
            _ type: ASN1ObjectIdentifier,
            _ set: inout DER.Serializer,
            _ value: (inout DER.Serializer) throws -> Void
        ) throws {
            try set.appendConstructedNode(identifier: .sequence) { attribute in
                try attribute.serialize(type)
                try attribute.appendConstructedNode(identifier: .set, value)
            }
        }
        func algorithm(_ oid: ASN1ObjectIdentifier, _ serializer: inout DER.Serializer) throws {
            try serializer.appendConstructedNode(identifier: .sequence) { try $0.serialize(oid) }
        }
        let dataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]
        let sha256OID: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
        var attributes = DER.Serializer()
        try attributes.appendConstructedNode(identifier: .set) { set in
            try attribute([1, 2, 840, 113_549, 1, 9, 3], &set) { try $0.serialize(dataOID) }
            try attribute([1, 2, 840, 113_549, 1, 9, 5], &set) {
                try $0.serialize(try UTCTime(year: 2024, month: 1, day: 2, hours: 3, minutes: 4, seconds: 5))
            }
            try attribute([1, 2, 840, 113_549, 1, 9, 4], &set) {
                try $0.serialize(ASN1OctetString(contentBytes: ArraySlice(SHA256.hash(data: content))))
            }
        }
        let signedAttributes = attributes.serializedBytes
        let signatureValue = Array(try leafKey.signature(for: signedAttributes).derRepresentation)
        let context0 = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)
        var out = DER.Serializer()
        try out.appendConstructedNode(identifier: .sequence) { contentInfo in
            try contentInfo.serialize([1, 2, 840, 113_549, 1, 7, 2] as ASN1ObjectIdentifier)
            try contentInfo.appendConstructedNode(identifier: context0) { explicit in
                try explicit.appendConstructedNode(identifier: .sequence) { signedData in
                    try signedData.serialize(1)
                    try signedData.appendConstructedNode(identifier: .set) { try algorithm(sha256OID, &$0) }
                    try signedData.appendConstructedNode(identifier: .sequence) { try $0.serialize(dataOID) }
                    try signedData.appendConstructedNode(identifier: context0) { certificates in
                        try certificates.serialize(leaf)
                        try certificates.serialize(root)
                    }
                    try signedData.appendConstructedNode(identifier: .set) { signers in
                        try signers.appendConstructedNode(identifier: .sequence) { signer in
                            try signer.serialize(1)
                            try signer.appendConstructedNode(identifier: .sequence) { sid in
                                try sid.serialize(leaf.issuer)
                                try sid.serialize(leaf.serialNumber.bytes)
                            }
                            try algorithm(sha256OID, &signer)
                            var implicit = signedAttributes
                            implicit[0] = 0xa0  // [0] IMPLICIT, constructed
                            signer.serializeRawBytes(implicit)
                            try algorithm([1, 2, 840, 10045, 4, 3, 2], &signer)
                            try signer.serialize(ASN1OctetString(contentBytes: ArraySlice(signatureValue)))
                        }
                    }
                }
            }
        }
        return out.serializedBytes
    }

    /// The SuperBlob for `code` (the slice up to the signature).
    package static func signature(code: ArraySlice<UInt8>, signing: Signing) -> [UInt8] {
        SuperBlobBuilder.superBlob(signatureBlobs(code: code, signing: signing))
    }

    /// The SuperBlob's entries for `code` (the slice up to the signature), in SuperBlob order.
    package static func signatureBlobs(code: ArraySlice<UInt8>, signing: Signing) -> [(slot: UInt32, blob: [UInt8])] {
        var blobs: [(slot: UInt32, blob: [UInt8])] = []
        let requirements = SuperBlobBuilder.blob(magic: 0xfade_0c01, payload: SuperBlobBuilder.be32(0))
        let xml = signing.xmlEntitlements.map { SuperBlobBuilder.blob(magic: 0xfade_7171, payload: $0) }
        let der = signing.derEntitlements.map { SuperBlobBuilder.blob(magic: 0xfade_7172, payload: $0) }
        var directories: [(slot: UInt32, blob: [UInt8])] = []
        for (index, type) in signing.hashTypes.enumerated() {
            var special: [Int: [UInt8]] = [2: SuperBlobBuilder.hash(type, requirements)]
            if let info = signing.infoPlist { special[1] = SuperBlobBuilder.hash(type, info) }
            if let resources = signing.codeResources { special[3] = SuperBlobBuilder.hash(type, resources) }
            if let xml { special[5] = SuperBlobBuilder.hash(type, xml) }
            if let der { special[7] = SuperBlobBuilder.hash(type, der) }
            let directory = SuperBlobBuilder.codeDirectory(
                code: code,
                hashType: type,
                version: signing.version,
                flags: signing.flags,
                pageSizeLog2: signing.pageSizeLog2,
                specialHashes: special
            )
            directories.append((index == 0 ? 0 : UInt32(0x1000 + index - 1), directory))
        }
        if let primary = directories.first { blobs.append(primary) }
        blobs.append((2, requirements))
        if let xml { blobs.append((5, xml)) }
        if let der { blobs.append((7, der)) }
        blobs += directories.dropFirst()
        if let cms = signing.cms { blobs.append((0x10000, SuperBlobBuilder.blob(magic: 0xfade_0b01, payload: cms))) }
        return blobs
    }

    /// A universal binary of `slices` (cputype, cpusubtype, bytes), with 32-bit (`FAT_MAGIC`) or 64-bit
    /// (`FAT_MAGIC_64`) arch entries; slices are aligned to 2^`alignLog2` bytes.
    package static func fat(
        _ slices: [(cpuType: UInt32, cpuSubtype: UInt32, bytes: [UInt8])],
        is64Bit: Bool = false,
        alignLog2: Int = 12
    ) -> [UInt8] {
        let be32 = SuperBlobBuilder.be32
        let align = 1 << alignLog2
        let entrySize = is64Bit ? 32 : 20
        var header = be32(is64Bit ? 0xcafe_babf : 0xcafe_babe) + be32(UInt32(slices.count))
        var offset = (8 + slices.count * entrySize + align - 1) / align * align
        var layout: [Int] = []
        for slice in slices {
            layout.append(offset)
            header += be32(slice.cpuType) + be32(slice.cpuSubtype)
            if is64Bit {
                header += SuperBlobBuilder.be64(UInt64(offset)) + SuperBlobBuilder.be64(UInt64(slice.bytes.count))
                header += be32(UInt32(alignLog2)) + be32(0)
            } else {
                header += be32(UInt32(offset)) + be32(UInt32(slice.bytes.count)) + be32(UInt32(alignLog2))
            }
            offset = (offset + slice.bytes.count + align - 1) / align * align
        }
        var out = header
        for (index, slice) in slices.enumerated() {
            out += [UInt8](repeating: 0, count: layout[index] - out.count)
            out += slice.bytes
        }
        return out
    }
}
