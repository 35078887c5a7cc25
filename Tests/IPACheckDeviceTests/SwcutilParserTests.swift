import Foundation
import IPACheckDevice
import IPACheckTestSupport
import Testing

/// `swcutil show` text read field by field.
///
/// Expectations come from the samples themselves (../shared/corpus/device) and from the format docs/device.md
/// describes, never from this reader's output.
struct SwcutilParserTests {
    static func utc(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }

    /// TN3155's example (S01): one entry; its Next Check is before its Last Checked, a doc artefact kept as read.
    @Test(.enabled(if: Corpus.isAvailable, "\(Corpus.absentReason)"))
    func readsTheTN3155Example() throws {
        let text = try String(contentsOf: Corpus.url("device/S01_tn3155_show_example.txt"), encoding: .utf8)
        let record = SwcutilParser.parse(text)
        #expect(record.entries.count == 1)
        let entry = try #require(record.entries.first)
        #expect(entry.service == "applinks")
        #expect(entry.appID == "1234abcd.com.example")
        #expect(entry.domain.host == "example.com" && !entry.domain.isWildcard && entry.domain.modes.isEmpty)
        #expect(entry.userApproval == .unspecified)
        #expect(entry.siteApproval == .approved)
        #expect(entry.lastChecked?.date == (try Self.utc("2023-08-24T10:09:00Z")))
        #expect(entry.nextCheck?.date == (try Self.utc("2023-08-18T21:00:19Z")))
        #expect(entry.lines == 1...7)
        #expect(record.unreadLines.isEmpty)
        #expect(!record.isVerbose)
    }

    /// The banners and separator of S05 and the SETTINGS record of S04, put together as the grammar orders them.
    @Test(.enabled(if: Corpus.isAvailable, "\(Corpus.absentReason)"))
    func readsBannersAndASettingsRecord() throws {
        let banners = try String(
            contentsOf: Corpus.url("device/S05_section_header_and_separator_lines.txt"),
            encoding: .utf8
        )
        .split(separator: "\n").map(String.init)
        let settings = try String(contentsOf: Corpus.url("device/S04_ecdigit_settings_block.txt"), encoding: .utf8)
        let text = [banners[0], "(empty)", banners[1], "(empty)", banners[2], settings, banners[3]].joined(
            separator: "\n"
        )
        let record = SwcutilParser.parse(text)
        #expect(record.hasDatabaseBanner)
        #expect(record.entries.isEmpty)
        #expect(record.settings.count == 1)
        let setting = try #require(record.settings.first)
        #expect(setting.service == "applinks" && setting.appID == "com.apple.AppStore" && setting.domain == nil)
        #expect(setting.linksEnabled == true)
        #expect(record.unreadLines.isEmpty, "\(record.unreadLines)")
    }

    /// A verbose entry shaped as Stripe's real developer-mode entry (docs/device.md, "Errors"): App Version
    /// and App PI, `?mode=developer`, the `developer` flag, an NSError description with colons inside, Retries.
    @Test func readsAVerboseEntryWithAnError() throws {
        let text = """
            Service:              applinks
            App ID:               ABCDE12345.com.example.shop
            App Version:          1.0
            App PI:               <LSPersistentIdentifier 0x1> { v = 0, t = 0x8, u = 0x2, db = 0, {length = 8, bytes = 0x00} }
            Domain:               shop.example.com?mode=developer
            User Approval:        unspecified
            Site/Fmwk Approval:   unspecified
            Flags:                developer
            Last Checked:         2021-09-23 18:16:58 +0000
            Next Check:           2021-09-23 21:21:34 +0000
            Error:                Error Domain=NSCocoaErrorDomain Code=3840 "Invalid value around line 1, column 0." UserInfo={NSDebugDescription=Invalid value around line 1, column 0., NSJSONSerializationErrorIndex=0}
            Retries:              1
            """
        let record = SwcutilParser.parse(text)
        let entry = try #require(record.entries.first)
        #expect(record.entries.count == 1)
        #expect(entry.appVersion == "1.0")
        #expect(entry.domain.host == "shop.example.com" && entry.domain.modes == ["developer"])
        #expect(entry.flags == ["developer"])
        #expect(entry.error?.domain == "NSCocoaErrorDomain" && entry.error?.code == 3840)
        #expect(entry.retries == 1)
        // Next Check 3 h 04 m 36 s after Last Checked: 11,076 s, the failure recheck delay (§5).
        let last = try #require(entry.lastChecked?.date)
        let next = try #require(entry.nextCheck?.date)
        #expect(next.timeIntervalSince(last) == 11_076)
        #expect(entry.otherFields.map(\.key) == ["App PI"])
        #expect(record.isVerbose)
    }

