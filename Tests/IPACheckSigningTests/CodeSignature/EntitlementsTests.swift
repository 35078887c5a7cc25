import IPACheckBinary
import IPACheckPlist
import IPACheckReport
import IPACheckSigning
import IPACheckTestSupport
import Testing

/// DER and XML entitlements, and the per-slice summary.
///
/// DER in both encodings signed apps hold: the
/// `[APPLICATION 16]` form Apple's tools write (Apple's "Using the latest code signature format"), and a bare `SET`
/// of the same key/value pairs, as a real Xcode-signed app of the corpus holds.
struct EntitlementsTests {
    typealias B = SuperBlobBuilder

    static let entries: [(String, [UInt8])] = [
        ("application-identifier", B.derString("ABCDE12345.com.example.app")),
        ("get-task-allow", B.derBool(false)),
        ("com.apple.developer.associated-domains", B.derArray([B.derString("applinks:example.com")])),
        ("nested", B.derDictionary([("level", B.derInteger(-2)), ("big", B.derInteger(70000))])),
    ]

    static let expected = PlistValue.dictionary([
        "application-identifier": .string("ABCDE12345.com.example.app"),
        "get-task-allow": .bool(false),
        "com.apple.developer.associated-domains": .array([.string("applinks:example.com")]),
        "nested": .dictionary(["level": .integer(-2), "big": .integer(70000)]),
    ])

    @Test func applicationTaggedEncoding() throws {
        #expect(try DEREntitlements.decode(B.derEntitlementsApplication(Self.entries)) == Self.expected)
    }

    @Test func bareSetEncoding() throws {
        #expect(try DEREntitlements.decode(B.derEntitlementsSet(Self.entries)) == Self.expected)
    }

    @Test(arguments: [
        ("wrong version", B.der(0x70, B.derInteger(2) + B.derDictionary([]))),
        ("octet string value", B.derEntitlementsSet([("k", B.der(0x04, [1, 2]))])),
        ("entry without key", B.der(0x31, B.der(0x30, B.derBool(true) + B.derBool(true)))),
        (
            "duplicate key",
            B.der(
                0x31,
                B.der(0x30, B.derString("a") + B.derBool(true)) + B.der(0x30, B.derString("a") + B.derBool(false))
            )
        ),
        ("nine-byte integer", B.derEntitlementsSet([("k", B.der(0x02, [1, 2, 3, 4, 5, 6, 7, 8, 9]))])),
        ("truncated", Array(B.derEntitlementsSet(Self.entries).dropLast(3))),
        ("not DER", Array("<plist/>".utf8)),
    ])
    func malformedDERIsAnError(name: String, bytes: [UInt8]) {
        #expect(throws: CodeSignatureError.self, "\(name)") { try DEREntitlements.decode(bytes) }
    }

    /// An unsigned 64-bit value above `Int64.max` is nine DER bytes with a leading zero: kept as written, so the
    /// DER form equals the XML form of the same entitlements.
    @Test func unsigned64BitIntegersAreKept() throws {
        let bytes = B.derEntitlementsSet([("k", B.der(0x02, [0] + [UInt8](repeating: 0xFF, count: 8)))])
        #expect(try DEREntitlements.decode(bytes) == .dictionary(["k": .unsignedInteger(.max)]))
    }

    @Test func depthIsCapped() {
        var value = B.derBool(true)
        for _ in 0..<(DEREntitlements.maximumDepth + 5) { value = B.derArray([value]) }
        #expect(throws: CodeSignatureError.self) { try DEREntitlements.decode(B.derEntitlementsSet([("deep", value)])) }
    }

