// The baseline of the seal-pass benchmark (scripts/bench-seal): the least work any verifier of an ipa's seals
// must do with the common tools, which is to inflate every file of the archive with zlib (through libzip, which
// also checks each CRC, as every unzip does) and hash it once with SHA-256. `ipacheck check` is measured against
// this "zlib + SHA-256 floor" in the same run.
//
//     SealBaseline Large.ipa

import CZip
import Crypto
import Foundation

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: SealBaseline FILE.ipa\n".utf8))
    exit(64)
}
var errorCode: Int32 = 0
// The path is a temporary C string and the error code a local, both alive for the call.
guard let archive = unsafe zip_open(CommandLine.arguments[1], ZIP_RDONLY, &errorCode) else {
    FileHandle.standardError.write(Data("SealBaseline: libzip error \(errorCode) opening the archive\n".utf8))
    exit(2)
}
var buffer = [UInt8](repeating: 0, count: 256 * 1024)
var members = 0
var bytes = 0
var digest = SHA256()
let memberCount = unsafe zip_get_num_entries(archive, 0)
for index in 0..<memberCount {
    // libzip's name is a C string owned by the archive, copied at once.
    guard let rawName = unsafe zip_get_name(archive, zip_uint64_t(index), 0) else { continue }
    let name = unsafe String(cString: rawName)
    if name.hasSuffix("/") { continue }
    guard let file = unsafe zip_fopen_index(archive, zip_uint64_t(index), 0) else {
        FileHandle.standardError.write(Data("SealBaseline: member \(index) cannot be opened\n".utf8))
        exit(2)
    }
    var hasher = SHA256()
    while true {
        // libzip writes at most `buffer.count` bytes into the array's storage, lent for the call.
        let count = unsafe buffer.withUnsafeMutableBytes { bytes in
            unsafe zip_fread(file, bytes.baseAddress, zip_uint64_t(bytes.count))
        }
        guard count >= 0 else {
            FileHandle.standardError.write(Data("SealBaseline: member \(index) is damaged\n".utf8))
            exit(2)
        }
        if count == 0 { break }
        hasher.update(data: buffer[0..<Int(count)])
        bytes += Int(count)
    }
    unsafe zip_fclose(file)
    digest.update(data: Array(hasher.finalize()))
    members += 1
}
unsafe zip_discard(archive)
print("\(members) members, \(bytes) bytes inflated and hashed; digest of digests \(digest.finalize())")
