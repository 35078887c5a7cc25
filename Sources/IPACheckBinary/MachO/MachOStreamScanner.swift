/// Reads a Mach-O's headers and code signatures from a forward-only stream (a compressed zip entry), keeping
/// only the bytes it needs.
///
/// Feed the file's bytes in order with ``consume(_:)`` until ``container`` is set, then stop reading. Memory
/// stays proportional to the header, load commands and signatures actually present.
package struct MachOStreamScanner: Sendable {
    /// The bytes kept so far.
    package private(set) var file: PartialFile
    /// The parsed container, once every needed range has streamed past.
    package private(set) var container: MachOContainer?
    private var position = 0

    /// Prepares to read a file of `fileSize` bytes (the zip entry's uncompressed size).
    package init(fileSize: Int) {
        file = PartialFile(size: fileSize)
    }

    /// Whether the scan is finished and the rest of the stream can be skipped.
    package var isComplete: Bool { container != nil }

    /// Where each slice's signature starts, as far as the bytes consumed so far tell (see
    /// ``MachOContainer/signatureStarts(_:)``).
    package var signatureStarts: [(slice: Range<Int>, start: MachOContainer.SignatureStart)] {
        MachOContainer.signatureStarts(file)
    }

    /// Takes the next bytes of the stream (they follow the previous call's bytes directly).
    ///
    /// - Throws: ``ParseError`` when the known bytes are malformed, or `.unsupported` when a needed range lies
    ///   before bytes already streamed past (a layout no real Mach-O has).
    package mutating func consume(_ chunk: ArraySlice<UInt8>) throws(ParseError) {
        let chunkRange = position..<(position + chunk.count)
        defer { position = chunkRange.upperBound }
        while container == nil {
            switch try MachOContainer.scan(file) {
            case .complete(let result):
                container = result
            case .needsBytes(let ranges):
                var added = false
                for range in ranges {
                    if range.lowerBound < chunkRange.lowerBound,
                        !file.contains(range.lowerBound..<chunkRange.lowerBound)
                    {
                        throw ParseError(
                            .unsupported,
                            field: "stream",
                            at: range.lowerBound,
                            reason: "\(range.words) were needed after the stream passed them"
                        )
                    }
                    let wanted = range.clamped(to: chunkRange)
                    guard !wanted.isEmpty, !file.contains(wanted) else { continue }
                    let base = chunk.startIndex - chunkRange.lowerBound
                    file.add(chunk[(base + wanted.lowerBound)..<(base + wanted.upperBound)], at: wanted.lowerBound)
                    added = true
                }
                if !added { return }
            }
        }
    }

    /// Declares the stream finished and returns the container.
    ///
    /// - Throws: ``ParseError`` `.truncated` when the stream ended before every needed byte arrived.
    package func finish() throws(ParseError) -> MachOContainer {
        if let container { return container }
        switch try MachOContainer.scan(file) {
        case .complete(let result):
            return result
        case .needsBytes(let ranges):
            throw ParseError(
                .truncated,
                field: "stream",
                at: position,
                reason: "the stream ended before \(ranges.words)"
            )
        }
    }
}