    @Test func xmlAndDERThatDisagreeAreReported() throws {
        var signing = MachOBuilder.Signing()
        signing.xmlEntitlements = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>get-task-allow</key><true/></dict></plist>
            """.utf8
        )
        signing.derEntitlements = B.derEntitlementsApplication([("get-task-allow", B.derBool(false))])
        let signature = try #require(
            try MachOContainer.parse(MachOBuilder.slice(signing: signing)).slices.first?.signature
        )
        let entitlements = SignedEntitlements.read(signature, context: "arm64")
        #expect(entitlements.agree == false)
        #expect(entitlements.effective == .dictionary(["get-task-allow": .bool(false)]))  // DER wins (iOS 15+)
        #expect(entitlements.problems.map(\.kind) == [.xmlDERDisagree])
    }

    @Test func slicesWithDifferentEntitlementsAreReported() throws {
        let allow = try SignedEntitlementsFixture.with(getTaskAllow: true)
        let deny = try SignedEntitlementsFixture.with(getTaskAllow: false)
        let findings = SignedEntitlements.compareSlices([("armv7", allow), ("arm64", deny)])
        #expect(findings.map(\.kind) == [.slicesDisagree])
        #expect(SignedEntitlements.compareSlices([("armv7", allow), ("arm64", allow)]).isEmpty)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func demoXMLAndBareSetDERAgree() throws {
        let container = try MachOContainer.parse(try Corpus.bytes("macho/appinfo_embedded.ipa_Demo_exec"))
        let signature = try #require(container.slices.first?.signature)
        let entitlements = SignedEntitlements.read(signature, context: "arm64")
        // MANIFEST/brief: XML and DER must agree. Values from the XML document in the blob (python3 dump).
        #expect(entitlements.agree == true)
        #expect(entitlements.problems.isEmpty)
        #expect(entitlements.der?["application-identifier"] == .string("72LA85G59H.com.icyleaf.test.Demo"))
        #expect(entitlements.der?["get-task-allow"] == .bool(false))
        #expect(entitlements.der?["keychain-access-groups"] == .array([.string("72LA85G59H.com.icyleaf.test.Demo")]))
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func isignXMLEntitlementsMatchConstructDump() throws {
        let container = try MachOContainer.parse(try Corpus.bytes("macho/isign_Test.app_isignTestApp"))
        var perSlice: [(String, SignedEntitlements)] = []
        for slice in container.slices {
            let signature = try #require(slice.signature)
            perSlice.append(
                (slice.architecture.name, SignedEntitlements.read(signature, context: slice.architecture.name))
            )
        }
        // construct: data = {'application-identifier': 'L37S4Z6BE9.com.saucelabs.isignTestApp',
        // 'com.apple.developer.team-identifier': 'L37S4Z6BE9', 'keychain-access-groups': [...], 'get-task-allow': True}
        let expected = PlistValue.dictionary([
            "application-identifier": .string("L37S4Z6BE9.com.saucelabs.isignTestApp"),
            "com.apple.developer.team-identifier": .string("L37S4Z6BE9"),
            "keychain-access-groups": .array([.string("L37S4Z6BE9.com.saucelabs.isignTestApp")]),
            "get-task-allow": .bool(true),
        ])
        for (_, entitlements) in perSlice {
            #expect(entitlements.xml == expected)
            #expect(entitlements.der == nil)
            #expect(entitlements.effective == expected)
            #expect(entitlements.problems.map(\.kind) == [.noDER])  // XML only: no DER form
        }
        #expect(SignedEntitlements.compareSlices(perSlice).isEmpty)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func fastlaneEntitlementsListWebCredentials() throws {
        let container = try MachOContainer.parse(try Corpus.bytes("macho/fastlane_very-capable-app"))
        let signature = try #require(container.slices.first?.signature)
        let entitlements = SignedEntitlements.read(signature, context: "arm64")
        // MANIFEST: associated-domains incl. webcredentials:example.com
        let domains = try #require(entitlements.effective?["com.apple.developer.associated-domains"]?.stringArray)
        #expect(domains.contains("webcredentials:example.com"))
    }
}

/// Builds ``SignedEntitlements`` values through the public reader, from a generated signature.
enum SignedEntitlementsFixture {
    static func with(getTaskAllow: Bool) throws -> SignedEntitlements {
        var signing = MachOBuilder.Signing()
        signing.derEntitlements = SuperBlobBuilder.derEntitlementsApplication([
            ("get-task-allow", SuperBlobBuilder.derBool(getTaskAllow))
        ])
        let signature = try #require(
            try MachOContainer.parse(MachOBuilder.slice(signing: signing)).slices.first?.signature
        )
        return SignedEntitlements.read(signature, context: "x")
    }
}
