package import IPACheckReport
package import IPACheckSigning

// The signature family's rules, declared on the checks whose problems they judge.

extension SignatureVerifier {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .signature }

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

    /// The rules about trust rather than integrity (a signer and its chain, not whether the hashes hold): `verify
    /// --strict` makes them fail the verdict.
    package struct TrustRules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .signature }

        /// The set, its rules as declared below.
        package init() {}

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
    }

    /// The trust rules declared here.
    package static let trustRules = TrustRules()
}

extension SignedEntitlements {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .bundleFacts }

        /// The set, its rules as declared below.
        package init() {}

        /// SIG020: the XML and DER entitlements say different things.
        package let xmlDERDisagree = Rule(
            "SIG020",
            .error,
            "XML and DER entitlements differ",
            summary:
                "The signature's XML entitlements and DER entitlements are not the same dictionary. iOS 15 and later "
                + "obey the DER form, so the app runs with entitlements other than the ones you read in the XML.",
            fix: "Re-sign with a current codesign, which writes both forms from one entitlements file."
        )

        /// SIG021: an entitlements blob cannot be decoded.
        package let malformed = Rule(
            "SIG021",
            .error,
            "entitlements blob unreadable",
            summary: "The XML or DER entitlements blob of the signature is not a valid plist / DER dictionary.",
            fix: "Re-sign the binary with a well-formed entitlements file."
        )

        /// SIG022: slices of a fat binary carry different entitlements.
        package let slicesDisagree = Rule(
            "SIG022",
            .error,
            "architectures carry different entitlements",
            summary:
                "The slices of a universal binary are signed with different entitlements, so the app's capabilities "
                + "depend on the device's architecture.",
            fix: "Sign every architecture with the same entitlements file (re-run codesign on the universal binary)."
        )

        /// SIG023: XML entitlements without the DER form.
        ///
        /// An error wherever the signature is the one devices run: Apple re-signs only App Store and TestFlight
        /// builds (docs/ios-model.md#changes I61), so in a gate for the App Store it is not raised.
        package let noDER = Rule(
            "SIG023",
            .error,
            "no DER entitlements",
            summary:
                "The signature has XML entitlements but no DER entitlements blob; iOS 15 and later require the DER form "
                + "and refuse to launch such apps (ad hoc, enterprise and development builds run the signature as "
                + "exported; Apple re-signs only App Store and TestFlight builds).",
            fix: "Re-sign with Xcode 13 / codesign from macOS 11.3 or later, which adds DER entitlements."
        )

        /// SIG024: the entitlements are not a dictionary.
        package let notDictionary = Rule(
            "SIG024",
            .error,
            "entitlements are not a dictionary",
            summary: "The entitlements blob decodes, but its top level is not a dictionary.",
            fix: "Re-sign with an entitlements plist whose root is a <dict>."
        )
    }

    /// The rules declared here.
    package static let rules = Rules()
}

extension ResourceSeal {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .signature }

        /// The set, its rules as declared below.
        package init() {}

        /// SIG030: a sealed resource was modified.
        package let modified = Rule(
            "SIG030",
            .error,
            "sealed resource modified",
            summary: "A file of the bundle differs from the hash in _CodeSignature/CodeResources.",
            fix: "Re-sign the bundle after changing resources; never edit files inside a signed bundle.",
            needs: [.resourceComparison]
        )

        /// SIG031: a sealed resource is missing.
        package let missingFile = Rule(
            "SIG031",
            .error,
            "sealed resource missing",
            summary: "A file listed in _CodeSignature/CodeResources is not in the bundle.",
            fix: "Restore the file, or re-sign the bundle without it.",
            needs: [.resourceComparison]
        )

        /// SIG032: a file was added after signing.
        package let addedFile = Rule(
            "SIG032",
            .error,
            "file added after signing",
            summary: "A file in the bundle is not covered by _CodeSignature/CodeResources.",
            fix: "Remove the file, or re-sign the bundle so it is sealed.",
            needs: [.resourceComparison]
        )

        /// SIG033: nested code is not the code the seal names.
        package let nestedCodeChanged = Rule(
            "SIG033",
            .error,
            "nested code replaced after signing",
            summary: "The seal names nested code (a framework, extension or dylib) by its CodeDirectory hash, and the "
                + "nested code in the bundle has another one: it was re-signed or replaced after the bundle was sealed.",
            fix:
                "Sign nested code first, then the bundle that contains it (inside out), and do not swap it afterwards.",
            needs: [.resourceComparison]
        )

        /// SIG034: the bundle has no resource seal.
        package let notSealed = Rule(
            "SIG034",
            .error,
            "resources not sealed",
            summary: "The bundle has no _CodeSignature/CodeResources, so nothing seals its resources; iOS refuses to "
                + "install a signed bundle without one.",
            fix: "Sign the bundle with codesign (or export it from Xcode) so that its resources are sealed."
        )

        /// SIG035: the resource seal cannot be read.
        package let unreadable = Rule(
            "SIG035",
            .error,
            "resource seal unreadable",
            summary: "_CodeSignature/CodeResources is not a property list with a files2 (or files) dictionary, so the "
                + "bundle's resources cannot be checked; iOS refuses such a bundle.",
            fix: "Re-sign the bundle."
        )

        /// SIG036: an omit rule of the seal could not be evaluated.
        package let omitRuleNotEvaluated = Rule(
            "SIG036",
            .note,
            "resource rule not evaluated",
            summary: "An omit rule of _CodeSignature/CodeResources uses regular-expression syntax ipacheck does not "
                + "evaluate, or exceeds one of its caps, so it leaves nothing out: a file it would omit is reported as "
                + "added after signing (SIG032). codesign's standard rules are all evaluated.",
            fix: "Sign with codesign's standard resource rules; if SIG032 names a file such a rule omits, that finding "
                + "is ipacheck being conservative.",
            needs: [.resourceComparison]
        )
    }

    /// The rules declared here.
    package static let rules = Rules()
}
