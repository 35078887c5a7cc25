import Crypto
import Foundation
import IPACheckPlist
public import IPACheckReport

/// The result of checking a bundle's files against `_CodeSignature/CodeResources`.
public struct ResourceSealCheck: Hashable, Sendable {
    /// Sealed files whose bytes differ from their hash.
    public let modified: [String]
    /// Sealed, non-optional files that are absent.
    public let missing: [String]
    /// Files present in the bundle that the seal neither lists nor omits by rule.
    public let added: [String]
    /// How many sealed files were compared.
    public let checkedCount: Int
    /// One finding per problem.
    public let findings: [Finding]

    /// Whether the resources match the seal.
    public var isValid: Bool { modified.isEmpty && missing.isEmpty && added.isEmpty }
}

/// Checks a bundle's resources against its seal (`_CodeSignature/CodeResources`), as `codesign --verify` does.
///
/// The seal's `files2` dictionary maps each bundle-relative path to its hashes: a data value (SHA-1), or a
/// dictionary with `hash` (SHA-1), `hash2` (SHA-256), `optional`, `symlink`, or `cdhash`/`requirement` for
/// nested code (whose own signature covers its contents). `rules2` entries marked `omit` exclude paths by regular
/// expression. When a seal has no `files2` (very old signatures), `files` is used the same way.
public enum ResourceSeal {
    /// Every rule declared here.
    public static let rules = [modified, missingFile, addedFile]

    /// SIG030: a sealed resource was modified.
    public static let modified = Rule(
        "SIG030",
        .error,
        "sealed resource modified",
        summary: "A file of the bundle differs from the hash in _CodeSignature/CodeResources.",
        fix: "Re-sign the bundle after changing resources; never edit files inside a signed bundle."
    )
    /// SIG031: a sealed resource is missing.
    public static let missingFile = Rule(
        "SIG031",
        .error,
        "sealed resource missing",
        summary: "A file listed in _CodeSignature/CodeResources is not in the bundle.",
        fix: "Restore the file, or re-sign the bundle without it."
    )
    /// SIG032: a file was added after signing.
    public static let addedFile = Rule(
        "SIG032",
        .error,
        "file added after signing",
        summary: "A file in the bundle is not covered by _CodeSignature/CodeResources.",
        fix: "Remove the file, or re-sign the bundle so it is sealed."
    )

    /// The most files accepted in a seal, so a hostile plist cannot make us read without end.
    public static let maximumEntries = 200_000

    /// Checks the bundle's files against the seal in `codeResources`, reading each file through `read`.
    ///
    /// Paths are bundle-relative paths of regular files, e.g. `Base.lproj/Main.storyboardc/Info.plist`.
    ///
    /// - Parameters:
    ///   - codeResources: The bytes of `_CodeSignature/CodeResources`.
    ///   - bundleFiles: Every regular file of the bundle, relative to its root.
    ///   - mainExecutable: The bundle's executable (sealed by the CodeDirectory, not listed), if any.
    ///   - read: The bytes of a bundle file, or `nil` if it cannot be read.
    /// - Throws: ``CodeSignatureError`` when the seal is not a plist with `files2` or `files`.
    public static func check(
        codeResources: [UInt8],
        bundleFiles: [String],
        mainExecutable: String? = nil,
        bundle: String? = nil,
        read: (String) -> [UInt8]?
    ) throws(CodeSignatureError) -> ResourceSealCheck {
        let plist: PlistValue
        do {
            plist = try PlistParser.parse(codeResources)
        } catch {
            throw CodeSignatureError("CodeResources", error.reason)
        }
        guard let files = (plist["files2"] ?? plist["files"])?.dictionaryValue else {
            throw CodeSignatureError("CodeResources", "no files2 or files dictionary")
        }
        guard files.count <= maximumEntries else {
            throw CodeSignatureError("CodeResources", "\(files.count) entries (at most \(maximumEntries))")
        }
        let omitted = omitRules(plist["rules2"] ?? plist["rules"])
        let present = Set(bundleFiles)
        var nestedCode: [String] = []
        var modifiedFiles: [String] = []
        var missingFiles: [String] = []
        var checked = 0
        for path in files.keys.sorted() {
            guard let entry = files[path] else { continue }
            if entry["cdhash"] != nil || entry["requirement"] != nil {
                nestedCode.append(path.hasSuffix("/") ? path : path + "/")
                continue
            }
            if entry["symlink"] != nil { continue }
            let optional = entry["optional"]?.boolValue ?? false
            guard present.contains(path), let bytes = read(path) else {
                if !optional { missingFiles.append(path) }
                continue
            }
            checked += 1
            if let sha256 = entry["hash2"]?.dataValue {
                if Array(SHA256.hash(data: bytes)) != sha256 { modifiedFiles.append(path) }
            } else if let sha1 = entry["hash"]?.dataValue ?? entry.dataValue {
                if Array(Insecure.SHA1.hash(data: bytes)) != sha1 { modifiedFiles.append(path) }
            }
        }
        var addedFiles: [String] = []
        for path in bundleFiles.sorted() where files[path] == nil {
            if path == mainExecutable || path.hasPrefix("_CodeSignature/") { continue }
            if nestedCode.contains(where: { path.hasPrefix($0) || path + "/" == $0 }) { continue }
            if omitted.contains(where: { $0.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil })
            {
                continue
            }
            addedFiles.append(path)
        }
        var findings: [Finding] = []
        findings += modifiedFiles.map {
            modified.finding("\($0) was modified after signing.", bundle: bundle, location: $0)
        }
        findings += missingFiles.map {
            missingFile.finding("\($0) is sealed but missing.", bundle: bundle, location: $0)
        }
        findings += addedFiles.map { addedFile.finding("\($0) was added after signing.", bundle: bundle, location: $0) }
        return ResourceSealCheck(
            modified: modifiedFiles,
            missing: missingFiles,
            added: addedFiles,
            checkedCount: checked,
            findings: findings
        )
    }

    /// The `omit` rules of `rules2`, compiled; unparsable patterns are skipped.
    private static func omitRules(_ rules: PlistValue?) -> [NSRegularExpression] {
        guard let rules = rules?.dictionaryValue else { return [] }
        return rules.keys.sorted().compactMap { pattern in
            guard rules[pattern]?["omit"]?.boolValue == true else { return nil }
            return try? NSRegularExpression(pattern: pattern)
        }
    }
}
