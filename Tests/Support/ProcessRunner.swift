package import Foundation
import IPACheckConcurrency

/// Runs a program to its end and captures what it wrote: the one way the tests start a program and wait for it
/// (the `ipacheck` binary, python3, openssl, ruby, `script` for a terminal).
///
/// Standard input is written and standard error drained on threads of their own while standard output is read,
/// so no pipe can fill up and stall the child.
package enum ProcessRunner {
    /// What a finished program did.
    package struct Result: Sendable {
        /// Its exit status.
        package let status: Int32
        /// What it wrote to standard output (and to standard error, when the two were merged).
        package let standardOutput: Data
        /// What it wrote to standard error; empty when merged into standard output or discarded.
        package let standardError: Data

        /// Standard output as UTF-8 text.
        package var output: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Standard error as UTF-8 text.
        package var errors: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// What becomes of a program's standard error.
    package enum ErrorStream: Sendable {
        /// Captured on its own (``Result/standardError``).
        case captured
        /// Written into the same pipe as standard output, interleaved as the program wrote them.
        case merged
        /// Thrown away.
        case discarded
    }

    /// Runs `executable` with `arguments` and waits for it to end.
    ///
    /// - Parameters:
    ///   - environment: The whole environment; the test's own when nil.
    ///   - directory: The working directory; the test's own when nil.
    ///   - input: Written to standard input, which is then closed; standard input is empty when nil.
    ///   - errors: What becomes of standard error.
    package static func run(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String]? = nil,
        directory: URL? = nil,
        input: Data? = nil,
        errors: ErrorStream = .captured
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        process.standardOutput = output
        let errorPipe = Pipe()
        switch errors {
        case .captured: process.standardError = errorPipe
        case .merged: process.standardError = output
        case .discarded: process.standardError = FileHandle.nullDevice
        }
        let inputPipe = input.map { _ in Pipe() }
        process.standardInput = inputPipe ?? FileHandle.nullDevice
        try process.run()
        if let input, let inputPipe {
            let writer = inputPipe.fileHandleForWriting
            Thread.detachNewThread {
                writer.write(input)
                try? writer.close()
            }
        }
        let errorReader = errors == .captured ? PipeReader(errorPipe.fileHandleForReading) : nil
        let standardOutput = output.fileHandleForReading.readDataToEndOfFile()
        let standardError = errorReader?.wait() ?? Data()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, standardOutput: standardOutput, standardError: standardError)
    }

    /// Runs `program` found on the `PATH` (through `/usr/bin/env`).
    package static func run(
        program: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        directory: URL? = nil,
        input: Data? = nil,
        errors: ErrorStream = .captured
    ) throws -> Result {
        try run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [program] + arguments,
            environment: environment,
            directory: directory,
            input: input,
            errors: errors
        )
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: Sendable {
    private let data = Locked<Data?>(nil)

    init(_ handle: FileHandle) {
        let data = self.data
        Thread.detachNewThread {
            let read = handle.readDataToEndOfFile()
            data.withLock { $0 = read }
        }
    }

    /// Everything the pipe delivered, once the writer closed it.
    func wait() -> Data {
        data.withLock(when: { $0 != nil }) { $0 ?? Data() }
    }
}
