import Foundation
import IPACheckReport
import IPACheckTestSupport
import Testing

/// SARIF 2.1.0 output.
///
/// Validated against OASIS's schema (Fixtures/sarif-schema-2.1.0.json) with python3's
/// `jsonschema`; field expectations come from the SARIF 2.1.0 spec (§3.27 result, §3.49 reportingDescriptor,
/// §3.4 artifactLocation, §3.33 logicalLocation; §3.30 region, left out when there is no line to name).
struct SARIFRendererTests {
    /// Every field populated: bundle, domain, URL, location, fix, text needing escapes, a path needing
    /// percent-encoding, a rule missing from the catalogue, and a clean input.
    static func fullReport() -> Report {
        Report(
            tool: Sample.tool,
            gate: FailThreshold(failOn: .warning),
            rules: Sample.rules,
            checked: [
                "build/My App (1).ipa": [
                    Sample.mixedFormats.finding(
                        "The file mixes \"paths\" & <components>, 100%: really.\nSecond line ✓",
                        bundle: "Payload/App.app/PlugIns/Share.appex",
                        domain: "applinks:example.com",
                        url: "https://example.com/a?b=c,d",
                        location: "applinks.details[0]"
                    ),
                    Sample.unsafePath.finding("Member escapes the archive.", location: "../evil"),
                    Sample.noteRule.finding("Uses developer mode.", bundle: "Payload/App.app"),
                    Finding(rule: "TNW001", severity: .warning, message: "Not in the catalogue."),
                ],
                "Café.ipa": [],
            ]
        )
    }

    /// Runs the shared SARIF 2.1.0 schema validator (Tests/Support/Python.swift) over a SARIF text.
    static func validate(_ sarif: String) throws -> (status: Int32, output: String) {
        try Python.validateSARIF(sarif)
    }

    static let canValidate = Python.hasJSONSchema || Python.isCI

