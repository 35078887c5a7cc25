import Foundation
import IPACheckReport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// JUnit XML.
///
/// The document layout follows the de-facto JUnit schema that Jenkins (junit-10.xsd), GitLab and the
/// GitHub test-report actions read: `testsuites` > `testsuite(name, tests, failures, errors, skipped)` >
/// `testcase(name, classname)` > `failure(message, type)` / `system-out`. Escaping follows XML 1.0 §2.4 and
/// §3.3.3 (attribute-value normalisation turns raw tabs and newlines into spaces, so they must be references).
struct JUnitRendererTests {
    @Test func exactDocumentForTheSampleReport() throws {
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="ipacheck" tests="8" failures="1" errors="0" skipped="0">
              <testsuite name="build/App.ipa" tests="4" failures="1" errors="0" skipped="0">
                <testcase name="TAA104 mixed legacy and modern formats [applinks:example.com]" classname="build/App.ipa/Payload/App.app">
                  <failure message="The file mixes formats." type="error">error TAA104: The file mixes formats.
            at: applinks.details[0]
            fix: Use only `components`.</failure>
                </testcase>
                <testcase name="TAR001 unsafe member path" classname="build/App.ipa">
                  <system-out>warning TAR001: Member escapes the archive.
            at: ../evil
            fix: Rebuild the ipa.</system-out>
                </testcase>
                <testcase name="TEN010 developer mode entry [applinks:dev.example.com]" classname="build/App.ipa/Payload/App.app">
                  <system-out>note TEN010: Uses developer mode.
            fix: Remove the mode for release builds.</system-out>
                </testcase>
                <testcase name="ZZZ999 never fires" classname="build/App.ipa"/>
              </testsuite>
              <testsuite name="Clean App.ipa" tests="4" failures="0" errors="0" skipped="0">
                <testcase name="TAA104 mixed legacy and modern formats" classname="Clean App.ipa"/>
                <testcase name="TAR001 unsafe member path" classname="Clean App.ipa"/>
                <testcase name="TEN010 developer mode entry" classname="Clean App.ipa"/>
                <testcase name="ZZZ999 never fires" classname="Clean App.ipa"/>
              </testsuite>
            </testsuites>

            """
        #expect(try JUnitRenderer().render(Sample.report()) == expected)
    }

    @Test func emptyReport() throws {
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="ipacheck" tests="0" failures="0" errors="0" skipped="0"/>

            """
        #expect(try JUnitRenderer().render(Report(tool: Sample.tool)) == expected)
    }

