import Foundation

/// The report as deterministic JSON: `{"findings": [...], "summary": {"errors": n, "warnings": n, "notes": n}}`
/// plus `gate`, `inputs`, `rules`, `tool` and `verdict`; sorted keys, no escaped slashes, no timestamps.
package struct JSONRenderer: ReportRendering {
    /// Creates the renderer.
    package init() {}

    /// The report as pretty-printed JSON with sorted keys, ending with a newline, naming its command's schema.
    package func render(_ report: Report) throws -> String {
        try Self.encode(report, schema: report.schema)
    }

    /// The published JSON Schemas (draft 2020-12) of the JSON outputs, in `docs/schemas/`.
    package enum Schema: String, CaseIterable, Sendable {
        /// What every report command's JSON shares (findings, summary, inputs, rules, …); each command's own
        /// schema adds its keys to it, so no output names this one.
        case report
        /// `check --format json`.
        case check
        /// `verify --format json`.
        case verify
        /// `lint --format json`.
        case lint
        /// `aasa --format json`.
        case aasa
        /// `profile --format json`.
        case profile
        /// `diff --format json`.
        case diff
        /// `info --format json`.
        case info
        /// `domains --format json`.
        case domains
        /// `explain --format json`.
        case explain
        /// `match --format json`.
        case match
        /// `links --format json`.
        case links
        /// `entitlements --format json`: the signed dictionary itself, with `$schema` beside its keys.
        case entitlements
        /// `rules --format json`.
        case rules
        /// `device --format json`.
        case device
        /// `appflip url --format json`.
        case appFlipURL = "appflip-url"
        /// `appflip response --format json`.
        case appFlipResponse = "appflip-response"

        /// Where the schema is published: the value of an output's `$schema` key.
        package var url: String {
            "https://raw.githubusercontent.com/ipacheck/ipacheck/main/docs/schemas/\(rawValue).schema.json"
        }
    }

    /// Encodes any value the way every ipacheck JSON output is encoded: deterministic, dates as ISO 8601, and with
    /// no control character or bidi override left raw (``UntrustedText/escapedInJSON(_:)``); an object output
    /// names its `schema` under `$schema`.
    package static func encode(_ value: some Encodable, schema: Schema? = nil) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data =
            try schema.map { try encoder.encode(SchemaTagged(value: value, schema: $0)) } ?? encoder.encode(value)
        return UntrustedText.escapedInJSON(String(decoding: data, as: UTF8.self)) + "\n"
    }

    /// A JSON object with `$schema` beside its own keys (JSONEncoder merges both into one object).
    private struct SchemaTagged<Value: Encodable>: Encodable {
        let value: Value
        let schema: Schema

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            try value.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(schema.url, forKey: Key(stringValue: "$schema"))
        }
    }
}