    @Test(.enabled(if: canValidate, "needs python3 with jsonschema (required when CI=true)"))
    func fullReportIsValidSARIF() throws {
        #expect(Python.hasJSONSchema, "python3 -c 'import jsonschema' failed; pip install jsonschema")
        let result = try Self.validate(try SARIFRenderer().render(Self.fullReport()))
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.hasSuffix("valid\n"))
    }

    @Test(.enabled(if: canValidate, "needs python3 with jsonschema (required when CI=true)"))
    func emptyReportIsValidSARIF() throws {
        #expect(Python.hasJSONSchema, "python3 -c 'import jsonschema' failed; pip install jsonschema")
        let result = try Self.validate(try SARIFRenderer().render(Report(tool: Report.Tool(version: "0.0.1"))))
        #expect(result.status == 0, "\(result.output)")
    }

    /// The validation can fail: a level the schema does not allow, and a URI with a raw space, are rejected.
    @Test(.enabled(if: canValidate, "needs python3 with jsonschema (required when CI=true)"))
    func validatorRejectsBrokenLogs() throws {
        let good = try SARIFRenderer().render(Sample.report())
        let badLevel = good.replacingOccurrences(of: #""level" : "error""#, with: #""level" : "fatal""#)
        #expect(badLevel != good)
        let levelResult = try Self.validate(badLevel)
        #expect(levelResult.status == 1)
        #expect(levelResult.output.contains("'fatal' is not one of"))
        let badURI = good.replacingOccurrences(of: #""uri" : "build/App.ipa""#, with: #""uri" : "build/App 2.ipa""#)
        #expect(badURI != good)
        let uriResult = try Self.validate(badURI)
        #expect(uriResult.status == 1)
        #expect(uriResult.output.contains("uri-reference"))
    }

    private func log(_ report: Report) throws -> [String: Any] {
        let text = try SARIFRenderer().render(report)
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    private func run(_ report: Report) throws -> [String: Any] {
        let runs = try #require(try log(report)["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        return try #require(runs.first)
    }

    @Test func logHeader() throws {
        let object = try log(Sample.report())
        #expect(object["version"] as? String == "2.1.0")
        #expect(
            object["$schema"] as? String
                == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
        )
    }

    @Test func driverAndRuleCatalogue() throws {
        let run = try run(Sample.report())
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "ipacheck")
        #expect(driver["version"] as? String == "1.2.0")
        #expect(driver["informationUri"] as? String == "https://example.com/ipacheck")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == ["TAA104", "TAR001", "TEN010", "ZZZ999"])
        let rule = try #require(rules.first)
        #expect(rule["name"] as? String == "MixedLegacyAndModernFormats")
        #expect((rule["shortDescription"] as? [String: String]) == ["text": "mixed legacy and modern formats"])
        #expect((rule["fullDescription"] as? [String: String]) == ["text": "The file mixes `paths` and `components`."])
        #expect(
            (rule["help"] as? [String: String])
                == ["text": "The file mixes `paths` and `components`.\n\nFix: Use only `components`."]
        )
        #expect((rule["defaultConfiguration"] as? [String: String]) == ["level": "error"])
        #expect(rule["helpUri"] as? String == "https://example.com/ipacheck#taa104")
        #expect((rules[2]["defaultConfiguration"] as? [String: String]) == ["level": "note"])
    }

    @Test func resultsCarryRuleLevelMessageAndLocations() throws {
        let run = try run(Self.fullReport())
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == ["TAA104", "TAR001", "TNW001", "TEN010"])
        #expect(results.map { $0["level"] as? String } == ["error", "warning", "warning", "note"])
        // ruleIndex points into tool.driver.rules (§3.27.6); absent for a rule the catalogue lacks.
        #expect(results.map { $0["ruleIndex"] as? Int } == [0, 1, nil, 2])

        let first = try #require(results.first)
        #expect(
            (first["message"] as? [String: String])
                == [
                    "text":
                        "The file mixes \"paths\" & <components>, 100%: really.\nSecond line ✓\nFix: Use only `components`."
                ]
        )
        let locations = try #require(first["locations"] as? [[String: Any]])
        #expect(locations.count == 1)
        let physical = try #require(locations.first?["physicalLocation"] as? [String: Any])
        #expect(physical["region"] == nil)
        let artifact = try #require(physical["artifactLocation"] as? [String: Any])
        #expect(artifact["uri"] as? String == "build/My%20App%20%281%29.ipa")
        #expect(artifact["index"] as? Int == 0)
        let logical = try #require(locations.first?["logicalLocations"] as? [[String: String]])
        #expect(
            logical == [
                ["name": "Share.appex", "fullyQualifiedName": "Payload/App.app/PlugIns/Share.appex", "kind": "module"],
                ["name": "applinks:example.com", "fullyQualifiedName": "applinks:example.com", "kind": "resource"],
            ]
        )
        let properties = try #require(first["properties"] as? [String: String])
        #expect(
            properties == [
                "input": "build/My App (1).ipa", "bundle": "Payload/App.app/PlugIns/Share.appex",
                "domain": "applinks:example.com", "url": "https://example.com/a?b=c,d",
                "location": "applinks.details[0]", "fix": "Use only `components`.",
            ]
        )
        // An archive-level finding has no logical location at all.
        let archiveLevel = try #require(results[1]["locations"] as? [[String: Any]])
        #expect(archiveLevel.first?["logicalLocations"] == nil)

        let artifacts = try #require(run["artifacts"] as? [[String: Any]])
        #expect(
            artifacts.map { ($0["location"] as? [String: String])?["uri"] } == [
                "build/My%20App%20%281%29.ipa", "Caf%C3%A9.ipa",
            ]
        )
        #expect(artifacts.map { $0["roles"] as? [String] } == [["analysisTarget"], ["analysisTarget"]])
    }

    @Test func emptyReportHasEmptyResults() throws {
        let run = try run(Report(tool: Sample.tool))
        #expect((run["results"] as? [Any])?.isEmpty == true)
        #expect((run["artifacts"] as? [Any])?.isEmpty == true)
    }

    /// Expected digest computed independently: python3 `hashlib.sha256(b"TAA104\0Payload/App.app\0"
    /// b"applinks:example.com\0\0applinks.details[0]\0The file mixes formats.\0").hexdigest()`.
    @Test func fingerprintIsSHA256OfTheIdentifyingFields() throws {
        let results = try #require(try run(Sample.report())["results"] as? [[String: Any]])
        let fingerprints = try #require(results.first?["partialFingerprints"] as? [String: String])
        #expect(
            fingerprints == ["ipacheckFinding/v1": "65d7b53c3b4f44b6484f2306293c35a69ead8f5e5f91e91dd4f517cc2917e711"]
        )
    }

    @Test func fingerprintIgnoresInputAndSeverityButNotMessage() {
        let finding = Sample.mixedFormats.finding("m", bundle: "Payload/A.app", domain: "applinks:a.com")
        var milder = finding
        milder.severity = .note
        var reworded = finding
        reworded.message = "m2"
        var otherDomain = finding
        otherDomain.domain = "applinks:b.com"
        let base = SARIFRenderer.fingerprint(of: finding)
        #expect(SARIFRenderer.fingerprint(of: milder) == base)
        #expect(SARIFRenderer.fingerprint(of: reworded) != base)
        #expect(SARIFRenderer.fingerprint(of: otherDomain) != base)
        // Field boundaries matter: ("ab", "") and ("a", "b") must differ.
        let left = Finding(rule: "R", severity: .error, message: "m", bundle: "ab", domain: nil)
        let right = Finding(rule: "R", severity: .error, message: "m", bundle: "a", domain: "b")
        #expect(SARIFRenderer.fingerprint(of: left) != SARIFRenderer.fingerprint(of: right))
    }

    /// RFC 3986 §2.1/§2.3: unreserved characters stay, other octets of the UTF-8 become `%HH` (é = C3 A9).
    @Test(arguments: [
        ("App.ipa", "App.ipa"),
        ("build/My App.ipa", "build/My%20App.ipa"),
        ("100%.ipa", "100%25.ipa"),
        ("a#b?.ipa", "a%23b%3F.ipa"),
        ("C:x.ipa", "C%3Ax.ipa"),
        ("Café.ipa", "Caf%C3%A9.ipa"),
        ("dir\\App.ipa", "dir%5CApp.ipa"),
        ("~user/a-b_c.ipa", "~user/a-b_c.ipa"),
    ])
    func uriReferenceEncoding(path: String, expected: String) {
        #expect(SARIFRenderer.uriReference(forPath: path) == expected)
    }

    @Test(arguments: [
        ("mixed legacy and modern formats", "MixedLegacyAndModernFormats"),
        ("Payload folder is not at the archive root", "PayloadFolderIsNotAtTheArchiveRoot"),
        ("member name is not UTF-8", "MemberNameIsNotUTF8"),
        ("apple-app-site-association too large", "AppleAppSiteAssociationTooLarge"),
    ])
    func ruleNames(title: String, expected: String) {
        #expect(SARIFRenderer.ruleName(forTitle: title) == expected)
    }
}
