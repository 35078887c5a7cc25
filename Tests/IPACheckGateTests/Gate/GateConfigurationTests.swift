import Foundation
import IPACheckGate
import IPACheckReport
import IPACheckTestSupport
import Testing

/// The config file, in JSON and in YAML: the same settings must read the same, and mistakes are refused with the
/// file and key named.
struct GateConfigurationTests {
    private func write(_ text: String, ext: String) throws -> String {
        let url = Scratch.folder.appendingPathComponent("ipacheck-\(UUID().uuidString).\(ext)")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private static let json = """
        {
          "expectedDomains": ["applinks:example.com", "webcredentials:example.com"],
          "suppress": [{"rule": "LINK005", "domain": "example.com", "reason": "CDN refresh pending"}],
          "appFlip": {"appFlipURL": "https://example.com/appflip", "clientID": "my-client", "scopes": ["profile"]},
          "firebase": {"emailLinkSignIn": true, "linkDomain": "links.example.com"},
          "failOn": "warning"
        }
        """

    private static let yaml = """
        # the same settings as the JSON above
        expectedDomains:
          - applinks:example.com
          - webcredentials:example.com
        suppress:
          - rule: LINK005
            domain: example.com
            reason: CDN refresh pending
        appFlip:
          appFlipURL: https://example.com/appflip
          clientID: my-client
          scopes: [profile]
        firebase:
          emailLinkSignIn: true
          linkDomain: links.example.com
        failOn: warning
        """

    @Test(arguments: [("json", json), ("yml", yaml), ("yaml", yaml)])
    func readsEverySetting(ext: String, text: String) throws {
        let configuration = try GateConfiguration.load(path: try write(text, ext: ext))
        #expect(configuration.expectedDomains == ["applinks:example.com", "webcredentials:example.com"])
        #expect(configuration.suppressions.map(\.rule) == ["LINK005"])
        #expect(configuration.suppressions.first?.domain == "example.com")
        #expect(configuration.suppressions.first?.reason == "CDN refresh pending")
        #expect(configuration.appFlip?.appFlipURL == "https://example.com/appflip")
        #expect(configuration.appFlip?.clientID == "my-client")
        #expect(configuration.appFlip?.scopes == ["profile"])
        #expect(configuration.firebase == FirebaseLinkSettings(emailLinkSignIn: true, linkDomain: "links.example.com"))
        #expect(configuration.failOn == .warning)
    }

    @Test(arguments: [
        ("yml", "expectedDomains: [applinks:a.com\n", "is not valid YAML"),
        ("yml", "- just\n- a list\n", "is not a YAML mapping"),
        ("yml", "expectedDomain: [applinks:a.com]\n", "unknown key expectedDomain"),
        ("yml", "suppress:\n  - rule: LINK001\n", "needs a rule and a non-empty reason"),
        // Only what check raises can be suppressed: a rule that does not exist, and one only diff raises.
        (
            "yml", "suppress:\n  - rule: LINK999\n    reason: r\n",
            "names rule LINK999, which ipacheck check does not raise"
        ),
        (
            "yml", "suppress:\n  - rule: DIFF001\n    reason: r\n",
            "names rule DIFF001, which ipacheck check does not raise"
        ),
        ("yml", "failOn: fatal\n", "failOn must be error, warning or note"),
        ("json", "{\"expectedDomains\": \"applinks:a.com\"}", "expectedDomains must be an array of strings"),
        ("json", "[1, 2]", "is not a JSON object"),
        // A base-60 integer that overflows made Yams trap (the Config fuzzer's input); now it is a string key.
        ("yml", "1111111111111111:11111111111111:11111111:11111_1111111111_4", "is not a YAML mapping"),
        ("yml", "failOn: 1111111111111111:11111111111111:11111111:11111_11111111111_4\n", "failOn must be"),
        // The appFlip object's mistakes name its key once, under appFlip (the file's name was repeated inside).
        (
            "yml", "appFlip:\n  appFlipURL: https://example.com/f\n  clientID: 5\n",
            "line 1, column 1: appFlip.clientID: must be a string, not a number",
        ),
    ])
    func refusesMistakesNamingTheFileAndKey(ext: String, text: String, expected: String) throws {
        let path = try write(text, ext: ext)
        let error = #expect(throws: InputError.self) { try GateConfiguration.load(path: path) }
        #expect(error?.code == "bad-config")
        #expect(error?.file == path)
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(path) == false, "\(error?.message ?? "")")
    }
}
