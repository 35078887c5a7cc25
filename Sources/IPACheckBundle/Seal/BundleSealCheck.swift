package import Foundation
import IPACheckBinary
import IPACheckReport
package import IPACheckSigning

/// The verdict on one bundle's seal, as `codesign --verify --deep` judges it: its executable's signature (code
/// pages, special slots, CMS), its resource seal, and the nested code (dylibs) the seal names.
package struct BundleSealCheck: Sendable {
    /// The bundle.
    package let bundle: AppBundle
    /// Its executable's signature check; `nil` when it has no readable executable.
    package let signature: SignatureCheck?
    /// Its resource seal check; `nil` when resources were not checked or the bundle has no readable seal.
    package let resources: ResourceSealCheck?
    /// The dylibs the seal names as nested code, each with its own signature check.
    package let nestedCode: [(member: String, check: SignatureCheck)]
    /// Every problem and note, in the order they were found: the family judges them into findings.
    package let problems: [Problem]
    /// Whether the integrity holds: every signature valid, and the resources (when checked) match the seal.
    package let isValid: Bool

    /// One thing the seal check found: a signature's problem, an archive's, or the resource seal's comparison.
    package enum Problem: Sendable {
        /// A signature (or seal) problem.
        case signing(SigningProblem)
        /// An executable that cannot be read.
        case archive(ArchiveProblem)
        /// Where the resource seal's comparison stands among them.
        case resources(ResourceSealCheck)
    }
}

extension SealScan {
    /// Verifies every bundle from what the pass took.
    ///
    /// - Parameters:
    ///   - ipa: The archive the pass read (for member names; nothing is read again).
    ///   - now: The time certificate expiry is judged at.
    package func verify(ipa: IPAFile, now: Date) -> [BundleSealCheck] {
        let byPath = Dictionary(bundles.map { ($0.bundle.path, $0) }, uniquingKeysWith: { first, _ in first })
        return bundles.map { scanned in
            let bundle = scanned.bundle
            var findings: [BundleSealCheck.Problem] = []
            // A link that leaves the bundle (ARC012, reported with the archive) makes codesign refuse the bundle.
            var valid = !ipa.escapingLinks.contains { $0.hasPrefix(bundle.path + "/") }
            var signature: SignatureCheck?
            switch scanned.executable {
            case .success(let executable)?:
                let check = SignatureVerifier.verify(
                    container: executable.container,
                    pages: executable.pages,
                    infoPlist: .file(bundle.infoPlistDigests),
                    codeResources: scanned.codeResourcesDigests.map { .file($0) } ?? .missing,
                    bundle: bundle.path,
                    now: now
                )
                signature = check
                findings += check.problems.map(BundleSealCheck.Problem.signing)
                valid = valid && check.isValid
            case .failure(let error)?:
                findings.append(.archive(ArchiveProblem(.unreadableExecutable, error.message, bundle: bundle.path)))
                valid = false
            case nil:
                break
            }

            var resources: ResourceSealCheck?
            var nested: [(member: String, check: SignatureCheck)] = []
            switch scanned.seal {
            case nil:
                if bundle.executable != nil {
                    findings.append(
                        .signing(
                            SigningProblem(
                                .notSealed,
                                "\(bundle.path) has no _CodeSignature/CodeResources, so its resources are not sealed.",
                                bundle: bundle.path
                            )
                        )
                    )
                    valid = false
                }
            case .failure(let error)?:
                findings.append(
                    .signing(
                        SigningProblem(
                            .sealUnreadable,
                            "The resource seal cannot be read: \(error.reason).",
                            bundle: bundle.path,
                            location: bundle.codeResources
                        )
                    )
                )
                valid = false
            case .success(let seal)? where depth == .everything:
                let prefix = bundle.path + "/"
                let listed = scanned.listed
                let check = seal.check(
                    bundleFiles: ipa.bundleMembers(of: bundle).lazy.map { member, path in
                        (path: path, isListedFile: listed?.contains(member) ?? false)
                    },
                    streamed: scanned.streamed,
                    exists: { ipa.contains(prefix + $0) },
                    linkTarget: { ipa.linkTargets[prefix + $0] },
                    nestedCodeHashes: { path in
                        if let nestedBundle = byPath[prefix + path] {
                            guard case .success(let executable)? = nestedBundle.executable else { return nil }
                            return Self.codeDirectoryHashes(executable)
                        }
                        guard case .success(let executable)? = nestedExecutable(prefix + path) else { return nil }
                        return Self.codeDirectoryHashes(executable)
                    },
                    mainExecutable: bundle.executable.map { String($0.dropFirst(prefix.count)) },
                    bundle: bundle.path
                )
                resources = check
                findings.append(.resources(check))
                valid = valid && check.isValid
                for (path, entry) in seal.entries {
                    guard case .nestedCode = entry else { continue }
                    switch nestedExecutable(prefix + path) {
                    case .success(let executable)?:
                        let check = SignatureVerifier.verify(
                            container: executable.container,
                            pages: executable.pages,
                            infoPlist: .missing,
                            codeResources: .missing,
                            bundle: bundle.path,
                            location: path,
                            now: now
                        )
                        nested.append((prefix + path, check))
                        findings += check.problems.map(BundleSealCheck.Problem.signing)
                        valid = valid && check.isValid
                    case .failure(let error)?:
                        findings.append(
                            .archive(
                                ArchiveProblem(
                                    .unreadableExecutable,
                                    error.message,
                                    bundle: bundle.path,
                                    location: path
                                )
                            )
                        )
                        valid = false
                    case nil:
                        break
                    }
                }
            case .success?:
                break
            }
            return BundleSealCheck(
                bundle: bundle,
                signature: signature,
                resources: resources,
                nestedCode: nested,
                problems: findings,
                isValid: valid
            )
        }
    }

    /// Every CodeDirectory hash of every slice of an executable: one of them is what a seal's `cdhash` names.
    private static func codeDirectoryHashes(_ executable: Executable) -> [[UInt8]] {
        executable.container.slices.flatMap { slice in
            (slice.signature?.codeDirectories ?? []).compactMap { directory in
                directory.hashType.map { CodeHash.digest($0, directory.bytes) }
            }
        }
    }
}