    /// iOS 18.2 and later may print a 12-hour time (§2.4, S06: `2024-11-15 8:51:02 PM +0000`); a form neither
    /// reading knows keeps its text and no date.
    @Test(
        arguments: [
            ("2024-11-15 8:51:02 PM +0000", "2024-11-15T20:51:02Z"),
            ("2024-11-15 12:05:00 AM +0000", "2024-11-15T00:05:00Z"),
            ("2024-11-15 12:05:00 PM +0000", "2024-11-15T12:05:00Z"),
            ("2023-02-23 23:00:15 +0000", "2023-02-23T23:00:15Z"),
            ("2023-02-23 23:00:15 +0530", "2023-02-23T17:30:15Z"),
            ("2023-02-23 23:00:15 ص +0000", nil),
            ("٢٠٢٣-٠٢-٢٣ 23:00:15 +0000", nil),
            ("2023-02-30 10:00:00 +0000", nil),
            ("yesterday", nil),
        ] as [(String, String?)]
    )
    func readsBothDateForms(raw: String, expected: String?) throws {
        let date = SwcutilDate(raw: raw)
        #expect(date.raw == raw)
        #expect(date.date == (try expected.map(Self.utc)))
    }

    /// Pasted from a terminal: colour codes and CRLF removed; an empty `Flags:`; a wildcard domain with a port.
    @Test func readsPastedTerminalOutput() throws {
        let text =
            "\u{1B}[1mService:\u{1B}[0m              webcredentials\r\n"
            + "App ID:               ABCDE12345.com.example.shop\r\n"
            + "Domain:               *.example.com:8443\r\n"
            + "User Approval:        denied\r\n"
            + "Site/Fmwk Approval:   7\r\n"
            + "Flags:                \r\n"
            + "Error:                SWCErrorDomain 7\r\n"
        let entry = try #require(SwcutilParser.parse(text).entries.first)
        #expect(entry.service == "webcredentials")
        #expect(entry.domain.isWildcard && entry.domain.host == "example.com" && entry.domain.port == "8443")
        #expect(entry.userApproval == .denied)
        #expect(entry.siteApproval == .other("7"))
        #expect(entry.flags.isEmpty)
        #expect(entry.error?.domain == "SWCErrorDomain" && entry.error?.code == 7)
    }

    /// The CDN's failure reason and HTTP status are read out of a verbose error (§4.1, the S21 wording).
    @Test func readsTheCDNReasonOutOfAnError() throws {
        let error = SwcutilError(
            raw:
                #"Error Domain=SWCErrorDomain Code=7 "…" UserInfo={NSDebugDescription=SWCERR00101 Bad HTTP Response: 403 Forbidden -- {"status":"403 Forbidden"}, NSUnderlyingError=HTTP 403}"#
        )
        #expect(error.domain == "SWCErrorDomain" && error.code == 7)
        #expect(error.cdnReason == "SWCERR00101 Bad HTTP Response: 403 Forbidden")
        #expect(error.httpStatus == 403)
    }

    /// Several entries split by dashed lines under banners, unknown keys kept, lines that fit nothing kept.
    @Test func keepsWhatItDoesNotKnow() throws {
        let dashes = String(repeating: "-", count: 80)
        let text = """
            PID:                  123
            Developer Mode:       no
            =================================== DATABASE ===================================
            Service:              applinks
            App ID:               A.one
            Domain:               one.example
            User Approval:        unspecified
            Site/Fmwk Approval:   approved
            Shiny New Key:        42
            \(dashes)
            Service:              applinks
            App ID:               B.two
            Domain:               two.example
            this line is not a field
            =================================== NETWORK ====================================
            (empty)
            """
        let record = SwcutilParser.parse(text)
        #expect(record.preamble.map(\.key) == ["PID", "Developer Mode"])
        #expect(record.developerMode == false)
        #expect(record.entries.map(\.appID) == ["A.one", "B.two"])
        #expect(record.entries[0].otherFields.map(\.key) == ["Shiny New Key"])
        #expect(record.unreadLines.map(\.number) == [14])
        #expect(record.network.isEmpty)
    }

    /// Any bytes: no crash, and what is read is what the text holds.
    @Test func survivesJunk() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0..<400, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            let record = SwcutilParser.parse(String(decoding: bytes, as: UTF8.self) + "\nService:  x\n")
            #expect(record.entries.count <= 2)
        }
    }
}
