import Foundation

/// The report as deterministic JSON: `{"findings": [...], "summary": {"errors": n, "warnings": n, "notes": n}}`
/// plus `gate`, `inputs`, `rules`, `tool` and `verdict`; sorted keys, no escaped slashes, no timestamps.
package struct JSONRenderer: ReportRendering {
    /// Creates the renderer.
    package init() {}

    /// The report as pretty-printed JSON with sorted keys, ending with a newline.
    package func render(_ report: Report) throws -> String {
        try Self.encode(report)
    }

    /// Encodes any value the way every ipacheck JSON output is encoded: deterministic, dates as ISO 8601, and with
    /// no control character or bidi override left raw (``UntrustedText/escapedInJSON(_:)``).
    package static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return UntrustedText.escapedInJSON(String(decoding: try encoder.encode(value), as: UTF8.self)) + "\n"
    }
}
