import Foundation
import IPACheckBinary
import IPACheckFuzzSupport
import IPACheckSigning

/// Mach-O, SuperBlob and CodeDirectory parsing, and signature verification of whatever parses.
///
/// The same bytes are also streamed through ``MachOStreamScanner`` in chunks whose size the input's last byte
/// picks: when the stream yields a container it must be the one the whole-file parse yields, since the scanner
/// promises to read exactly the bytes `parse` reads.
enum MachOHarness {
    /// A fixed clock, so that certificate validity (and so the outcome) depends on the input alone.
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    static func run(_ bytes: [UInt8]) {
        let parsed = try? MachOContainer.parse(bytes)
        if let streamed = stream(bytes), streamed != parsed {
            fatalError("the stream scanner and the whole-file parse disagree on a \(bytes.count)-byte input")
        }
        _ = try? SignatureVerifier.verify(
            fileBytes: bytes,
            infoPlist: .bytes(Array(bytes.prefix(64))),
            codeResources: .notChecked,
            now: now
        )
        // The input as a bare SuperBlob (LC_CODE_SIGNATURE payload) and as a bare CodeDirectory blob.
        if let signature = try? CodeSignature.parse(bytes[...]) {
            _ = SignedEntitlements.read(signature, context: "fuzz")
            if let cms = signature.cmsSignature {
                _ = try? CMSSignatureCheck.check(cms: cms.payload, codeDirectories: signature.codeDirectories)
            }
        }
        if let directory = try? CodeDirectory.parse(bytes[...], slot: 0) {
            for slot in 0...directory.specialSlotCount + 1 { _ = directory.specialSlotHash(slot) }
            _ = directory.codeSlotHash(0)
            _ = directory.codeSlotHash(directory.codeSlotCount)
        }
    }

    /// The container the stream scanner finds, fed `bytes` in chunks of 512 bytes to 64 KiB; nil when it throws.
    ///
    /// The caller's read buffer sets the chunk size, never the file (the scanner rescans the headers after each
    /// chunk, so byte-sized chunks would only measure that rescan).
    private static func stream(_ bytes: [UInt8]) -> MachOContainer? {
        let chunkSize = 512 << Int((bytes.last ?? 0) % 8)
        var scanner = MachOStreamScanner(fileSize: bytes.count)
        var start = 0
        do {
            while start < bytes.count, !scanner.isComplete {
                let end = min(start + chunkSize, bytes.count)
                try scanner.consume(bytes[start..<end])
                start = end
            }
            return try scanner.finish()
        } catch {
            return nil
        }
    }
}

/// Fuzzes with libFuzzer in a fuzz build, replays the files named on the command line otherwise.
@main
enum Main {
    static func main() { FuzzMain.run(MachOHarness.run) }
}
