package import Foundation
package import IPACheckAASA
package import IPACheckReport

/// Finds what is wrong or fragile in an AASA document, offline: the structural and semantic problems that make
/// universal links, web credentials or App Clips silently not work (`ipacheck lint`).
package enum AASALinter {
    /// Lints a parsed document.
    ///
    /// Findings are sorted (worst first) and carry JSON locations.
    package static func lint(_ document: AASADocument, domain: String? = nil) -> [Finding] {
        var context = LintContext(document: document, domain: domain)
        context.lintTopLevel()
        return context.findings.findings.sorted()
    }

    /// Parses and lints a file: the parse findings (BOM, size, signing, duplicate keys) plus the lint findings.
    package static func lint(
        bytes: [UInt8],
        domain: String? = nil,
        now: Date = Date()
    ) throws(AASAParseError) -> (document: AASADocument, findings: [Finding]) {
        let document = try AASADocument.parse(bytes, now: now)
        let withDomain = AASAFileReading.findings(of: document).map { finding -> Finding in
            var finding = finding
            finding.domain = domain
            return finding
        }
        var parseFindings = FindingList()
        parseFindings.append(contentsOf: withDomain)
        return (document, (parseFindings.findings + lint(document, domain: domain)).sorted())
    }
}

/// One lint run over a document: what it knows of the file, and the findings so far.
struct LintContext {
    let document: AASADocument
    let domain: String?
    /// The distinct well-formed App ID prefixes of the file (at most 100), to suggest fixes for typos.
    let knownPrefixes: [String]
    /// The names a pattern may use: the predefined variables and the file's own (built once; building it per pattern
    /// made a file with many variables and many rules quadratic).
    let definedVariables: Set<String>
    var findings = FindingList()

    init(document: AASADocument, domain: String?) {
        self.document = document
        self.domain = domain
        var prefixes: [String] = []
        var seen = Set<String>()
        for appID in AASAService.allCases.flatMap({ document.appIDs(for: $0) }) where prefixes.count < 100 {
            let prefix = String(appID.prefix { $0 != "." })
            if prefix.count == 10, seen.insert(prefix).inserted { prefixes.append(prefix) }
        }
        knownPrefixes = prefixes
        var defined = PatternCompiler.builtinNames
        if let variables = document.applinks?.substitutionVariables { defined.formUnion(variables.keys) }
        definedVariables = defined
    }

    mutating func add(_ rule: Rule, _ message: String, at location: String, fix: String? = nil) {
        findings.append(rule.finding(message, domain: domain, location: location, fix: fix))
    }

    // MARK: - Helpers

    /// How many earlier rules each rule is compared with for coverage (real files have far fewer rules).
    static let coverageWindow = 500
    /// How many bytes of paths the coverage comparison reads, counted from the first rule: Apple's size limit for
    /// the whole file (Apple reads at most 128 KB), so the rules of any file Apple reads are compared in full.
    static let coverageTextWindow = 131_072

    /// A known name that differs from `key` only by case, or by at most two edits.
    static func closest(_ key: String, in candidates: Set<String>) -> String? {
        if let sameLetters = candidates.first(where: { $0.lowercased() == key.lowercased() }) { return sameLetters }
        let aliases = ["path": "/", "paths": "/", "query": "?", "fragment": "#", "hash": "#", "excluded": "exclude"]
        if let alias = aliases[key.lowercased()], candidates.contains(alias) { return alias }
        guard key.count >= 4 else { return nil }
        return candidates.filter { $0.count >= 4 }.min { editDistance(key, $0) < editDistance(key, $1) }
            .flatMap { editDistance(key, $0) <= 2 ? $0 : nil }
    }

    static func editDistance(_ left: String, _ right: String) -> Int {
        let a = Array(left.lowercased())
        let b = Array(right.lowercased())
        guard a.count < 64, b.count < 64 else { return Int.max }
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
