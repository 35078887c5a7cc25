package import Foundation
package import IPACheckArchive
import IPACheckBinary
import IPACheckBundle
import IPACheckCMS
import IPACheckFetching
import IPACheckGate
package import IPACheckReport
package import IPACheckSigning

/// The answer to `ipacheck verify`, which judges signature integrity as `codesign --verify` would, from one
/// streaming pass over the target (``SealScan``): nothing is read twice, and no executable is held whole.
///
/// As codesign does, it checks each bundle's resource seal (`_CodeSignature/CodeResources` against the bundle's
/// files and nested code) by default; `--no-resources` leaves the seal's comparison out, and the report then says
/// so (``resourcesNotChecked``, and the seal's rules listed as not checked).
package struct VerifyReport: Sendable {
    /// One signed executable's verdict.
    package struct Subject: Encodable, Sendable {
        /// The bundle's folder, the nested dylib's path, or the Mach-O's path.
        package let path: String
        /// Whether every hash and the CMS signature check out, and for a bundle its resource seal (present,
        /// readable and, unless `--no-resources`, matching the bundle's files and nested code).
        package let valid: Bool
        /// Per slice: architecture, ad hoc or not, each CodeDirectory's cdhash and hash type, the signer.
        package let slices: [Slice]
        /// The resource seal's comparison with the bundle's files: absent for nested code, with `--no-resources`,
        /// and for a bundle whose seal is missing or unreadable (SIG034 or SIG035 says so).
        package let resources: Resources?
    }

    /// One slice's signature.
    package struct Slice: Encodable, Sendable {
        /// The architecture.
        package let architecture: String
        /// Whether the slice is signed at all.
        package let signed: Bool
        /// Whether the signature is ad hoc.
        package let adHoc: Bool
        /// Each CodeDirectory: hash type, cdhash, identifier, team, modified pages, special slots.
        package let codeDirectories: [CodeDirectoryCheck]
        /// The CMS signer's common name, if any.
        package let signer: String?
        /// Whether the CMS signature's mathematics hold (nil without CMS).
        package let cmsValid: Bool?
    }

    /// The resource seal's verdict.
    package struct Resources: Encodable, Sendable {
        /// Files and nested code compared.
        package let checked: Int
        /// Files whose bytes differ from the seal.
        package let modified: [String]
        /// Sealed files that are gone.
        package let missing: [String]
        /// Files the seal does not cover.
        package let added: [String]
        /// Nested code whose CodeDirectory hash is not the sealed one.
        package let nestedCodeChanged: [String]
        /// Sealed files that could not be read, so they were not compared (never counted as matching).
        package let unreadable: [String]
    }

    /// The rules `verify` applies, with their catalogue severities: those of the gate's archive and signature
    /// checks, which judge what it read.
    package static let rules: [Rule] = GateChecks.integrityRules

    /// The rules about trust rather than integrity: `--strict` makes them fail the verdict.
    package static let trustRules = SignatureVerifier.trustRules.all

    /// The rules `verify` applies, with `--strict` raising the trust rules to errors.
    package static func rules(strict: Bool) -> [Rule] {
        guard strict else { return rules }
        let trust = Set(trustRules.map(\.id))
        return rules.map { trust.contains($0.id) ? $0.withSeverity(.error) : $0 }
    }

    /// What was verified.
    package let target: String
    /// Every signed executable, the main app first.
    package let subjects: [Subject]
    /// Problems (breaking integrity) and notes (trust, expiry, unchecked slots).
    package let findings: [Finding]
    /// Which rules were carried out.
    package let coverage: RuleCoverage
    /// Why the resource seal was not compared with the bundles' files (`--no-resources`, or a bare Mach-O, which has
    /// no bundle); nil when it was.
    package let resourcesNotChecked: String?

    /// Verifies an ipa's bundles or a bare Mach-O.
    ///
    /// - Parameters:
    ///   - resources: Check `_CodeSignature/CodeResources` against each bundle's files and nested code, as codesign
    ///     does (the default); false only for `--no-resources`, which the report then names as not checked.
    ///   - now: The time certificate expiry is judged at.
    ///   - limits: What an ipa may hold (members, sizes).
    /// - Throws: ``InputError`` when the target cannot be read.
    package static func verify(
        path: String,
        resources: Bool = true,
        now: Date = Date(),
        limits: ArchiveLimits = .standard
    ) async throws(InputError)
        -> VerifyReport
    {
        switch try TargetKind.of(path: path) {
        case .propertyList:
            throw InputError(
                "not-a-build",
                file: path,
                "is a property list, not a build: it has no signature to verify"
            )
        case .machO:
            let executable = try MachOFile.read(path: path)
            let check = SignatureVerifier.verify(
                container: executable.container,
                pages: executable.pages,
                infoPlist: .notChecked,
                codeResources: .notChecked,
                bundle: nil,
                now: now
            )
            let reason = "a bare Mach-O has no bundle whose resources could be checked"
            var coverage = RuleCoverage()
            coverage.ran(GateChecks.integrityRules)
            coverage.withdraw(ResourceSeal.rules.all, because: reason)
            let trust = await TrustChecks.findings(
                code: TrustChecks.codeSigners(check, bundle: nil),
                profiles: [],
                now: now
            )
            return VerifyReport(
                target: path,
                subjects: [subject(path: path, check: check, seal: nil)],
                findings: Finding.merged(check.findings + trust).sorted(),
                coverage: coverage,
                resourcesNotChecked: reason
            )
        case .archive:
            let ipa = try IPAFile(path: path, limits: limits)
            let scan = try await SealScan.read(ipa, depth: resources ? .everything : .signatures)
            let seals = scan.verify(ipa: ipa, now: now)
            var subjects: [Subject] = []
            var signers: [TrustChecks.Signed] = []
            for bundleCheck in seals {
                if let signature = bundleCheck.signature {
                    // The bundle's verdict is the whole seal's: its executable, its CodeResources (present and
                    // readable) and, unless --no-resources, the files and nested code it names.
                    subjects.append(
                        subject(
                            path: bundleCheck.bundle.path,
                            check: signature,
                            seal: bundleCheck.resources,
                            valid: bundleCheck.isValid
                        )
                    )
                    signers += TrustChecks.codeSigners(signature, bundle: bundleCheck.bundle.path)
                }
                for nested in bundleCheck.nestedCode {
                    subjects.append(subject(path: nested.member, check: nested.check, seal: nil))
                    signers += TrustChecks.codeSigners(nested.check, bundle: bundleCheck.bundle.path)
                }
            }
            // The gate's own archive and signature checks judge what was read, so verify and check agree.
            let (findings, coverage) = GateChecks.integrity(
                BuildIntegrity(
                    archiveFindings: ipa.findings + scan.findings,
                    seals: seals,
                    trustFindings: await TrustChecks.findings(code: signers, profiles: [], now: now),
                    resourcesChecked: resources
                )
            )
            return VerifyReport(
                target: path,
                subjects: subjects,
                findings: findings.sorted(),
                coverage: coverage,
                resourcesNotChecked: resources ? nil : ResourceSeal.comparisonSkippedReason
            )
        }
    }

    private static func subject(
        path: String,
        check: SignatureCheck,
        seal: ResourceSealCheck?,
        valid: Bool? = nil
    ) -> Subject {
        let slices = check.slices.map { slice in
            Slice(
                architecture: slice.architecture,
                signed: slice.isSigned,
                adHoc: slice.isAdHoc,
                codeDirectories: slice.codeDirectories,
                signer: slice.cms?.signer.map { $0.subjectCommonName ?? $0.subject },
                cmsValid: slice.cms?.isValid
            )
        }
        let resources = seal.map {
            Resources(
                checked: $0.checkedCount,
                modified: $0.modified,
                missing: $0.missing,
                added: $0.added,
                nestedCodeChanged: $0.nestedCodeChanged,
                unreadable: $0.unreadable
            )
        }
        return Subject(
            path: path,
            valid: (valid ?? check.isValid) && (seal?.isValid ?? true),
            slices: slices,
            resources: resources
        )
    }

    /// Whether every subject's integrity holds (the `valid` key of `verify --format json`).
    package var isValid: Bool { !subjects.isEmpty && subjects.allSatisfy(\.valid) }

    /// The `subjects` section: one line per executable with its verdict, then its slices.
    package func section() throws -> ReportSection {
        var lines: [StyledLine] = []
        for subject in subjects {
            var line = StyledLine()
            line.append(subject.valid ? "✓ valid   " : "✗ BROKEN  ", subject.valid ? .green : .red)
            line.append(subject.path, .bold)
            lines.append(line)
            for slice in subject.slices {
                guard slice.signed else {
                    lines.append(.text("    \(slice.architecture): unsigned"))
                    continue
                }
                let hashes = slice.codeDirectories.map { "\($0.hashType) \($0.cdhash.prefix(12))…" }
                var text = "    \(slice.architecture): " + hashes.joined(separator: ", ")
                if slice.adHoc {
                    text += ", ad hoc"
                } else if let signer = slice.signer {
                    text += ", signed by \(signer)"
                }
                lines.append(.text(text))
            }
            if let resources = subject.resources {
                let broken =
                    resources.modified.count + resources.missing.count + resources.added.count
                    + resources.nestedCodeChanged.count
                let unread = resources.unreadable.isEmpty ? "" : ", \(resources.unreadable.count) could not be read"
                lines.append(.text("    resources: \(resources.checked) checked, \(broken) broken\(unread)"))
            }
        }
        if let reason = resourcesNotChecked {
            lines.append(.text("resource seal: not checked (\(reason))", .yellow))
        }
        return try ReportSection(key: "subjects", value: subjects, lines: lines)
    }
}
