package import Foundation
package import IPACheckBinary
package import IPACheckCMS

/// Verifies code signatures as `codesign --verify` does: code pages, special slots, cdhashes and the CMS message.
package enum SignatureVerifier {

    /// Verifies every slice of `fileBytes` (the whole executable held in memory: bare Mach-Os and tests).
    ///
    /// - Parameters:
    ///   - fileBytes: The executable, whole (code pages up to each `codeLimit` are hashed).
    ///   - infoPlist: The bundle's `Info.plist`, for special slot −1.
    ///   - codeResources: The bundle's `_CodeSignature/CodeResources`, for special slot −3.
    ///   - bundle: The bundle path findings name.
    ///   - now: The time certificate expiry is judged at.
    /// - Throws: ``ParseError`` when the executable cannot be parsed at all.
    package static func verify(
        fileBytes: [UInt8],
        infoPlist: SealedFile,
        codeResources: SealedFile,
        bundle: String? = nil,
        now: Date = Date()
    ) throws(ParseError) -> SignatureCheck {
        let container = try MachOContainer.parse(fileBytes)
        let pages = container.slices.map { slice in
            let limit = slice.loadCommands.codeSignatureRange?.lowerBound ?? slice.range.count
            return CodePageDigests(bytes: fileBytes[slice.range], slice: slice.range, codeLimit: limit)
        }
        return verify(
            container: container,
            pages: pages,
            infoPlist: infoPlist,
            codeResources: codeResources,
            bundle: bundle,
            now: now
        )
    }

    /// Verifies every slice of an executable from its parsed signatures and the page digests taken while it
    /// streamed past (``CodePageDigests``).
    ///
    /// - Parameters:
    ///   - container: The executable's headers and signatures.
    ///   - pages: The code-page digests of each slice (matched by the slice's range).
    ///   - infoPlist: The bundle's `Info.plist`, for special slot −1.
    ///   - codeResources: The bundle's `_CodeSignature/CodeResources`, for special slot −3.
    ///   - bundle: The bundle path findings name.
    ///   - location: The executable's path, when findings should name it (a nested dylib).
    ///   - now: The time certificate expiry is judged at.
    package static func verify(
        container: MachOContainer,
        pages: [CodePageDigests],
        infoPlist: SealedFile,
        codeResources: SealedFile,
        bundle: String? = nil,
        location: String? = nil,
        now: Date = Date()
    ) -> SignatureCheck {
        let context = Context(bundle: bundle, location: location, now: now)
        let slices = container.slices.map { slice in
            verify(
                slice: slice,
                pages: pages.first { $0.slice == slice.range },
                infoPlist: infoPlist,
                codeResources: codeResources,
                context: context
            )
        }
        return SignatureCheck(slices: slices)
    }

    /// Where findings point and when expiry is judged.
    struct Context {
        let bundle: String?
        let location: String?
        let now: Date

        func problem(_ kind: SigningProblem.Kind, _ message: String, slice: String) -> SigningProblem {
            SigningProblem(kind, message, bundle: bundle, location: location, affects: [slice])
        }
    }

    /// Verifies one slice.
    private static func verify(
        slice: MachOSlice,
        pages: CodePageDigests?,
        infoPlist: SealedFile,
        codeResources: SealedFile,
        context: Context
    ) -> SliceSignatureCheck {
        let arch = slice.architecture.name
        var problems: [SigningProblem] = []
        var notes: [SigningProblem] = []
        guard let signature = slice.signature, !signature.codeDirectories.isEmpty else {
            let what = slice.signature == nil ? "has no code signature" : "has a signature without a CodeDirectory"
            return SliceSignatureCheck(
                architecture: arch,
                isSigned: false,
                isAdHoc: false,
                codeDirectories: [],
                cms: nil,
                problems: [context.problem(.unsigned, "The executable \(what).", slice: arch)],
                notes: []
            )
        }
        var directoryChecks: [CodeDirectoryCheck] = []
        var encryptedPagesCompared: [Int] = []
        var allPagesCompared = true
        for directory in signature.codeDirectories {
            let result = check(
                directory,
                signature: signature,
                pages: pages,
                infoPlist: infoPlist,
                codeResources: codeResources,
                encryption: slice.loadCommands.encryption,
                arch: arch,
                context: context
            )
            directoryChecks.append(result.check)
            problems += result.problems
            notes += result.notes
            if result.pagesCompared { encryptedPagesCompared.append(result.encryptedPages) }
            allPagesCompared = allPagesCompared && result.pagesCompared
        }

        var cmsCheck: CMSSignatureCheck?
        let primaryAdHoc = signature.primaryCodeDirectory?.isAdHoc ?? false
        if let cms = signature.cmsSignature, !cms.payload.isEmpty {
            do {
                let result = try CMSSignatureCheck.check(cms: cms.payload, codeDirectories: signature.codeDirectories)
                cmsCheck = result
                if !result.signatureVerifies {
                    problems.append(
                        context.problem(
                            .cmsInvalid,
                            "The signer's signature does not verify.",
                            slice: arch
                        )
                    )
                }
                if !result.messageDigestMatches {
                    problems.append(
                        context.problem(
                            .cmsInvalid,
                            "The CMS message digest does not match the primary CodeDirectory.",
                            slice: arch
                        )
                    )
                }
                if result.codeDirectoryHashesMatch == false {
                    problems.append(
                        context.problem(
                            .cmsInvalid,
                            "The CMS list of CodeDirectory hashes does not match the CodeDirectories.",
                            slice: arch
                        )
                    )
                }
                if let signer = result.signer, signer.notValidAfter < context.now {
                    notes.append(
                        context.problem(
                            .signerExpired,
                            "The signer certificate \"\(signer.subjectCommonName ?? signer.subject)\" expired on "
                                + "\(ISO8601DateFormatter().string(from: signer.notValidAfter)).",
                            slice: arch
                        )
                    )
                }
            } catch {
                problems.append(
                    context.problem(
                        .cmsMalformed,
                        "The CMS signature cannot be read: \(error.reason).",
                        slice: arch
                    )
                )
            }
        } else if !primaryAdHoc {
            let what = signature.cmsSignature == nil ? "has no CMS signature slot" : "has an empty CMS signature"
            notes.append(
                context.problem(
                    .noCMS,
                    "The signature \(what) but is not flagged ad hoc.",
                    slice: arch
                )
            )
        }
        if let note = encryptionNote(
            slice,
            comparedEncryptedPages: encryptedPagesCompared.max(),
            allCompared: allPagesCompared,
            signer: cmsCheck?.signer,
            arch: arch,
            context: context
        ) {
            notes.append(note)
        }
        return SliceSignatureCheck(
            architecture: arch,
            isSigned: true,
            isAdHoc: signature.isAdHoc || signature.cmsSignature == nil,
            codeDirectories: directoryChecks,
            cms: cmsCheck,
            problems: problems,
            notes: notes
        )
    }

    struct DirectoryResult {
        var check: CodeDirectoryCheck
        var problems: [SigningProblem]
        var notes: [SigningProblem]
        /// Whether the directory's code-page hashes were compared with the slice's pages.
        var pagesCompared: Bool
        /// How many of the compared pages hold FairPlay-encrypted bytes.
        var encryptedPages: Int
    }

    /// The common name of Apple's application-signing certificate, which signs every app the App Store delivers
    /// (subject `CN=Apple iPhone OS Application Signing, OU=Apple iPhone, O=Apple Inc., C=US`).
    package static let appStoreSignerName = "Apple iPhone OS Application Signing"

    /// Whether `certificate` is named as Apple's application-signing certificate (its subject only: whether it
    /// chains to Apple's root is the trust rules' question, above the readers).
    package static func isAppStoreSigner(_ certificate: CertificateSummary) -> Bool {
        certificate.subjectCommonName == appStoreSignerName && certificate.subjectOrganization == "Apple Inc."
    }

    /// SIG040 for a slice that is still FairPlay-encrypted: which bytes are encrypted, and whether its pages were
    /// compared as delivered (the CodeDirectory hashes the encrypted bytes) or not compared at all.
    ///
    /// - Parameters:
    ///   - comparedEncryptedPages: The most encrypted pages any CodeDirectory compared; `nil` when none compared.
    ///   - allCompared: Whether every CodeDirectory's pages were compared.
    private static func encryptionNote(
        _ slice: MachOSlice,
        comparedEncryptedPages: Int?,
        allCompared: Bool,
        signer: CertificateSummary?,
        arch: String,
        context: Context
    ) -> SigningProblem? {
        guard let encryption = slice.loadCommands.encryption, encryption.isEncrypted else { return nil }
        let rule = SigningProblem.Kind.encryptedCodePages
        var cryptid = "cryptid \(encryption.cryptID)"
        if let signer, isAppStoreSigner(signer) {
            cryptid += ", signed by \(appStoreSignerName) for App Store delivery"
        }
        guard let range = encryption.range(inSliceOf: slice.range.count) else {
            return context.problem(
                rule,
                "LC_ENCRYPTION_INFO says the code is FairPlay-encrypted (\(cryptid)), but its range (cryptoff "
                    + "\(encryption.offset), cryptsize \(encryption.size)) does not lie inside the \(slice.range.count)"
                    + "-byte slice; the code pages were judged as stored.",
                slice: arch
            )
        }
        let what = "The code in bytes \(range.lowerBound) to \(range.upperBound) is FairPlay-encrypted (\(cryptid))"
        guard let compared = comparedEncryptedPages else {
            return context.problem(
                rule,
                what + "; its pages were not checked (see SIG011 or SIG004), neither encrypted nor decrypted.",
                slice: arch
            )
        }
        let partly = allCompared ? "" : " by the CodeDirectories whose pages could be compared"
        return context.problem(
            rule,
            what + ": \(compared) code page\(compared == 1 ? "" : "s") were checked as delivered, encrypted\(partly), "
                + "since the CodeDirectory hashes the encrypted bytes (iOS checks each page before decrypting it).",
            slice: arch
        )
    }

}
