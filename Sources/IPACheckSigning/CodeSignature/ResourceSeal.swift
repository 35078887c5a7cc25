import IPACheckArchive

/// A bundle's resource seal (`_CodeSignature/CodeResources`), parsed: the digest every sealed file must have, the
/// nested code it seals by cdhash, and the paths its rules leave out.
///
/// The seal's `files2` dictionary maps each bundle-relative path to its hashes: a data value (SHA-1), or a
/// dictionary with `hash` (SHA-1), `hash2` (SHA-256), `optional`, `symlink`, or `cdhash`/`requirement` for nested
/// code (whose own signature covers its contents). `rules2` entries marked `omit` exclude paths by regular
/// expression. When a seal has no `files2` (very old signatures), `files` and `rules` are used the same way.
///
/// Those expressions and the paths they are tried on both come from the ipa, so they run on ``SealRuleRegex``, a
/// matcher that never backtracks, under explicit caps; a rule it cannot evaluate omits nothing (its files are
/// reported as added) and is reported itself (SIG036).
///
/// A seal may list the files of a nested bundle one by one instead of sealing it as nested code; those are
/// compared like any other file, wherever they are in the archive.
package struct ResourceSeal: Sendable {
    /// What the seal says about one path.
    package enum Entry: Hashable, Sendable {
        /// A file with the digest it is compared with (SHA-1 only when the seal has no SHA-256); an optional file
        /// may be absent.
        case file(sha1: [UInt8]?, sha256: [UInt8]?, optional: Bool)
        /// Nested code (a framework, an extension, a dylib), sealed by its CodeDirectory hash.
        case nestedCode(cdhash: [UInt8]?)
        /// A symbolic link and its target.
        case symlink(target: String)
    }

    /// Why the seal's comparison with the files is left out with `verify --no-resources`.
    package static let comparisonSkippedReason =
        "--no-resources; codesign --verify compares the seal with the bundles' files and nested code"

    /// The most `omit` rules evaluated; the others are reported as not evaluated.
    package static let maximumOmitRules = 1_000
    /// The most instructions all compiled omit rules may have together, so memory and the cost of trying every
    /// rule on a path stay small (one rule may have ``SealRuleRegex/maximumProgramSize``).
    static let maximumTotalProgramSize = 65_536
    /// The most matcher steps one check spends on omit rules by default; files left are treated as not omitted.
    ///
    /// A real seal tries a few anchored rules on the few files it does not list (Info.plist, PkgInfo), a tiny
    /// fraction of this; a search costs at most 2 × program size × (path length + 1) steps.
    package static let maximumOmitSteps = 50_000_000

    /// An omit rule the check cannot apply, and why.
    package struct UnevaluatedRule: Hashable, Sendable {
        /// The rule's pattern, as the seal spells it.
        package let pattern: String
        /// Why it is not evaluated (unsupported syntax, a cap).
        package let reason: String
    }

    /// Every sealed path (bundle-relative) and what the seal says about it.
    package let entries: SealEntries
    /// The omit rules that leave nothing out because they cannot be evaluated.
    package let unevaluatedOmitRules: [UnevaluatedRule]
    let omitRules: [SealRuleRegex]

    /// The seal without its file entries, once they are compared elsewhere (nested code and links stay).
    package func withoutFiles() -> ResourceSeal {
        var others: [String: Entry] = [:]
        for (path, entry) in entries {
            if case .file = entry { continue }
            others[path] = entry
        }
        return ResourceSeal(
            entries: SealEntries(others),
            unevaluatedOmitRules: unevaluatedOmitRules,
            omitRules: omitRules
        )
    }

    /// What comparing a seal's file entries with the archive gave while the seal streamed past
    /// (``parseXML(pulling:maximumEntries:maximumBytes:eachEntry:)``): its ``entries`` then hold no files.
    package struct StreamedFiles: Sendable {
        /// Sealed files whose bytes differ from their hash (or that are links now), as the seal spells them.
        package var modified: [String] = []
        /// Sealed, non-optional files that are absent.
        package var missing: [String] = []
        /// How many sealed files were compared.
        package var checked = 0
        /// Sealed files whose bytes could not be read, so they were not compared (the archive's findings say why).
        package var unreadable: [String] = []

        /// Nothing compared yet.
        package init() {}
    }

    /// Checks the bundle against the seal.
    ///
    /// A seal read whole is compared from its file entries with `digests`; one compared as it streamed past
    /// (``parseXML(pulling:maximumEntries:maximumBytes:eachEntry:)``) holds no file entries, and `streamed` says what
    /// that comparison found.
    ///
    /// - Parameters:
    ///   - bundleFiles: Every regular file of the bundle relative to its root, without nested bundles' contents, and
    ///     whether a streamed file entry listed it.
    ///   - streamed: What comparing the seal's files found as it streamed past; nil for a seal read whole.
    ///   - exists: Whether a bundle-relative path names a member of the archive (nested bundles' files included).
    ///   - digests: The digests taken of a bundle-relative path (for a seal read whole).
    ///   - linkTarget: The target of a bundle-relative path that is a symbolic link; `nil` for anything else.
    ///   - nestedCodeHashes: The CodeDirectory hashes of the nested code at a bundle-relative path, if it was read.
    ///   - mainExecutable: The bundle's executable (sealed by the CodeDirectory, not listed), if any.
    ///   - bundle: The bundle path findings name.
    ///   - omitRuleSteps: The most matcher steps the omit rules may take over all files.
    package func check(
        bundleFiles: some Sequence<(path: String, isListedFile: Bool)>,
        streamed: StreamedFiles?,
        exists: (String) -> Bool,
        digests: (String) -> FileDigests? = { _ in nil },
        linkTarget: (String) -> String? = { _ in nil },
        nestedCodeHashes: (String) -> [[UInt8]]?,
        mainExecutable: String?,
        bundle: String?,
        omitRuleSteps: Int = maximumOmitSteps
    ) -> ResourceSealCheck {
        // Each problem with the seal's path, which orders them as the seal's entries are ordered.
        var modified: [(path: String, shown: String)] = []
        var missing: [(path: String, shown: String)] = []
        var changedCode: [String] = []
        var checked = 0
        var nested = NestedCodeFolders(
            prefixes: entries.compactMap { path, entry in
                guard case .nestedCode = entry else { return nil }
                return path.hasSuffix("/") ? path : path + "/"
            }
        )
        // One pass over the files: which lie inside nested code, and which the seal does not list (usually a few,
        // judged below in sorted order; the list of every file is not held).
        var unlisted: [String] = []
        for (path, isListedFile) in bundleFiles {
            nested.sort(path)
            if !isListedFile, entries[path] == nil { unlisted.append(path) }
        }
        unlisted.sort()
        for (path, entry) in entries {
            switch entry {
            case .nestedCode(let cdhash):
                let bare = path.hasSuffix("/") ? String(path.dropLast()) : path
                guard let cdhash, let hashes = nestedCodeHashes(bare) else {
                    if !exists(bare) && !nested.prefixesWithFiles.contains(bare + "/") {
                        missing.append((path, bare))
                    }
                    continue
                }
                checked += 1
                if !hashes.contains(where: { Array($0.prefix(cdhash.count)) == cdhash }) { changedCode.append(bare) }
            case .symlink(let target):
                // codesign seals a link by its target: the same link must be there, pointing at the same path.
                guard exists(path) else {
                    missing.append((path, path))
                    continue
                }
                checked += 1
                if linkTarget(path) != target { modified.append((path, path)) }
            case .file(let sha1, let sha256, let optional):
                guard exists(path) else {
                    if !optional { missing.append((path, path)) }
                    continue
                }
                if linkTarget(path) != nil {
                    // Sealed as a file, now a link.
                    checked += 1
                    modified.append((path, path))
                    continue
                }
                guard let taken = digests(path) else { continue }
                checked += 1
                if let sha256 {
                    if taken.sha256 != sha256 { modified.append((path, path)) }
                } else if let sha1, taken.sha1 != sha1 {
                    modified.append((path, path))
                }
            }
        }
        if let streamed {
            checked += streamed.checked
            modified += streamed.modified.map { ($0, $0) }
            missing += streamed.missing.map { ($0, $0) }
            modified.sort { $0.path < $1.path }
            missing.sort { $0.path < $1.path }
        }
        let modifiedFiles = modified.map(\.shown)
        let missingFiles = missing.map(\.shown)
        var addedFiles: [String] = []
        var stepsLeft = omitRuleSteps
        var untriedFiles = 0
        for path in unlisted {
            if path == mainExecutable || path.hasPrefix("_CodeSignature/") { continue }
            // codesign of the 2011 era wrote `CodeResources -> _CodeSignature/CodeResources` at the bundle's root
            // and leaves it out of the seal (Security's BundleDiskRep: "ancient-ish symlink into it").
            if path == "CodeResources", linkTarget(path) == "_CodeSignature/CodeResources" { continue }
            if nested.filesInside.contains(path) { continue }
            switch isOmitted(path, stepsLeft: &stepsLeft) {
            case true?: continue
            case false?: break
            case nil: untriedFiles += 1
            }
            addedFiles.append(path)
        }
        return ResourceSealCheck(
            modified: modifiedFiles,
            missing: missingFiles,
            added: addedFiles,
            nestedCodeChanged: changedCode,
            unreadable: (streamed?.unreadable ?? []).sorted(),
            checkedCount: checked,
            unevaluatedOmitRules: unevaluatedOmitRules,
            filesOmitRulesWereNotTriedOn: untriedFiles,
            omitRuleSteps: omitRuleSteps,
            bundle: bundle
        )
    }

    /// Whether an omit rule matches `path`; `nil` when the step budget ran out first.
    private func isOmitted(_ path: String, stepsLeft: inout Int) -> Bool? {
        guard !omitRules.isEmpty else { return false }
        let scalars = Array(path.unicodeScalars)
        for rule in omitRules {
            switch rule.search(scalars, budget: &stepsLeft) {
            case .match: return true
            case .noMatch: continue
            case .outOfSteps: return nil
            }
        }
        return false
    }
}

