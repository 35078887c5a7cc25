import Foundation
import IPACheckPlist
import IPACheckTestSupport
import Testing

/// Dates read as the file says them, in XML and binary property lists, from 1900 to 2200, to the second.
///
/// Every expected value is a literal the test wrote: the ISO 8601 text and its Unix time (from `date -u -d TEXT
/// +%s`). libplist 2.2's `plist_get_date_val` returns 32-bit seconds since 2001, so before the fix every date from
/// 2069-01-19T03:14:08Z on (and before 1932-12-13T20:45:52Z) came back wrapped: the XML cases from 2069-12-31 and
/// 1900, every binary case and the hostile ones (read as 1932 instead of refused) fail on that code.
struct PlistDateTests {
    /// A date as written in a file and the Unix time it stands for.
    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        let unix: Int64
        var testDescription: String { text }
        var date: Date { Date(timeIntervalSince1970: TimeInterval(unix)) }
        /// Seconds since 2001-01-01, what a binary plist stores.
        var referenceSeconds: Double { Double(unix - 978_307_200) }
    }

    static let cases: [Case] = [
        Case(text: "1900-01-01T00:00:00Z", unix: -2_208_988_800),
        Case(text: "1999-05-06T07:08:09Z", unix: 925_974_489),
        Case(text: "2038-01-19T03:14:08Z", unix: 2_147_483_648),
        Case(text: "2069-12-31T23:59:59Z", unix: 3_155_759_999),
        Case(text: "2070-01-01T00:00:00Z", unix: 3_155_760_000),
        Case(text: "2100-02-28T12:34:56Z", unix: 4_107_501_296),
        Case(text: "2117-06-01T00:00:00Z", unix: 4_651_948_800),
        Case(text: "2200-12-31T23:59:59Z", unix: 7_289_654_399),
    ]

    /// The binary cases the brief names (also in `cases`).
    static let binaryCases = cases.filter {
        ["1900-01-01T00:00:00Z", "2069-12-31T23:59:59Z", "2117-06-01T00:00:00Z", "2200-12-31T23:59:59Z"]
            .contains($0.text)
    }

    static func xml(_ text: String) -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>d</key><date>\(text)</date></dict></plist>
            """.utf8
        )
    }

    // MARK: - XML

    /// libplist's reading (``PlistParser``) of an XML `<date>`, written back as the same text.
    @Test(arguments: cases)
    func readsAnXMLDateExactly(_ date: Case) throws {
        let value = try PlistParser.parse(Self.xml(date.text))
        #expect(value["d"] == .date(date.date))
        #expect(value["d"]?.dateValue?.timeIntervalSince1970 == TimeInterval(date.unix))
        #expect(value["d"]?.oneLine == date.text)
    }

    /// The streaming reader reads the same text to the same date.
    @Test(arguments: cases)
    func streamingReaderReadsAnXMLDateExactly(_ date: Case) throws {
        var reader = try XMLPlistReader(Self.xml(date.text))
        let value = try reader.readValue()
        try reader.finish()
        #expect(value["d"] == .date(date.date))
    }

    /// What ipacheck writes as XML reads back as the same date through libplist.
    @Test(arguments: cases)
    func writesAndReadsBackAnXMLDate(_ date: Case) throws {
        let document = PlistValue.dictionary(["d": .date(date.date)]).xmlDocument
        #expect(document.contains("<date>\(date.text)</date>"))
        #expect(try PlistParser.parse(Array(document.utf8))["d"] == .date(date.date))
    }

    // MARK: - Binary

    /// A binary plist whose date object holds `seconds` since 2001, as the test laid it out: in a dictionary
    /// under `d`, or as the top object.
    @Test(arguments: binaryCases)
    func readsABinaryDateExactly(_ date: Case) throws {
        let inDictionary = try PlistParser.parse(DatePlistBytes.dictionary(key: "d", seconds: date.referenceSeconds))
        #expect(inDictionary["d"] == .date(date.date))
        #expect(inDictionary["d"]?.oneLine == date.text)
        let alone = try PlistParser.parse(DatePlistBytes.date(bits: date.referenceSeconds.bitPattern))
        #expect(alone == .date(date.date))
    }

    /// A fraction of a second survives, and the text drops it rounding down, before 1970 as after.
    @Test func keepsAFractionOfASecond() throws {
        let later = try PlistParser.parse(DatePlistBytes.dictionary(key: "d", seconds: 3_673_641_600.25))
        #expect(later["d"] == .date(Date(timeIntervalSinceReferenceDate: 3_673_641_600.25)))
        #expect(later["d"]?.oneLine == "2117-06-01T00:00:00Z")
        let earlier = try PlistParser.parse(DatePlistBytes.dictionary(key: "d", seconds: -978_307_200.5))
        #expect(earlier["d"] == .date(Date(timeIntervalSince1970: -0.5)))
        #expect(earlier["d"]?.oneLine == "1969-12-31T23:59:59Z")
    }

    /// Python's plistlib writes the binary plists here (an independent writer), and ipacheck reads them as the
    /// dates the test asked for.
    @Test(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 for plistlib"))
    func readsBinaryDatesThatPlistlibWrote() throws {
        let script = """
            import datetime, plistlib, sys
            dates = [datetime.datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ") for t in sys.argv[1:]]
            sys.stdout.write(plistlib.dumps({"dates": dates}, fmt=plistlib.FMT_BINARY).hex())
            """
        let result = try Python.run(script: script, arguments: Self.cases.map(\.text))
        #expect(result.status == 0, "\(result.output)")
        let bytes = try #require(Self.bytes(hex: result.output))
        let value = try PlistParser.parse(bytes)
        #expect(value["dates"] == .array(Self.cases.map { .date($0.date) }))
    }

    // MARK: - Hostile values

    /// A date object is a float64 the file chooses: none of these crashes, each is refused with a reason.
    @Test(arguments: [
        Double.nan, -Double.nan, Double.signalingNaN, Double.infinity, -Double.infinity, 1e300, -1e300,
        Double.greatestFiniteMagnitude, PlistDate.end, PlistDate.earliest - 1,
    ])
    func refusesADateNoCalendarHolds(_ seconds: Double) throws {
        #expect(throws: PlistError.self) {
            try PlistParser.parse(DatePlistBytes.dictionary(key: "d", seconds: seconds))
        }
        #expect(throws: PlistError.self) { try PlistParser.parse(DatePlistBytes.date(bits: seconds.bitPattern)) }
    }

    /// NaN payloads other than the canonical one are refused too.
    @Test func refusesEveryNaNBitPattern() throws {
        for bits: UInt64 in [0x7FF0_0000_0000_0001, 0xFFF8_0000_0000_0000, 0x7FFF_FFFF_FFFF_FFFF] {
            #expect(throws: PlistError.self) { try PlistParser.parse(DatePlistBytes.date(bits: bits)) }
        }
    }

    /// The ends of the accepted range: years 1 and 9999 (`NSDate.distantPast` is 0001-01-01).
    @Test func readsTheEndsOfTheRange() throws {
        let first = try PlistParser.parse(DatePlistBytes.date(bits: PlistDate.earliest.bitPattern))
        #expect(first.oneLine == "0001-01-01T00:00:00Z")
        let last = try PlistParser.parse(DatePlistBytes.date(bits: (PlistDate.end - 1).bitPattern))
        #expect(last.oneLine == "9999-12-31T23:59:59Z")
    }

    /// A truncated date object (the marker, then fewer than eight bytes before the offset table) is refused, not
    /// read past its end. (libplist refuses this file itself, so this passes on the old code too: it guards the
    /// new path against a crash.)
    @Test func refusesATruncatedDateObject() {
        var bytes = Array("bplist00".utf8) + [0x33, 0x41, 0xDB]
        let table = bytes.count
        bytes.append(8)
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + DatePlistBytes.int64(1) + DatePlistBytes.int64(0)
        bytes += DatePlistBytes.int64(table)
        #expect(throws: PlistError.self) { try PlistParser.parse(bytes) }
    }

    // MARK: - XML text

    /// Text that is not a date, or names a day no calendar has, is refused by the streaming reader.
    @Test(arguments: [
        "2100-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2023-13-01T00:00:00Z", "2023-04-31T00:00:00Z",
        "2023-01-01T24:00:00Z", "2023-01-01T00:60:00Z", "2023-01-01T00:00:60Z", "0000-01-01T00:00:00Z",
        "10000-01-01T00:00:00Z", "2023-01-01T00:00:00", "2023-01-01T00:00:00+01:00", "2023-01-01 00:00:00Z",
        "2023-1-01T00:00:00Z", "2023-01-01T00:00:00.Z", "+2023-01-01T00:00:00Z", "", "garbage",
    ])
    func refusesTextThatIsNotADate(_ text: String) throws {
        #expect(PlistDate.date(iso8601: text) == nil)
        #expect(throws: PlistError.self) {
            var reader = try XMLPlistReader(Self.xml(text))
            _ = try reader.readValue()
        }
    }

    /// Leap days and fractions are read.
    @Test func readsLeapDaysAndFractions() {
        #expect(PlistDate.date(iso8601: "2000-02-29T00:00:00Z") == Date(timeIntervalSince1970: 951_782_400))
        #expect(PlistDate.date(iso8601: "2196-02-29T23:59:59Z") == Date(timeIntervalSince1970: 7_137_071_999))
        #expect(PlistDate.date(iso8601: "2117-06-01T00:00:00.5Z") == Date(timeIntervalSince1970: 4_651_948_800.5))
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<(index + 2)], as: UTF8.self), radix: 16) else {
                return nil
            }
            out.append(byte)
        }
        return out
    }
}

/// Binary property lists laid out by hand, byte by byte, so a date object can hold any float64.
enum DatePlistBytes {
    /// `{ key: date }` with the date object holding `seconds` since 2001.
    static func dictionary(key: String, seconds: Double) -> [UInt8] {
        // Objects: 0 the dictionary (one key reference, one value reference), 1 the key, 2 the date.
        let keyBytes = Array(key.utf8)
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.append(bytes.count)
        bytes += [0xD1, 1, 2]
        offsets.append(bytes.count)
        bytes += [0x50 | UInt8(keyBytes.count)] + keyBytes
        offsets.append(bytes.count)
        bytes += [0x33] + int64(seconds.bitPattern)
        return finish(bytes, offsets: offsets)
    }

    /// A plist whose only object is a date holding the float64 with bit pattern `bits`.
    static func date(bits: UInt64) -> [UInt8] {
        let bytes = Array("bplist00".utf8) + [0x33] + int64(bits)
        return finish(bytes, offsets: [8])
    }

    /// Appends the offset table (one byte per offset) and the trailer (top object 0).
    private static func finish(_ body: [UInt8], offsets: [Int]) -> [UInt8] {
        var bytes = body
        let table = bytes.count
        bytes += offsets.map { UInt8($0) }
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + int64(offsets.count) + int64(0) + int64(table)
        return bytes
    }

    /// `value` as eight big-endian bytes.
    static func int64(_ value: some BinaryInteger) -> [UInt8] {
        let bits = UInt64(truncatingIfNeeded: value)
        return (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * $0)) }
    }
}
