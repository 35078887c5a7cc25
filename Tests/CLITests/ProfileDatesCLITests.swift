import Foundation
import IPACheckTestSupport
import Testing

/// `ipacheck profile FILE`: a generated profile's CreationDate and ExpirationDate come out as the file says them,
/// to the second, and a profile that expires in the future is not called expired.
///
/// The expected text is what the test wrote into the profile (checked to be in the signed XML, and read back by
/// Python's plistlib when python3 is there). Before the fix, libplist 2.2's 32-bit `plist_get_date_val` turned
/// every date from 2069-01-19T03:14:08Z on into one in 1932 to 1969: the 2070, 2100 and 2117 cases failed (an
/// expiry such as `1932-12-13T20:45:52Z` and PROF001 "expired"); the 1999 and 2038 cases are inside the 32-bit
/// range and guard against a fix that breaks them.
struct ProfileDatesCLITests {
    /// A profile's two dates as written, and whether the profile has expired (today is before 2038).
    struct Case: CustomTestStringConvertible, Sendable {
        let created: String
        let createdUnix: Int64
        let expires: String
        let expiresUnix: Int64
        let expired: Bool
        var testDescription: String { expires }
    }

    static let cases: [Case] = [
        Case(
            created: "1998-05-06T07:08:09Z",
            createdUnix: 894_438_489,
            expires: "1999-05-06T07:08:09Z",
            expiresUnix: 925_974_489,
            expired: true
        ),
        Case(
            created: "2037-01-19T03:14:08Z",
            createdUnix: 2_115_947_648,
            expires: "2038-01-19T03:14:08Z",
            expiresUnix: 2_147_483_648,
            expired: false
        ),
        Case(
            created: "2069-01-01T00:00:00Z",
            createdUnix: 3_124_224_000,
            expires: "2070-01-01T00:00:00Z",
            expiresUnix: 3_155_760_000,
            expired: false
        ),
        Case(
            created: "2099-02-28T12:34:56Z",
            createdUnix: 4_075_965_296,
            expires: "2100-02-28T12:34:56Z",
            expiresUnix: 4_107_501_296,
            expired: false
        ),
        Case(
            created: "2116-06-01T00:00:00Z",
            createdUnix: 4_620_412_800,
            expires: "2117-06-01T00:00:00Z",
            expiresUnix: 4_651_948_800,
            expired: false
        ),
    ]

    /// Reads the dates of an XML plist with plistlib; with `binary`, also prints that plist as a binary one (hex).
    static let plistlib = #"""
        import plistlib, sys
        plist = plistlib.loads(open(sys.argv[1], "rb").read())
        fmt = "%Y-%m-%dT%H:%M:%SZ"
        print(plist["CreationDate"].strftime(fmt), plist["ExpirationDate"].strftime(fmt))
        if len(sys.argv) > 2:
            print(plistlib.dumps(plist, fmt=plistlib.FMT_BINARY).hex())
        """#

    @Test(arguments: cases)
    func readsAGeneratedProfilesDatesAsWritten(_ dates: Case) throws {
        let payload = ProfileBuilder.payload(
            expiration: Date(timeIntervalSince1970: TimeInterval(dates.expiresUnix)),
            creation: Date(timeIntervalSince1970: TimeInterval(dates.createdUnix))
        )
        let xml = String(decoding: ProfileBuilder(payload: payload).content, as: UTF8.self)
        #expect(xml.contains("<key>CreationDate</key>\n\t<date>\(dates.created)</date>"))
        #expect(xml.contains("<key>ExpirationDate</key>\n\t<date>\(dates.expires)</date>"))
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        if Python.isAvailable || Python.isCI {
            let plist = folder.appendingPathComponent("payload.plist")
            try Data(xml.utf8).write(to: plist)
            let reference = try Python.run(script: Self.plistlib, arguments: [plist.path])
            #expect(reference.output == "\(dates.created) \(dates.expires)\n")
        }
        let file = folder.appendingPathComponent("Dated.mobileprovision")
        try Data(try ProfileBuilder(payload: payload).build()).write(to: file)
        try Self.expectDates(of: file, dates)
    }

    /// The same profiles with a binary plist inside the envelope (converted by plistlib, an independent writer).
    @Test(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 for plistlib"), arguments: cases)
    func readsABinaryProfilesDatesAsWritten(_ dates: Case) throws {
        let payload = ProfileBuilder.payload(
            expiration: Date(timeIntervalSince1970: TimeInterval(dates.expiresUnix)),
            creation: Date(timeIntervalSince1970: TimeInterval(dates.createdUnix))
        )
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = folder.appendingPathComponent("payload.plist")
        try Data(ProfileBuilder(payload: payload).content).write(to: plist)
        let converted = try Python.run(script: Self.plistlib, arguments: [plist.path, "binary"])
        #expect(converted.status == 0, "\(converted.output)")
        let lines = converted.output.split(separator: "\n")
        try #require(lines.count == 2, "\(converted.output)")
        #expect(lines[0] == "\(dates.created) \(dates.expires)")
        let binary = try #require(Self.bytes(hex: lines[1]))
        #expect(binary.starts(with: Array("bplist00".utf8)))
        var builder = ProfileBuilder(payload: payload)
        builder.signedContent = binary
        let file = folder.appendingPathComponent("Binary.mobileprovision")
        try Data(try builder.build()).write(to: file)
        try Self.expectDates(of: file, dates)
    }

    /// The JSON report and the text report show both dates as written; PROF001 only for the past expiry.
    static func expectDates(of file: URL, _ dates: Case, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try CLI.run(["profile", file.path, "--format", "json"])
        #expect([0, 1].contains(result.status), "\(result.stderr)", sourceLocation: sourceLocation)
        let json = try result.jsonObject(sourceLocation: sourceLocation)
        let profile = try #require(json["profile"] as? [String: Any], sourceLocation: sourceLocation)
        #expect(profile["creationDate"] as? String == dates.created, sourceLocation: sourceLocation)
        #expect(profile["expirationDate"] as? String == dates.expires, sourceLocation: sourceLocation)
        let findings = try #require(json["findings"] as? [[String: Any]], sourceLocation: sourceLocation)
        let rules = findings.compactMap { $0["rule"] as? String }
        #expect(rules.contains("PROF001") == dates.expired, "\(rules)", sourceLocation: sourceLocation)
        if !dates.expired {
            #expect(!rules.contains("PROF002"), "\(rules)", sourceLocation: sourceLocation)
        }
        let text = try CLI.run(["profile", file.path])
        #expect(
            text.stdout.contains("created \(dates.created)") && text.stdout.contains("expires \(dates.expires)"),
            "\(text.stdout)",
            sourceLocation: sourceLocation
        )
    }

    static func bytes(hex: Substring) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        return try? stride(from: 0, to: digits.count, by: 2).map { index throws(HexError) -> UInt8 in
            guard let byte = UInt8(String(decoding: digits[index..<(index + 2)], as: UTF8.self), radix: 16) else {
                throw HexError()
            }
            return byte
        }
    }

    struct HexError: Error {}

    static func folder() throws -> URL {
        let folder = Scratch.folder.appendingPathComponent("ipacheck-dates-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
