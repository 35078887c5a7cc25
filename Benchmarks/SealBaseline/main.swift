// The baseline of the seal-pass benchmark (scripts/bench-seal): the least work any verifier of an ipa's seals
// must do, which is to inflate every file of the archive and hash it once with SHA-256. `ipacheck check` is
// measured against this in the same run.
//
//     SealBaseline Large.ipa

import Crypto
import Foundation
import IPACheckArchive

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: SealBaseline FILE.ipa\n".utf8))
    exit(64)
}
do {
    let archive = try ZipArchive(path: CommandLine.arguments[1])
    var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    var members = 0
    var bytes = 0
    var digest = SHA256()
    for entry in archive.entries where !entry.isDirectory {
        let stream = try archive.stream(entry)
        var hasher = SHA256()
        while true {
            let count = try stream.read(into: &buffer)
            if count == 0 { break }
            hasher.update(data: buffer[0..<count])
            bytes += count
        }
        digest.update(data: Array(hasher.finalize()))
        members += 1
    }
    print("\(members) members, \(bytes) bytes inflated and hashed; digest of digests \(digest.finalize())")
} catch {
    FileHandle.standardError.write(Data("SealBaseline: \(error)\n".utf8))
    exit(2)
}
