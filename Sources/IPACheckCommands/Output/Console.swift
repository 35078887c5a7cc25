import Foundation
package import IPACheckReport

/// Where output goes: the answer to stdout, diagnostics to stderr, colour only on a terminal without `NO_COLOR`.
package enum Console {
    /// The text style for stdout.
    package static var style: TextStyle {
        let environment = ProcessInfo.processInfo.environment
        let colored = environment["NO_COLOR"] == nil && isatty(STDOUT_FILENO) == 1 && environment["TERM"] != "dumb"
        return TextStyle(colored: colored)
    }

    /// Writes a plain-text answer to stdout, ending it with a newline if it has none.
    ///
    /// The text may quote inputs (URLs, app IDs, entitlement values, a server's words), so every control character
    /// and bidi override in it is written as a visible escape (``UntrustedText``): nothing an input holds can move
    /// the cursor, recolour the terminal or reorder a line.
    package static func print(_ text: String) {
        printRendered(UntrustedText.visible(text))
    }

    /// Writes output a renderer made (a report, JSON, a styled explanation): it escaped what came from inputs
    /// itself, and its own colour codes must reach the terminal.
    package static func printRendered(_ text: String) {
        let line = text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    /// Writes bytes a renderer made to stdout as they are (a streamed answer, in pieces).
    package static func write(_ bytes: [UInt8]) {
        // Straight from the array (a `Data` would copy every piece first: a quarter of a gigabyte for a million
        // JSON results); a short write goes on from where it stopped, an interrupted one is retried.
        var offset = 0
        while offset < bytes.count {
            // write(2) reads at most the `bytes.count - offset` bytes of the array from `offset` on, lent for the
            // call only.
            let written = unsafe bytes.withUnsafeBytes { buffer in
                unsafe Foundation.write(
                    STDOUT_FILENO,
                    buffer.baseAddress.map { unsafe $0 + offset },
                    buffer.count - offset
                )
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Writes a diagnostic line to stderr, with every control character and bidi override from an input made
    /// visible.
    package static func diagnose(_ line: String) {
        let text = UntrustedText.visible(line)
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// Encodes a value as every JSON output is encoded (``JSONRenderer/encode(_:schema:)``) and prints it.
    package static func printJSON(_ value: some Encodable, schema: JSONRenderer.Schema? = nil) throws {
        printRendered(try JSONRenderer.encode(value, schema: schema))
    }
}
