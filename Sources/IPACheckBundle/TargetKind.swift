import Foundation
import IPACheckArchive
import IPACheckBinary
package import IPACheckReport

/// What kind of file the user pointed a command at, judged by its first bytes rather than its name.
package enum TargetKind: Sendable, Hashable {
    /// A zip archive (an ipa, or something that claims to be one), or a folder read as one (an `.app`, an
    /// `.xcarchive`, an unpacked ipa).
    case archive
    /// A bare Mach-O, thin or fat.
    case machO
    /// A property list: an entitlements file (`.entitlements`, `.xcent`).
    case propertyList

    /// Sniffs the file at `path`, following it when it is a symbolic link (the user's own path to an ipa, an `.app`
    /// or an `.xcarchive`; links inside a bundle are never followed, see ``IPAFile``).
    ///
    /// - Throws: ``InputError`` when the file cannot be read or is neither a zip nor a Mach-O.
    package static func of(path: String) throws(InputError) -> TargetKind {
        var isDirectory: ObjCBool = false
        // `&isDirectory` lends Foundation a pointer to a local for the call only.
        if unsafe FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return .archive
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            // A link is followed, so a dangling one is a missing file: say where it points.
            if !exists, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                throw InputError("unreadable", file: path, "is a symbolic link to \(target), which does not exist")
            }
            throw InputError.unreadableFile(path)
        }
        defer { try? handle.close() }
        let start = Array((try? handle.read(upToCount: 64)) ?? Data())
        if Self.isPropertyList(start) { return .propertyList }
        let head = Array(start.prefix(4))
        guard head.count == 4 else {
            throw InputError("too-short", file: path, "is too short to be an ipa or a Mach-O")
        }
        if head == [0x50, 0x4B, 0x03, 0x04] || head == [0x50, 0x4B, 0x05, 0x06] { return .archive }
        let magic = head.reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
        let machOMagics: Set<UInt32> = [
            0xcafe_babe, 0xcafe_babf, 0xfeed_face, 0xfeed_facf, 0xcefa_edfe, 0xcffa_edfe,
        ]
        if machOMagics.contains(magic) { return .machO }
        // A zip with data before it (a self-extractor's stub, offsets adjusted) ends as every zip does: read it as
        // the archive reader does, whichever command was asked.
        if ZipArchive.endsLikeAZip(path: path) { return .archive }
        if start.first(where: { $0 > 0x20 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) == UInt8(ascii: "{") {
            // An AASA file given where a build was asked for (a frequent mix-up): say so, and which command reads it.
            let content = start + Array((try? handle.read(upToCount: 64 * 1024)) ?? Data())
            let services = ["\"applinks\"", "\"webcredentials\"", "\"appclips\"", "\"activitycontinuation\""]
            if services.contains(where: { content.firstRange(of: Array($0.utf8)) != nil }) {
                throw InputError(
                    "not-a-build",
                    file: path,
                    "is an apple-app-site-association file, not a build: `ipacheck lint` reads it"
                )
            }
            throw InputError("unknown-format", file: path, "is JSON, not an ipa, a Mach-O or a property list")
        }
        if Self.isSignedData(start) {
            // A provisioning profile given where a build was asked for: say so, and which command reads it.
            let content = start + Array((try? handle.read(upToCount: 64 * 1024)) ?? Data())
            if content.firstRange(of: Array("<key>DeveloperCertificates</key>".utf8)) != nil {
                throw InputError(
                    "not-a-build",
                    file: path,
                    "is a provisioning profile, not a build: `ipacheck profile` reads it"
                )
            }
            throw InputError(
                "unknown-format",
                file: path,
                "is CMS-signed data, not an ipa, a Mach-O or a property list"
            )
        }
        throw InputError("unknown-format", file: path, "is neither an ipa (zip), a Mach-O nor a property list")
    }

    /// Whether the first bytes of a file start a DER CMS `ContentInfo` of type signedData (RFC 5652 §3, §5.1): a
    /// SEQUENCE whose first element is the OID 1.2.840.113549.1.7.2.
    static func isSignedData(_ head: [UInt8]) -> Bool {
        let signedData: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        return head.first == 0x30 && head.prefix(16).firstRange(of: signedData) != nil
    }

    /// Whether the first bytes of a file start a property list, XML (after any BOM and white space) or binary.
    static func isPropertyList(_ head: [UInt8]) -> Bool {
        let text = String(decoding: head.drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 <= 0x20 }, as: UTF8.self)
        return text.hasPrefix("bplist") || text.hasPrefix("<?xml") || text.hasPrefix("<plist")
            || text.hasPrefix("<!DOCTYPE plist")
    }
}
