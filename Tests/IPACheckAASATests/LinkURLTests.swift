import IPACheckAASA
import Testing

/// ``LinkURL``: the one URL parser, as the checks read URLs.
struct LinkURLTests {
    @Test func splitsEveryPart() {
        let url = LinkURL("HTTPS://user:pw@Example.COM:8443/a/b%20c?x=1&y=%2F&flag#top")
        #expect(url.scheme == "https")
        #expect(url.userInfo == "user:pw")
        #expect(url.host == "example.com")
        #expect(url.port == "8443")
        #expect(url.path == "/a/b%20c")
        #expect(url.query == "x=1&y=%2F&flag")
        #expect(url.fragment == "top")
        #expect(url.queryItems.map(\.name) == ["x", "y", "flag"])
        #expect(url.queryItems.map(\.value) == ["1", "/", ""])
    }

    @Test func ipv6HostAndPort() {
        let url = LinkURL("https://[::1]:443/x")
        #expect(url.host == "::1")
        #expect(url.port == "443")
        #expect(url.path == "/x")
    }

    @Test(arguments: [
        ("example.com/x", "no http or https scheme"),
        ("ftp://example.com/x", "ftp: links never open apps"),
        ("https:///x", "no host"),
        ("mailto:a@example.com", "no http or https scheme"),
    ])
    func refusesWhatIsNotAUniversalLink(text: String, reason: String) {
        #expect(throws: LinkURL.NotAUniversalLink.self) { try LinkURL.universalLink(text) }
        do {
            _ = try LinkURL.universalLink(text)
        } catch {
            #expect(error.reason.contains(reason), "\(error.reason)")
            #expect(error.description.hasPrefix(text))
        }
    }

    @Test func acceptsHTTPAndHTTPS() throws {
        #expect(try LinkURL.universalLink("http://example.com").host == "example.com")
        #expect(try LinkURL.universalLink("https://example.com/x?y").path == "/x")
    }

    /// `+` stays literal (iOS does not read it as a space); bad escapes are kept as written.
    @Test func percentDecoding() {
        #expect(LinkURL.percentDecoded("a%20b+c") == "a b+c")
        #expect(LinkURL.percentDecoded("100%") == "100%")
        #expect(LinkURL.percentDecoded("%zz") == "%zz")
        #expect(LinkURL.percentDecoded("%C3%A9") == "é")
    }
}
