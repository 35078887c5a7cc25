package import IPACheckAASA
import IPACheckReport

/// Writes `ipacheck match` results as they are decided, so that a million-URL sitemap never sits in memory.
///
/// Text is one line a URL (`MATCH  url  why`), with every control character and bidi override made visible; JSON is
/// `{"results": [...]}` laid out as the other JSON outputs are (indented, sorted keys), with the same escaping
/// (``UntrustedText/escapedInJSON(_:)``). Batches are formatted on any thread (``format(_:as:)``) and written in
/// order.
package final class MatchResultWriter {
    /// The output format.
    package enum Format: Sendable {
        /// One line a URL; with explanations, the rules tried below it.
        case text
        /// `{"results": [...]}`.
        case json
    }

    /// Results formatted, ready to be written in their place.
    package struct Batch: Sendable {
        let bytes: [UInt8]
        let count: Int
        let explained: Bool
        /// Whether every result of the batch was `match`.
        package let everyURLMatches: Bool
    }

    /// The output format.
    package let format: Format
    private let sink: ([UInt8]) -> Void
    private var buffer: [UInt8] = []
    private var written = 0
    /// Whether every result so far was `match`.
    package private(set) var everyURLMatches = true

    /// Bytes gathered before they are handed to the sink.
    static let flushBytes = 256 * 1024

    /// A writer handing its bytes to `sink` in pieces of about ``flushBytes``.
    package init(format: Format, sink: @escaping ([UInt8]) -> Void) {
        self.format = format
        self.sink = sink
        buffer.reserveCapacity(Self.flushBytes + 4096)
        if format == .json {
            let schema = JSONRenderer.Schema.match.url
            buffer.append(contentsOf: "{\n  \"$schema\" : \"\(schema)\",\n  \"results\" : [\n".utf8)
        }
    }

    /// Writes formatted results after those written so far.
    package func write(_ batch: Batch) {
        guard batch.count > 0 else { return }
        if written > 0 { buffer.append(contentsOf: (format == .json ? ",\n" : batch.explained ? "\n" : "").utf8) }
        written += batch.count
        if !batch.everyURLMatches { everyURLMatches = false }
        if buffer.count + batch.bytes.count < Self.flushBytes {
            buffer.append(contentsOf: batch.bytes)
        } else {
            // A big batch goes to the sink as it is, not copied into the buffer first.
            flush()
            sink(batch.bytes)
        }
    }

    /// Ends the output and hands over what is left.
    package func finish() {
        if format == .json { buffer.append(contentsOf: "\n  ]\n}\n".utf8) }
        flush()
    }

    private func flush() {
        guard !buffer.isEmpty else { return }
        sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Results formatted as `format`.
    package static func format(_ results: [AASAMatchResult], as format: Format) -> Batch {
        var out = Output()
        for index in results.indices {
            out.append(results[index], trace: [], first: index == 0, as: format, explained: false)
        }
        return Batch(
            bytes: out.bytes,
            count: results.count,
            explained: false,
            everyURLMatches: results.allSatisfy { $0.verdict == .match }
        )
    }

    /// Explanations formatted as `format` (text shows the rules tried below each result; JSON only the results).
    package static func format(_ explanations: [AASAMatchExplanation], as format: Format) -> Batch {
        var out = Output()
        for (index, explanation) in explanations.enumerated() {
            let trace = Array(explanation.textLines.dropFirst())
            out.append(explanation.result, trace: trace, first: index == 0, as: format, explained: true)
        }
        return Batch(
            bytes: out.bytes,
            count: explanations.count,
            explained: true,
            everyURLMatches: explanations.allSatisfy { $0.result.verdict == .match }
        )
    }

    /// Bytes being formatted, with the escapes every output needs.
    private struct Output {
        var bytes: [UInt8] = []

        /// Appends one result (and, for text, the trace lines below it) after the results appended before.
        mutating func append(
            _ result: AASAMatchResult,
            trace: [String],
            first: Bool,
            as format: Format,
            explained: Bool
        ) {
            switch format {
            case .text:
                if !first, explained { append("\n") }
                // The fields of ``AASAMatchResult/textLine``, escaped one by one (escaping is per character).
                switch result.verdict {
                case .match: append("MATCH  ")
                case .block: append("BLOCK  ")
                case .none: append("NONE   ")
                }
                appendVisible(result.url)
                append("  ")
                appendVisible(result.why)
                if let origin = result.origin {
                    append("  [the origin's file: \(origin.verdict.rawValue.uppercased()), ")
                    appendVisible(origin.why)
                    append("]")
                }
                append("\n")
                for line in trace {
                    appendVisible(line)
                    append("\n")
                }
            case .json:
                if !first { append(",\n") }
                append("    {\n      \"appID\" : ")
                appendJSONString(result.appID)
                if let origin = result.origin {
                    append(",\n      \"origin\" : {\n        \"verdict\" : \"")
                    append(origin.verdict.rawValue)
                    append("\",\n        \"why\" : ")
                    appendJSONString(origin.why)
                    append("\n      }")
                }
                if let rule = result.rule {
                    append(",\n      \"rule\" : {\n        \"component\" : ")
                    append(rule.component)
                    append(",\n        \"detail\" : ")
                    append(rule.detail)
                    append("\n      }")
                } else {
                    append(",\n      \"rule\" : null")
                }
                append(",\n      \"url\" : ")
                appendJSONString(result.url)
                append(",\n      \"verdict\" : \"")
                append(result.verdict.rawValue)
                append("\",\n      \"why\" : ")
                appendJSONString(result.why)
                append("\n    }")
            }
        }

        mutating func append(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        mutating func append(_ number: Int) {
            append(String(number))
        }

        /// Appends `text`'s bytes if every byte passes `isPlain`.
        ///
        /// Returns false, having appended nothing, otherwise. One pass over native (contiguous) strings, which is
        /// what every URL is.
        mutating func appendIfEvery(_ text: String, _ isPlain: (UInt8) -> Bool) -> Bool {
            // The string's own UTF-8, lent for the call and only read (a speed-up for the million-result case; the
            // safe path below gives the same bytes).
            let done = unsafe text.utf8.withContiguousStorageIfAvailable { utf8 in
                guard unsafe utf8.allSatisfy(isPlain) else { return false }
                unsafe bytes.append(contentsOf: utf8)
                return true
            }
            if let done { return done }
            guard text.utf8.allSatisfy(isPlain) else { return false }
            bytes.append(contentsOf: text.utf8)
            return true
        }

        /// Appends printable-ASCII `text` with its quotes and backslashes escaped.
        ///
        /// Returns false, having appended nothing, when the text holds anything else (the scalar-by-scalar path
        /// handles it). The runs between escapes are copied whole, from the string's own contiguous UTF-8 when it
        /// has it (every URL does: this is the million-result path).
        mutating func appendEscapingQuotes(_ text: String) -> Bool {
            let done = unsafe text.utf8.withContiguousStorageIfAvailable { utf8 in
                unsafe appendEscapingQuotes(utf8)
            }
            if let done { return done }
            return appendEscapingQuotes(Array(text.utf8))
        }

        /// ``appendEscapingQuotes(_:)-(String)`` over any contiguous UTF-8: one pass to check, one to copy.
        mutating func appendEscapingQuotes<Bytes: RandomAccessCollection<UInt8>>(_ utf8: Bytes) -> Bool {
            var needsEscape = false
            for byte in utf8 {
                guard Self.isPlainASCII(byte) else { return false }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { needsEscape = true }
            }
            guard needsEscape else {
                bytes.append(contentsOf: utf8)
                return true
            }
            for byte in utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            return true
        }

        static func isPlainASCII(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }

        /// Text from an input, with controls and bidi overrides made visible (all-ASCII text is copied as it is).
        mutating func appendVisible(_ text: String) {
            if !appendIfEvery(text, Self.isPlainASCII) { append(UntrustedText.visible(text)) }
        }

        /// A JSON string literal: quotes, backslashes and controls escaped as JSON escapes them, C1 controls and
        /// bidi overrides as `\uXXXX` too.
        mutating func appendJSONString(_ text: String) {
            bytes.append(UInt8(ascii: "\""))
            if !appendEscapingQuotes(text) {
                for scalar in text.unicodeScalars {
                    switch scalar {
                    case "\"": append("\\\"")
                    case "\\": append("\\\\")
                    case "\n": append("\\n")
                    case "\r": append("\\r")
                    case "\t": append("\\t")
                    default:
                        if scalar.isASCII, Self.isPlainASCII(UInt8(scalar.value)) {
                            bytes.append(UInt8(scalar.value))
                        } else if UntrustedText.isUnsafe(scalar) {
                            let hex = String(scalar.value, radix: 16, uppercase: true)
                            append("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex)
                        } else {
                            UTF8.encode(scalar) { bytes.append($0) }
                        }
                    }
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
