import Foundation
import IPACheckTestSupport
import Testing

/// `ipacheck appflip`, `rules`, and what every subcommand shares (colour, usage errors).
struct ToolCLITests {
    // MARK: - appflip url

    /// Google's "App Flip for iOS" guide (developers.google.com/identity/account-linking/app-flip-ios): Google opens `<link>?client_id=…&scope=…&state=…&redirect_uri=…`, with
    /// redirect_uri `https://oauth-redirect.googleusercontent.com/a/<GOOGLE_APP_BUNDLE_ID>` (Google Home:
    /// com.google.Chromecast) and state echoed unchanged.
    @Test func appflipURLHasGooglesParameters() throws {
        let link = "https://acme.example/appflip/link"
        let result = try CLI.run([
            "appflip", "url", "--link", link, "--client-id", "acme-google-home", "--scope", "profile", "--state", "s",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let url = String(try #require(lines.first))
        #expect(url.hasPrefix(link + "?"))
        let items = try #require(URLComponents(string: url)?.queryItems)
        #expect(items.map(\.name) == ["client_id", "scope", "state", "redirect_uri"])
        #expect(
            items.map(\.value) == [
                "acme-google-home", "profile", "s",
                "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast",
            ]
        )
        // The redirect_uri's ":" and "/" are percent-encoded inside the query.
        let query = try #require(URLComponents(string: url)?.percentEncodedQuery)
        #expect(
            query.hasSuffix(
                "&redirect_uri=https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fa%2Fcom.google.Chromecast"
            )
        )
    }

    @Test func appflipURLAsJSONAndSandbox() throws {
        let result = try CLI.run([
            "appflip", "url", "--link", "https://acme.example/appflip/link", "--client-id", "c", "--state", "xyz",
            "--sandbox", "--format", "json",
        ])
        #expect(result.status == 0)
        let json = try result.jsonObject()
        #expect(json["state"] as? String == "xyz")
        #expect(json["clientID"] as? String == "c")
        #expect(
            json["redirectURI"] as? String
                == "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast"
        )
    }

    @Test func appflipURLWithoutStateMakesAFreshOne() throws {
        let arguments = ["appflip", "url", "--link", "https://acme.example/appflip/link", "--client-id", "c"]
        let first = try CLI.run(arguments).stdout
        let second = try CLI.run(arguments).stdout
        func state(_ url: String) -> String? {
            URLComponents(string: url.trimmingCharacters(in: .whitespacesAndNewlines))?.queryItems?
                .first { $0.name == "state" }?.value
        }
        #expect(state(first)?.isEmpty == false)
        #expect(state(first) != state(second))
    }

    @Test(arguments: [
        "http://acme.example/appflip/link", "https://acme.example/appflip/link?x=1", "https://acme.example/a#frag",
    ])
    func appflipURLRefusesALinkGoogleCannotUse(link: String) throws {
        let result = try CLI.run(["appflip", "url", "--link", link, "--client-id", "c"])
        #expect(result.status == 64, "\(result.stdout)")
        #expect(result.stdout.isEmpty)
    }

    // MARK: - appflip response

    static let redirect = "https://oauth-redirect.googleusercontent.com/a/com.google.Chromecast"

    /// §1.3: success is code + the unchanged state; failure is error (+ error_description) + state, on an
    /// accepted redirect_uri.
    @Test(
        arguments: [
            ("\(redirect)?code=abc&state=s", 0),
            ("\(redirect)?error=access_denied&state=s", 0),
            ("https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast?code=abc&state=s", 0),
            ("\(redirect)?code=abc&state=other", 1),
            ("\(redirect)?state=s", 1),
            ("https://evil.example/a/com.google.Chromecast?code=abc&state=s", 1),
            ("http://oauth-redirect.googleusercontent.com/a/com.google.Chromecast?code=abc&state=s", 1),
        ] as [(String, Int32)]
    )
    func appflipResponseVerdicts(url: String, status: Int32) throws {
        let result = try CLI.run(["appflip", "response", url, "--expect-state", "s", "--format", "json"])
        #expect(result.status == status, "\(url): \(result.stdout)")
        #expect(try result.jsonObject()["valid"] as? Bool == (status == 0))
    }

    // MARK: - rules

    @Test func rulesJSONListsUniqueIDs() throws {
        let result = try CLI.run(["rules", "--format", "json"])
        #expect(result.status == 0)
        let listing = try result.jsonObject()
        #expect(listing["$schema"] as? String == JSONSchemaURL.of("rules"))
        let rules = try #require(listing["rules"] as? [[String: Any]])
        let ids = rules.compactMap { $0["id"] as? String }
        #expect(ids.count == rules.count)
        #expect(Set(ids).count == ids.count, "duplicate rule IDs")
        #expect(ids == ids.sorted())
        for number in 1...10 {
            #expect(ids.contains(String(format: "LINK%03d", number)))
        }
        for rule in rules {
            #expect(["error", "warning", "note"].contains(rule["severity"] as? String ?? ""))
        }
    }

    @Test func rulesFiltersByIDAndRefusesUnknownOnes() throws {
        let one = try CLI.run(["rules", "link002"])
        #expect(one.status == 0)
        #expect(one.stdout.contains("LINK002"))
        #expect(!one.stdout.contains("LINK001"))
        #expect(try CLI.run(["rules", "NOPE999"]).status == 64)
    }

    // MARK: - shared behaviour

    /// Colour is off under NO_COLOR even on a terminal (`script` gives the child a pseudo-terminal), and on a
    /// terminal without NO_COLOR it is on, which shows the check can fail.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1)"))
    func noColorIsRespectedOnATerminal() throws {
        func onTerminal(noColor: Bool) throws -> String {
            let command = [CLI.binary.path, "rules", "LINK001"].map { "'\($0)'" }.joined(separator: " ")
            let arguments = ["-qec", (noColor ? "NO_COLOR=1 " : "env -u NO_COLOR TERM=xterm ") + command, "/dev/null"]
            return try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/script"), arguments).output
        }
        let plain = try onTerminal(noColor: true)
        #expect(plain.contains("LINK001"))
        #expect(!plain.contains("\u{1B}["))
        let colored = try onTerminal(noColor: false)
        #expect(colored.contains("\u{1B}["), "a terminal without NO_COLOR gets colour")
    }

    @Test(arguments: [
        ["nosuchcommand"], ["--bogus"], ["appflip", "nosuchcommand"], ["appflip", "url"],
        ["appflip", "url", "--link", "x"],
        ["appflip", "response"],
        ["appflip", "url", "--link", "https://a.example/l", "--client-id", "c", "--format", "xml"],
        ["rules", "--format", "yaml"], ["info", "a.ipa", "--timeout", "5"],
    ])
    func usageErrorsExit64(arguments: [String]) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: ["check", "match", "aasa", "explain"])
    func offlineWithoutAASADirIs64(command: String) throws {
        let operands: [String] =
            switch command {
            case "check": [SampleFiles.acme]
            case "match": ["https://acme.example/cart", "--app-id", "7QX3KD52VH.com.acme.shop"]
            case "aasa": ["acme.example"]
            default: ["https://acme.example/cart", SampleFiles.acme]
            }
        let result = try CLI.run([command] + operands + ["--offline"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--aasa-dir"))
    }
}
