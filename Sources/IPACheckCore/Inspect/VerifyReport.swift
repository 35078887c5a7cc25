public import Foundation
import IPACheckBinary
import IPACheckCMS
public import IPACheckReport

/// The answer to `ipacheck verify`, which judges signature integrity as `codesign --verify` would.
public struct VerifyReport: Encodable, Sendable {
    /// One signed executable's verdict.
    public struct Subject: Encodable, Sendable {
        /// The bundle's folder (or the Mach-O's path).
        public let path: String
        /// Whether every hash and the CMS signature check out (and, with `--resources`, the resource seal).
        public let valid: Bool
        /// Per slice: architecture, ad hoc or not, each CodeDirectory's cdhash and hash type, the signer.
        public let slices: [Slice]
        /// The resource seal check, when asked for.
        public let resources: Resources?
    }

    /// One slice's signature.
    public struct Slice: Encodable, Sendable {
        /// The architecture.
        public let architecture: String
        /// Whether the slice is signed at all.
        public let signed: Bool
        /// Whether the signature is ad hoc.
        public let adHoc: Bool
        /// Each CodeDirectory: hash type, cdhash, identifier, team, modified pages, special slots.
        public let codeDirectories: [CodeDirectoryCheck]
        /// The CMS signer's subject, if any.
        public let signer: String?
        /// Whether the CMS signature's mathematics hold (nil without CMS).
        public let cmsValid: Bool?
    }

    /// The resource seal's verdict.
    public struct Resources: Encodable, Sendable {
        /// Files checked.
        public let checked: Int
        /// Files whose bytes differ from the seal.
        public let modified: [String]
        /// Sealed files that are gone.
        public let missing: [String]
        /// Files the seal does not cover.
        public let added: [String]
    }

    /// What was verified.
    public let target: String
    /// Every signed executable, the main app first.
    public let subjects: [Subject]
    /// Problems (breaking the verdict) and notes (trust, expiry, unchecked slots).
    public let findings: [Finding]
    /// The verdict: every subject valid (and, with `strict`, no trust notes either).
    public let valid: Bool

    /// Verifies an ipa's bundles or a bare Mach-O.
    ///
    /// - Parameters:
    ///   - resources: Also check `_CodeSignature/CodeResources` against each bundle's files.
    ///   - strict: Let the signer's chain, trust and expiry notes fail the verdict too.
    /// - Throws: ``InputError`` when the target cannot be read.
    public static func verify(
        path: String,
        resources: Bool,
        strict: Bool,
        now: Date = Date()
    ) throws(InputError)
        -> VerifyReport
    {
        var subjects: [Subject] = []
        var findings: [Finding] = []
        switch try TargetKind.of(path: path) {
        case .machO:
            let check = try run(MachOFile.read(path: path), info: .notChecked, seal: .notChecked, path: path, now: now)
            findings += check.findings
            subjects.append(subject(path: path, check: check, seal: nil, strict: strict))
        case .archive:
            let ipa = try IPAFile(path: path)
            findings += ipa.findings
            for bundle in ipa.bundles where bundle.executable != nil {
                let info: SealedFile = .bytes(try ipa.read(bundle.infoPlistPath))
                let sealBytes = try bundle.codeResources.map { member throws(InputError) in try ipa.read(member) }
                let executable = try ipa.executableBytes(of: bundle)
                let check: SignatureCheck
                do {
                    check = try run(
                        executable,
                        info: info,
                        seal: sealBytes.map { .bytes($0) } ?? .missing,
                        path: bundle.path,
                        now: now
                    )
                } catch {
                    // Name the file the user gave (the ipa), then the bundle inside it.
                    throw InputError(error.code, file: path, "\(error.file): \(error.message)")
                }
                findings += check.findings
                var seal: ResourceSealCheck? = nil
                if resources {
                    seal = try checkSeal(ipa: ipa, bundle: bundle, sealBytes: sealBytes, findings: &findings)
                }
                subjects.append(subject(path: bundle.path, check: check, seal: seal, strict: strict))
            }
        }
        let valid = !subjects.isEmpty && subjects.allSatisfy(\.valid)
        return VerifyReport(target: path, subjects: subjects, findings: findings.sorted(), valid: valid)
    }

