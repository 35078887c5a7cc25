import Foundation
import Testing

@testable import IPACheckFetching

/// `--resolve HOST:PORT:ADDRESS` is read as curl reads it (curl(1), `--resolve`: "Provide a custom address for a
/// specific host and port pair", an IPv6 address within brackets), and a value curl would refuse is refused with
/// what is wrong in it.
struct ResolveOverrideTests {
    @Test(
        "the forms curl accepts are read",
        arguments: [
            ("example.com:443:127.0.0.1", "example.com", 443, "127.0.0.1"),
            ("Example.COM:8443:[::1]", "example.com", 8443, "::1"),
            ("a.test:1:::1", "a.test", 1, "::1"),
            ("a.test:65535:10.0.0.2", "a.test", 65535, "10.0.0.2"),
        ]
    )
    func acceptedForms(text: String, host: String, port: Int, address: String) throws {
        let parsed = try ResolveOverride(parsing: text)
        #expect(parsed.host == host)
        #expect(parsed.port == port)
        #expect(parsed.address == address)
        #expect(parsed.connectPort == nil)
    }

    @Test(
        "a value curl would refuse is refused, naming what is wrong",
        arguments: [
            ("example.com:443", "expected HOST:PORT:ADDRESS"),
            (":443:127.0.0.1", "the host is empty"),
            ("a/b:443:127.0.0.1", "not a host name"),
            ("example.com:0:127.0.0.1", "is not a number from 1 to 65535"),
            ("example.com:https:127.0.0.1", "is not a number from 1 to 65535"),
            ("example.com:443:", "the address is empty"),
            ("example.com:443:localhost", "is not an IP address"),
        ]
    )
    func refusedForms(text: String, reason: String) {
        #expect {
            _ = try ResolveOverride(parsing: text)
        } throws: { error in
            let message = (error as? ResolveOverride.SyntaxError)?.description ?? ""
            return message.hasPrefix("--resolve '\(text)': ") && message.contains(reason)
        }
    }

    @Test("options clamp what cannot be zero or less, and say whether they forbid the network")
    func optionsClampAndSayOffline() {
        let options = FetchOptions(bodyLimit: 0, maximumConcurrentHosts: -3)
        #expect(options.bodyLimit == 1)
        #expect(options.maximumConcurrentHosts == 1)
        #expect(!options.isOffline)
        #expect(FetchOptions(offlineDirectory: URL(fileURLWithPath: "/tmp")).isOffline)
        #expect(FetchOptions().cdnBase?.absoluteString == FetchOptions.appleCDN)
    }
}
