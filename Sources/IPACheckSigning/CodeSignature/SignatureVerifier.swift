package import Foundation
package import IPACheckBinary
package import IPACheckCMS
package import IPACheckReport

/// Verifies code signatures as `codesign --verify` does: code pages, special slots, cdhashes and the CMS message.
package enum SignatureVerifier {

    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: RuleSet {
        /// The set, its rules as declared below.
        package init() {}

        /// SIG001: the slice has no code signature.
        package let unsigned = Rule(
            "SIG001",
            .error,
            "code is not signed",
            summary: "The Mach-O slice has no LC_CODE_SIGNATURE; iOS refuses to run unsigned code.",
            fix: "Sign the binary (codesign, or archive and export from Xcode)."
        )

        /// SIG002: a code page changed after signing.
        package let codePageModified = Rule(
            "SIG002",
            .error,
            "code page modified",
            summary:
                "The hash of a page of the executable differs from the CodeDirectory: the code changed after signing.",
            fix: "Re-sign after the last change to the binary; do not patch signed binaries."
        )

        /// SIG003: a sealed file or blob changed, is missing, or is not sealed.
        package let specialSlotBroken = Rule(
            "SIG003",
            .error,
            "sealed file or blob does not match",
            summary:
                "A CodeDirectory special slot (Info.plist, requirements, CodeResources, entitlements, DER entitlements) "
                + "does not match the file or blob it seals, or a present blob is not sealed.",
            fix: "Re-sign the bundle after editing Info.plist, resources or entitlements."
        )

        /// SIG004: the CodeDirectory does not describe the slice consistently.
        package let codeDirectoryInvalid = Rule(
            "SIG004",
            .error,
            "CodeDirectory inconsistent",
            summary:
                "The CodeDirectory's code limit, page count or hash type cannot describe this slice (truncated or "
                + "corrupted binary, or a hash type we do not know).",
            fix: "Re-sign the binary with a current codesign."
        )

        /// SIG005: the CMS signature does not prove the CodeDirectory.
        package let cmsInvalid = Rule(
            "SIG005",
            .error,
            "CMS signature invalid",
            summary:
                "The CMS signature's mathematics fails: the signer's signature over the signed attributes, the "
                + "messageDigest of the CodeDirectory, or the list of cdhashes does not match.",
            fix: "Re-sign the binary; the signature was damaged or the CodeDirectory replaced."
        )

        /// SIG006: the CMS message cannot be read.
        package let cmsMalformed = Rule(
            "SIG006",
            .error,
            "CMS signature unreadable",
            summary: "The signature blob is not a CMS SignedData that can be checked.",
            fix: "Re-sign the binary."
        )

        /// SIG007: the signature has no CMS message although it is not flagged ad hoc.
        package let noCMS = Rule(
            "SIG007",
            .warning,
            "signature without signer",
            summary:
                "The SuperBlob has no CMS signature (or an empty one) although the CodeDirectory is not flagged ad hoc: "
                + "the hashes hold but no identity vouches for them (typical of jailbreak tweak signers).",
            fix: "Sign with a real identity, or mark the signature ad hoc (codesign -s -)."
        )

        /// SIG008: the signer certificate has expired.
        package let signerExpired = Rule(
            "SIG008",
            .note,
            "signer certificate expired",
            summary:
                "The certificate that signed the code is past its expiry date. Installed App Store apps keep working; "
                + "ad hoc and development builds stop installing.",
            fix: "Re-sign with a current certificate before distributing outside the App Store."
        )

        /// SIG009: no chain leads from the signer to an Apple root (raised by ``TrustChecks``).
        package let chainIncomplete = Rule(
            "SIG009",
            .note,
            "signer not traced to an Apple root",
            summary: "No chain leads from the code signature's signer certificate, through the certificates the "
                + "signature carries and Apple's intermediates ipacheck ships, to one of Apple's root CAs: a self-made "
                + "or third-party identity. Devices run only code signed by Apple-issued identities. An Apple chain "
                + "whose certificate had expired is SIG012, one that breaks another rule SIG013.",
            fix: "Sign with an Apple-issued certificate (Apple Distribution or Apple Development)."
        )

        /// SIG012: the signer's chain to an Apple root has a certificate outside its validity when judged (raised by
        /// ``TrustChecks``).
        package let chainCertificateExpired = Rule(
            "SIG012",
            .note,
            "certificate of the signer's Apple chain expired",
            summary: "A chain leads from the signer to an Apple root, but a certificate on it (the signer's own or an "
                + "intermediate) was outside its validity period when the chain was judged: at the CMS signing time, "
                + "or now when the signature states none. The finding names the certificate, its date and the time "
                + "judged.",
            fix: "Re-sign with a current Apple certificate; Xcode installs Apple's current intermediates."
        )

        /// SIG013: the signer's chain to an Apple root breaks a rule of path validation other than time (raised by
        /// ``TrustChecks``).
        package let chainInvalid = Rule(
            "SIG013",
            .note,
            "signer's Apple chain not valid",
            summary: "A chain leads from the signer to an Apple root but breaks a rule of path validation other than "
                + "time: an issuer that is no certificate authority, an extended key usage without code signing, or a "
                + "critical extension ipacheck does not know. The finding says which.",
            fix: "Sign with an Apple-issued code-signing certificate as Xcode or the developer portal provides it."
        )

        /// SIG010: a bound special slot could not be checked (file not supplied).
        package let slotNotChecked = Rule(
            "SIG010",
            .note,
            "sealed file not checked",
            summary: "A special slot seals a file that was not available (a bare Mach-O was given without its bundle).",
            fix: "Verify the whole .ipa or .app to check Info.plist and CodeResources too."
        )

        /// SIG011: the stream could not take the digests a CodeDirectory's code slots need.
        package let codePagesNotChecked = Rule(
            "SIG011",
            .warning,
            "code pages not checked",
            summary:
                "The CodeDirectory uses a page size, code limit or hash type that ipacheck's single streaming pass "
                + "does not hash (it takes SHA-1 and SHA-256 of 4096-byte pages up to the signature), so the code pages "
                + "were not compared; the rest of the signature was.",
            fix:
                "Verify this binary with codesign --verify on macOS; re-signing with a current codesign uses 4096-byte "
                + "pages and SHA-256."
        )

        /// SIG040: the code pages are FairPlay-encrypted and were compared as delivered.
        package let encryptedCodePages = Rule(
            "SIG040",
            .note,
            "code pages FairPlay-encrypted",
            summary:
                "LC_ENCRYPTION_INFO(_64) has a non-zero cryptid: the App Store encrypted these code pages after "
                + "signing, as it delivers every app. The CodeDirectory hashes the pages as they are stored, encrypted "
                + "(iOS checks each page's hash before it decrypts it), so ipacheck compares them as delivered; it "
                + "cannot read the code itself, and says so when the pages could not be compared.",
            fix:
                "Nothing to fix in a build the App Store delivered. To inspect the code, check the build you exported "
                + "from Xcode before upload."
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

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

        func finding(_ rule: Rule, _ message: String, slice: String) -> Finding {
            rule.finding(message, bundle: bundle, location: location, affects: [slice])
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
        var problems: [Finding] = []
        var notes: [Finding] = []
        guard let signature = slice.signature, !signature.codeDirectories.isEmpty else {
            let what = slice.signature == nil ? "has no code signature" : "has a signature without a CodeDirectory"
            return SliceSignatureCheck(
                architecture: arch,
                isSigned: false,
                isAdHoc: false,
                codeDirectories: [],
                cms: nil,
                problems: [context.finding(SignatureVerifier.rules.unsigned, "The executable \(what).", slice: arch)],
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
                        context.finding(
                            SignatureVerifier.rules.cmsInvalid,
                            "The signer's signature does not verify.",
                            slice: arch
                        )
                    )
                }
                if !result.messageDigestMatches {
                    problems.append(
                        context.finding(
                            SignatureVerifier.rules.cmsInvalid,
                            "The CMS message digest does not match the primary CodeDirectory.",
                            slice: arch
                        )
                    )
                }
                if result.codeDirectoryHashesMatch == false {
                    problems.append(
                        context.finding(
                            SignatureVerifier.rules.cmsInvalid,
                            "The CMS list of CodeDirectory hashes does not match the CodeDirectories.",
                            slice: arch
                        )
                    )
                }
                if let signer = result.signer, signer.notValidAfter < context.now {
                    notes.append(
                        context.finding(
                            SignatureVerifier.rules.signerExpired,
                            "The signer certificate \"\(signer.subjectCommonName ?? signer.subject)\" expired on "
                                + "\(ISO8601DateFormatter().string(from: signer.notValidAfter)).",
                            slice: arch
                        )
                    )
                }
            } catch {
                problems.append(
                    context.finding(
                        SignatureVerifier.rules.cmsMalformed,
                        "The CMS signature cannot be read: \(error.reason).",
                        slice: arch
                    )
                )
            }
        } else if !primaryAdHoc {
            let what = signature.cmsSignature == nil ? "has no CMS signature slot" : "has an empty CMS signature"
            notes.append(
                context.finding(
                    SignatureVerifier.rules.noCMS,
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
        var problems: [Finding]
        var notes: [Finding]
        /// Whether the directory's code-page hashes were compared with the slice's pages.
        var pagesCompared: Bool
        /// How many of the compared pages hold FairPlay-encrypted bytes.
        var encryptedPages: Int
    }

    /// The common name of Apple's application-signing certificate, which signs every app the App Store delivers
    /// (subject `CN=Apple iPhone OS Application Signing, OU=Apple iPhone, O=Apple Inc., C=US`).
    package static let appStoreSignerName = "Apple iPhone OS Application Signing"

    /// Whether `certificate` is named as Apple's application-signing certificate (its subject only: whether it
    /// chains to Apple's root is ``TrustChecks``' question).
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
    ) -> Finding? {
        guard let encryption = slice.loadCommands.encryption, encryption.isEncrypted else { return nil }
        let rule = SignatureVerifier.rules.encryptedCodePages
        var cryptid = "cryptid \(encryption.cryptID)"
        if let signer, isAppStoreSigner(signer) {
            cryptid += ", signed by \(appStoreSignerName) for App Store delivery"
        }
        guard let range = encryption.range(inSliceOf: slice.range.count) else {
            return context.finding(
                rule,
                "LC_ENCRYPTION_INFO says the code is FairPlay-encrypted (\(cryptid)), but its range (cryptoff "
                    + "\(encryption.offset), cryptsize \(encryption.size)) does not lie inside the \(slice.range.count)"
                    + "-byte slice; the code pages were judged as stored.",
                slice: arch
            )
        }
        let what = "The code in bytes \(range.lowerBound) to \(range.upperBound) is FairPlay-encrypted (\(cryptid))"
        guard let compared = comparedEncryptedPages else {
            return context.finding(
                rule,
                what + "; its pages were not checked (see SIG011 or SIG004), neither encrypted nor decrypted.",
                slice: arch
            )
        }
        let partly = allCompared ? "" : " by the CodeDirectories whose pages could be compared"
        return context.finding(
            rule,
            what + ": \(compared) code page\(compared == 1 ? "" : "s") were checked as delivered, encrypted\(partly), "
                + "since the CodeDirectory hashes the encrypted bytes (iOS checks each page before decrypting it).",
            slice: arch
        )
    }

}