    @Test func stricterGateTurnsWarningsIntoFailures() throws {
        let document = try XMLSummary.parse(
            try JUnitRenderer().render(Sample.report(gate: FailThreshold(failOn: .warning)))
        )
        #expect(document.rootAttributes["failures"] == "2")
        let failing = document.testCases.filter { $0.failureType != nil }
        #expect(
            failing.map(\.name) == [
                "TAA104 mixed legacy and modern formats [applinks:example.com]", "TAR001 unsafe member path",
            ]
        )
        #expect(failing.map(\.failureType) == ["error", "warning"])
        let noted = document.testCases.filter { $0.systemOut != nil }
        #expect(noted.map(\.name) == ["TEN010 developer mode entry [applinks:dev.example.com]"])
    }

    /// Parsed back by a real XML parser, the counts in the attributes equal the elements present.
    @Test(arguments: [FailThreshold(failOn: .error), FailThreshold(failOn: .warning), FailThreshold(failOn: .note)])
    func wellFormedAndCountsMatch(gate: FailThreshold) throws {
        let report = SARIFRendererTests.fullReport()
        let document = try XMLSummary.parse(
            try JUnitRenderer().render(
                Report(
                    tool: report.tool,
                    gate: gate,
                    rules: report.rules,
                    checked: ["build/My App (1).ipa": report.findings.map(\.finding), "Café.ipa": []]
                )
            )
        )
        #expect(document.rootName == "testsuites")
        #expect(document.suites.count == 2)
        var total = 0
        var totalFailures = 0
        for suite in document.suites {
            let cases = document.testCases.filter { $0.suite == suite.index }
            let failures = cases.filter { $0.failureType != nil }.count
            #expect(suite.attributes["tests"] == "\(cases.count)")
            #expect(suite.attributes["failures"] == "\(failures)")
            #expect(suite.attributes["errors"] == "0")
            #expect(suite.attributes["skipped"] == "0")
            total += cases.count
            totalFailures += failures
        }
        #expect(document.rootAttributes["tests"] == "\(total)")
        #expect(document.rootAttributes["failures"] == "\(totalFailures)")
        // Findings at or above the gate are failures; the rest are in system-out; each finding appears once.
        let atOrAbove = report.findings.filter { gate.fails($0.severity) }.count
        #expect(totalFailures == atOrAbove)
    }

    /// XML's special characters survive a round trip through a conforming parser; control characters from the
    /// input (tab, CR) are shown as visible escapes (no control character reaches a CI log), and the
    /// one-line message attribute shows line feeds as `\n`.
    @Test func escapingRoundTripsThroughAParser() throws {
        let message = "a < b && c > \"d\" 'e'\ttab\nnew line\r\nCRLF ✓ 🚀 ]]>"
        let finding = Sample.mixedFormats.finding(message, bundle: "Payload/A&B.app", fix: "use <x>")
        let text = try JUnitRenderer().render(Report(tool: Sample.tool, checked: ["a&b <1>.ipa": [finding]]))
        let document = try XMLSummary.parse(text)
        let testCase = try #require(document.testCases.first)
        #expect(testCase.failureMessage == "a < b && c > \"d\" 'e'\\u{9}tab\\nnew line\\u{D}\\nCRLF ✓ 🚀 ]]>")
        #expect(testCase.className == "a&b <1>.ipa/Payload/A&B.app")
        #expect(document.suites.first?.attributes["name"] == "a&b <1>.ipa")
        let body = "error TAA104: a < b && c > \"d\" 'e'\\u{9}tab\nnew line\\u{D}\nCRLF ✓ 🚀 ]]>\nfix: use <x>"
        #expect(testCase.failureBody == body)
        #expect(text.contains("message=\"a &lt; b &amp;&amp; c &gt; &quot;d&quot; 'e'\\u{9}tab"))
        #expect(!text.contains("\r") && !text.contains("\t"))
    }

    /// XML 1.0 §2.2 `Char` excludes most C0 controls (they cannot even be written as references), and none may
    /// reach a CI log anyway: they are shown as visible escapes.
    @Test func controlCharactersAreReplaced() throws {
        let finding = Sample.mixedFormats.finding("bell\u{07} escape\u{1B}[31m nul\u{00} ok")
        let text = try JUnitRenderer().render(Report(tool: Sample.tool, checked: ["A.ipa": [finding]]))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        let document = try XMLSummary.parse(text)
        #expect(document.testCases.first?.failureMessage == "bell\\u{7} escape\\u{1B}[31m nul\\u{0} ok")
    }
}

/// The parts of a JUnit document the tests look at, collected with Foundation's XMLParser.
final class XMLSummary: NSObject, XMLParserDelegate {
    struct Suite {
        let index: Int
        let attributes: [String: String]
    }

    struct TestCase {
        let suite: Int
        let name: String
        let className: String
        var failureType: String?
        var failureMessage: String?
        var failureBody: String?
        var systemOut: String?
    }

    struct ParseFailure: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var rootName = ""
    private(set) var rootAttributes: [String: String] = [:]
    private(set) var suites: [Suite] = []
    private(set) var testCases: [TestCase] = []
    private var text = ""

    static func parse(_ xml: String) throws -> XMLSummary {
        let summary = XMLSummary()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = summary
        guard parser.parse() else {
            throw ParseFailure(description: "not well-formed: \(parser.parserError.map { "\($0)" } ?? "unknown")")
        }
        return summary
    }

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        text = ""
        switch elementName {
        case "testsuites":
            rootName = elementName
            rootAttributes = attributeDict
        case "testsuite":
            suites.append(Suite(index: suites.count, attributes: attributeDict))
        case "testcase":
            testCases.append(
                TestCase(
                    suite: suites.count - 1,
                    name: attributeDict["name"] ?? "",
                    className: attributeDict["classname"] ?? ""
                )
            )
        case "failure":
            testCases[testCases.count - 1].failureType = attributeDict["type"]
            testCases[testCases.count - 1].failureMessage = attributeDict["message"]
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(
        _ parser: XMLParser,
        didEndElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?
    ) {
        switch elementName {
        case "failure": testCases[testCases.count - 1].failureBody = text
        case "system-out": testCases[testCases.count - 1].systemOut = text
        default: break
        }
    }
}
