import Foundation
import IPACheckPlist
import IPACheckTestSupport
import Testing

struct PlistParserTests {
    @Test func parsesXMLWithEveryValueType() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>s</key><string>caf\u{e9} &amp; co</string>
            <key>i</key><integer>-42</integer>
            <key>r</key><real>1.5</real>
            <key>t</key><true/>
            <key>f</key><false/>
            <key>d</key><date>2001-01-01T00:00:10Z</date>
            <key>b</key><data>AAEC</data>
            <key>a</key><array><string>x</string><integer>1</integer></array>
            <key>n</key><dict/>
            </dict></plist>
            """
        let value = try PlistParser.parse(Array(xml.utf8))
        #expect(value["s"] == .string("caf\u{e9} & co"))
        #expect(value["i"] == .integer(-42))
        #expect(value["r"] == .real(1.5))
        #expect(value["t"] == .bool(true))
        #expect(value["f"] == .bool(false))
        #expect(value["d"] == .date(Date(timeIntervalSinceReferenceDate: 10)))
        #expect(value["b"] == .data([0, 1, 2]))
        #expect(value["a"] == .array([.string("x"), .integer(1)]))
        #expect(value["n"] == .dictionary([:]))
    }

    /// Large arrays are walked with libplist's iterator (index access walks a list from the start in libplist 2.2,
    /// so a 1,000,000-element Info.plist took hours): every element arrives, in order.
    @Test func readsALargeArrayInOrder() throws {
        let count = 45_000
        let items = (0..<count).map { "<integer>\($0)</integer>" }.joined()
        let value = try PlistParser.parse(Array("<plist><array>\(items)</array></plist>".utf8))
        guard case .array(let elements) = value else {
            Issue.record("not an array: \(value)")
            return
        }
        #expect(elements.count == count)
        #expect(elements.enumerated().allSatisfy { $0.element == .integer(Int64($0.offset)) })
    }

    @Test func refusesXMLWithMoreValuesThanTheCap() {
        let items = String(repeating: "<true/>", count: PlistParser.maximumNodes + 10)
        #expect {
            try PlistParser.parse(Array("<plist><array>\(items)</array></plist>".utf8))
        } throws: { error in
            (error as? PlistError)?.reason == "it holds more than \(PlistParser.maximumNodes) values"
        }
    }

    @Test(arguments: [
        ("", "empty"),
        ("{\"json\": true}", "neither"),
        ("<plist><dict><key>x</key>", "malformed"),
        ("bplist00garbage", "malformed"),
    ])
    func rejectsWhatIsNotAPropertyList(input: String, expectedWord: String) {
        #expect {
            _ = try PlistParser.parse(Array(input.utf8))
        } throws: { error in
            (error as? PlistError)?.reason.contains(expectedWord) ?? false
        }
    }

    @Test func refusesNestingDeeperThanTheCap() {
        let depth = PlistParser.maximumDepth + 5
        let xml =
            "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
            + "</plist>"
        #expect(throws: PlistError.self) { _ = try PlistParser.parse(Array(xml.utf8)) }
    }

    @Test func writesXMLThatParsesBackToTheSameValue() throws {
        let value = PlistValue.dictionary([
            "application-identifier": .string("ABCDE12345.com.example<&>"),
            "get-task-allow": .bool(false),
            "com.apple.developer.associated-domains": .array([.string("applinks:example.com")]),
            "n": .integer(7),
            "empty": .array([]),
        ])
        #expect(try PlistParser.parse(Array(value.xmlDocument.utf8)) == value)
    }

    /// Differential check: every plist in the corpus reads the same through libplist and Foundation.
    @Test(
        .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"),
        arguments: [
            "macho/isign_Test.app_Info.plist",
            "macho/fastlane_very-capable-app_Info.plist",
            "macho/fastlane_simulator-app_Info.plist",
            "macho/appinfo_NotificationService.appex_Info.plist",
            "macho/appinfo_info_universal-background.plist",
            "macho/isign_Test.app_CodeResources",
            "entitlements/fastlane_very-capable-app_archived-expanded-entitlements.xcent",
            "entitlements/home-assistant_App-ios.entitlements",
            "mobileprovision/isign_test.mobileprovision.plist",
        ]
    )
    func agreesWithFoundation(path: String) throws {
        let bytes = try Corpus.bytes(path)
        let ours = try PlistParser.parse(bytes)
        // `format: nil` lends no pointer (the API's parameter is an optional pointer).
        let theirs = try unsafe PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
        #expect(ours == Self.convert(theirs))
    }

    private static func convert(_ value: Any) -> PlistValue? {
        switch value {
        case let string as String: return .string(string)
        case let date as Date: return .date(date)
        case let data as Data: return .data(Array(data))
        case let array as [Any]: return .array(array.compactMap(convert))
        case let dictionary as [String: Any]: return .dictionary(dictionary.compactMapValues(convert))
        case let number as NSNumber:
            switch unsafe String(cString: number.objCType) {  // a static C string, copied at once
            case "c", "B": return .bool(number.boolValue)
            case "d", "f": return .real(number.doubleValue)
            default: return .integer(number.int64Value)
            }
        default: return nil
        }
    }
}