/// Which bundle files lie inside nested code the seal names (a framework or extension folder, sealed by its own
/// signature), and which of those folders hold files, as the files are sorted into them one by one.
///
/// Each file is cut at its `/`s and the folders found looked up, in time linear in the file names: comparing every
/// file with every nested-code entry made a seal with many entries and an archive with many files quadratic.
private struct NestedCodeFolders {
    /// The nested-code prefixes (`PlugIns/Share.appex/`) that some file lies under.
    private(set) var prefixesWithFiles = Set<String>()
    /// The files that lie under some nested-code prefix.
    private(set) var filesInside = Set<String>()

    private let prefixes: Set<String>
    /// No prefix has more `/` than this, so a file is cut no deeper.
    private let deepest: Int

    /// No file yet, for the folders `prefixes` (each ending with `/`) name.
    init(prefixes: [String]) {
        self.prefixes = Set(prefixes)
        deepest = prefixes.map { $0.count { $0 == "/" } }.max() ?? 0
    }

    /// Sorts `file` into the folders it lies in.
    mutating func sort(_ file: String) {
        guard !prefixes.isEmpty else { return }
        var slashes = 0
        var index = file.startIndex
        while slashes < deepest, let slash = file[index...].firstIndex(of: "/") {
            slashes += 1
            index = file.index(after: slash)
            let folder = String(file[..<index])
            if prefixes.contains(folder) {
                prefixesWithFiles.insert(folder)
                filesInside.insert(file)
            }
        }
    }
}