    private static func run(
        _ bytes: [UInt8],
        info: SealedFile,
        seal: SealedFile,
        path: String,
        now: Date
    ) throws(InputError) -> SignatureCheck {
        do {
            return try SignatureVerifier.verify(
                fileBytes: bytes,
                infoPlist: info,
                codeResources: seal,
                bundle: path,
                now: now
            )
        } catch {
            throw InputError("bad-macho", file: path, error.description)
        }
    }

    private static func checkSeal(
        ipa: IPAFile,
        bundle: AppBundle,
        sealBytes: [UInt8]?,
        findings: inout [Finding]
    ) throws(InputError) -> ResourceSealCheck? {
        guard let sealBytes else {
            findings.append(
                ResourceSeal.missingFile.finding(
                    "\(bundle.path) has no _CodeSignature/CodeResources, so its resources are not sealed",
                    bundle: bundle.path
                )
            )
            return nil
        }
        let executable = bundle.executable.map { String($0.dropFirst(bundle.path.count + 1)) }
        do {
            let check = try ResourceSeal.check(
                codeResources: sealBytes,
                bundleFiles: ipa.files(of: bundle),
                mainExecutable: executable,
                bundle: bundle.path,
                read: { relative in try? ipa.read(bundle.path + "/" + relative) }
            )
            findings += check.findings
            return check
        } catch {
            throw InputError("bad-seal", file: ipa.path, "\(bundle.path)/_CodeSignature/CodeResources: \(error)")
        }
    }

    private static func subject(path: String, check: SignatureCheck, seal: ResourceSealCheck?, strict: Bool) -> Subject
    {
        let slices = check.slices.map { slice in
            Slice(
                architecture: slice.architecture,
                signed: slice.isSigned,
                adHoc: slice.isAdHoc,
                codeDirectories: slice.codeDirectories,
                signer: slice.cms?.signer?.subject,
                cmsValid: slice.cms?.isValid
            )
        }
        let trustFails = strict && check.slices.contains { !$0.notes.isEmpty }
        let valid = check.isValid && (seal?.isValid ?? true) && !trustFails
        let resources = seal.map {
            Resources(checked: $0.checkedCount, modified: $0.modified, missing: $0.missing, added: $0.added)
        }
        return Subject(path: path, valid: valid, slices: slices, resources: resources)
    }

    /// The `CN=` part of a distinguished name, which is what people recognise a certificate by.
    private static func commonName(_ subject: String) -> String {
        let parts = subject.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return parts.first { $0.hasPrefix("CN=") }.map { String($0.dropFirst(3)) } ?? subject
    }

    /// The verdict for people: one line per executable, then the findings.
    public func text(style: TextStyle = .plain) -> String {
        var out = ""
        for subject in subjects {
            let mark = subject.valid ? style.green("✓ valid  ") : style.red("✗ BROKEN ")
            var details: [String] = []
            for slice in subject.slices {
                guard slice.signed else {
                    details.append("\(slice.architecture): unsigned")
                    continue
                }
                let hashes = slice.codeDirectories.map { "\($0.hashType) \($0.cdhash.prefix(12))…" }
                var part = "\(slice.architecture): " + hashes.joined(separator: ", ")
                if slice.adHoc {
                    part += ", ad hoc"
                } else if let signer = slice.signer {
                    part += ", signed by \(Self.commonName(signer))"
                }
                details.append(part)
            }
            if let resources = subject.resources {
                let broken = resources.modified.count + resources.missing.count + resources.added.count
                details.append("resources: \(resources.checked) checked, \(broken) broken")
            }
            out += mark + style.bold(subject.path) + "\n"
            for detail in details { out += "    " + detail + "\n" }
        }
        if !findings.isEmpty {
            out += "\n"
            for finding in findings {
                out += style.severity(finding.severity) + " \(finding.rule) \(finding.message)\n"
            }
        }
        out += valid ? style.green("signature valid") + "\n" : style.red("signature BROKEN") + "\n"
        return out
    }
}
