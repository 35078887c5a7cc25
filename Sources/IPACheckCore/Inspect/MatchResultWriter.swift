public import IPACheckAASA
import IPACheckReport

/// Writes `ipacheck match` results as they are decided, so that a million-URL sitemap never sits in memory.
///
/// Text is one line a URL (`MATCH  url  why`), with every control character and bidi override made visible; JSON is
/// `{"results": [...]}` laid out as the other JSON outputs are (indented, sorted keys), with the same escaping
/// (``UntrustedText/escapedInJSON(_:)``). Batches are formatted on any thread (``format(_:as:)``) and written in
/// order.
public final class MatchResultWriter {
    /// The output format.
    public enum Format: Sendable {
        /// One line a URL; with explanations, the rules tried below it.
        case text
        /// `{"results": [...]}`.
        case json
    }

    /// Results formatted, ready to be written in their place.
    public struct Batch: Sendable {
        let bytes: [UInt8]
        let count: Int
        let explained: Bool
        /// Whether every result of the batch was `match`.
        public let everyURLMatches: Bool
    }

    /// The output format.
    public let format: Format
    private let sink: ([UInt8]) -> Void
    private var buffer: [UInt8] = []
    private var written = 0
    /// Whether every result so far was `match`.
    public private(set) var everyURLMatches = true

    /// Bytes gathered before they are handed to the sink.
    static let flushBytes = 256 * 1024

    /// A writer handing its bytes to `sink` in pieces of about ``flushBytes``.
    public init(format: Format, sink: @escaping ([UInt8]) -> Void) {
        self.format = format
        self.sink = sink
        buffer.reserveCapacity(Self.flushBytes + 4096)
        if format == .json { buffer.append(contentsOf: "{\n  \"results\" : [\n".utf8) }
    }

    /// Writes one result.
    public func write(_ result: AASAMatchResult) {
        write(Self.format([result], as: format))
    }

    /// Writes formatted results after those written so far.
    public func write(_ batch: Batch) {
        guard batch.count > 0 else { return }
        if written > 0 { buffer.append(contentsOf: (format == .json ? ",\n" : batch.explained ? "\n" : "").utf8) }
        buffer.append(contentsOf: batch.bytes)
        written += batch.count
        if !batch.everyURLMatches { everyURLMatches = false }
        if buffer.count >= Self.flushBytes { flush() }
    }

    /// Ends the output and hands over what is left.
    public func finish() {
        if format == .json { buffer.append(contentsOf: "\n  ]\n}\n".utf8) }
        flush()
    }

    private func flush() {
        guard !buffer.isEmpty else { return }
        sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Results formatted as `format`.
    public static func format(_ results: [AASAMatchResult], as format: Format) -> Batch {
        formatted(results.map { ($0, [String]()) }, as: format, explained: false)
    }

    /// Explanations formatted as `format` (text shows the rules tried below each result; JSON only the results).
    public static func format(_ explanations: [AASAMatchExplanation], as format: Format) -> Batch {
        formatted(explanations.map { ($0.result, Array($0.textLines.dropFirst())) }, as: format, explained: true)
    }

    private static func formatted(_ items: [(AASAMatchResult, [String])], as format: Format, explained: Bool) -> Batch {
        var out = Output()
        var allMatch = true
        for (index, (result, trace)) in items.enumerated() {
            if result.verdict != .match { allMatch = false }
            switch format {
            case .text:
                if index > 0, explained { out.append("\n") }
                out.appendVisible(result.textLine)
                out.append("\n")
                for line in trace {
                    out.appendVisible(line)
                    out.append("\n")
                }
            case .json:
                if index > 0 { out.append(",\n") }
                out.append("    {\n      \"appID\" : ")
                out.appendJSONString(result.appID)
                if let rule = result.rule {
                    out.append(",\n      \"rule\" : {\n        \"component\" : ")
                    out.append(String(rule.component))
                    out.append(",\n        \"detail\" : ")
                    out.append(String(rule.detail))
                    out.append("\n      }")
                } else {
                    out.append(",\n      \"rule\" : null")
                }
                out.append(",\n      \"url\" : ")
                out.appendJSONString(result.url)
                out.append(",\n      \"verdict\" : \"")
                out.append(result.verdict.rawValue)
                out.append("\",\n      \"why\" : ")
                out.appendJSONString(result.why)
                out.append("\n    }")
            }
        }
        return Batch(bytes: out.bytes, count: items.count, explained: explained, everyURLMatches: allMatch)
    }

    /// Bytes being formatted, with the escapes every output needs.
    private struct Output {
        var bytes: [UInt8] = []

        mutating func append(_ text: String) {
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }

        static func isPlainASCII(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }

        /// Text from an input, with controls and bidi overrides made visible (all-ASCII text is copied as it is).
        mutating func appendVisible(_ text: String) {
            var text = text
            let plain = text.withUTF8 { utf8 in
                guard utf8.allSatisfy(Self.isPlainASCII) else { return false }
                bytes.append(contentsOf: utf8)
                return true
            }
            if !plain { append(UntrustedText.visible(text)) }
        }

        /// A JSON string literal: quotes, backslashes and controls escaped as JSON escapes them, C1 controls and
        /// bidi overrides as `\uXXXX` too.
        mutating func appendJSONString(_ text: String) {
            bytes.append(UInt8(ascii: "\""))
            var text = text
            let plain = text.withUTF8 { utf8 in
                guard utf8.allSatisfy({ Self.isPlainASCII($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
                else { return false }
                bytes.append(contentsOf: utf8)
                return true
            }
            if !plain {
                for scalar in text.unicodeScalars {
                    switch scalar {
                    case "\"": append("\\\"")
                    case "\\": append("\\\\")
                    case "\n": append("\\n")
                    case "\r": append("\\r")
                    case "\t": append("\\t")
                    default:
                        if UntrustedText.isUnsafe(scalar) {
                            let hex = String(scalar.value, radix: 16, uppercase: true)
                            append("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex)
                        } else {
                            append(String(scalar))
                        }
                    }
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
