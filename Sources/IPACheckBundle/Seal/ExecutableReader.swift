import Foundation
import IPACheckArchive
import IPACheckBinary
import IPACheckReport
import IPACheckSigning

/// Reads an executable from a stream of chunks: its headers and signatures (``MachOStreamScanner``) and the
/// digests of its code pages (``CodePageDigester``), in one pass that keeps neither the code nor the file.
struct ExecutableReader {
    private var scanner: MachOStreamScanner
    private var pages = CodePageDigester()
    private var layoutKnown = false
    private var offset = 0
    private var problem: ParseError?

    /// A reader for a file of `fileSize` bytes (the declared size; a stream that ends early is reported).
    init(fileSize: Int) {
        scanner = MachOStreamScanner(fileSize: fileSize)
    }

    /// Feeds the first `count` bytes of `buffer`, which follow the previous chunk directly.
    mutating func consume(_ buffer: [UInt8], count: Int) {
        if problem == nil, !scanner.isComplete {
            do {
                try scanner.consume(buffer[0..<count])
            } catch {
                problem = error
            }
        }
        if !layoutKnown {
            let starts = scanner.signatureStarts
            pages.update(starts)
            layoutKnown = !starts.isEmpty && starts.allSatisfy { $0.start != .unknown }
        }
        let start = offset
        pages.consume(buffer[0..<count], at: start)
        offset += count
    }

    /// The headers, signatures and page digests, or why the bytes are not a readable Mach-O.
    func finish() -> Result<(container: MachOContainer, pages: [CodePageDigests]), ParseError> {
        if let problem { return .failure(problem) }
        do {
            return .success((try scanner.finish(), pages.finish()))
        } catch {
            return .failure(error)
        }
    }
}
