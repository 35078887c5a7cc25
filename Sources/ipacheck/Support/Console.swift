import Foundation
import IPACheckCore
import IPACheckReport

/// Where output goes: the answer to stdout, diagnostics to stderr, colour only on a terminal without `NO_COLOR`.
enum Console {
    /// The text style for stdout.
    static var style: TextStyle {
        let environment = ProcessInfo.processInfo.environment
        let colored = environment["NO_COLOR"] == nil && isatty(STDOUT_FILENO) == 1 && environment["TERM"] != "dumb"
        return TextStyle(colored: colored)
    }

    /// Writes the answer to stdout, ending it with a newline if it has none.
    static func print(_ text: String) {
        let line = text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    /// Writes a diagnostic line to stderr.
    static func diagnose(_ line: String) {
        FileHandle.standardError.write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8))
    }

    /// Encodes a value as deterministic JSON (sorted keys, no escaped slashes) and prints it.
    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        print(String(decoding: data, as: UTF8.self) + "\n")
    }
}