/// The result of checking a bundle's files against its resource seal.
package struct ResourceSealCheck: Hashable, Sendable {
    /// Sealed files whose bytes differ from their hash.
    package let modified: [String]
    /// Sealed, non-optional files (or nested code) that are absent.
    package let missing: [String]
    /// Files present in the bundle that the seal neither lists nor omits by rule.
    package let added: [String]
    /// Nested code whose CodeDirectory hash is not the one sealed.
    package let nestedCodeChanged: [String]
    /// Sealed files that could not be read, so their hashes were not compared.
    package var unreadable: [String] = []
    /// How many sealed files and nested code were compared.
    package let checkedCount: Int
    /// The seal's omit rules that leave nothing out because they cannot be evaluated.
    package let unevaluatedOmitRules: [ResourceSeal.UnevaluatedRule]
    /// How many files the omit rules were not tried on because the matcher's step budget ran out (they count as
    /// added when the seal does not list them).
    package let filesOmitRulesWereNotTriedOn: Int
    /// The matcher steps the omit rules were allowed over all files.
    package let omitRuleSteps: Int
    /// The bundle whose seal it is.
    package let bundle: String?

    /// Whether the resources match the seal: every sealed file was read and matches, nothing was added.
    package var isValid: Bool {
        modified.isEmpty && missing.isEmpty && added.isEmpty && nestedCodeChanged.isEmpty && unreadable.isEmpty
    }
}
