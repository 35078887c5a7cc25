// The hashing microbenchmark (scripts/bench-hash): SHA-256 over the same bytes four ways, against BoringSSL
// (swift-crypto) hashing one message at a time on clean vector registers, measured in the same run, alternating:
//
// - BoringSSL after an ISA-L call that left the vector registers' upper halves in use (what the seal pass did
//   before `ISAL.swift` followed every ISA-L call with `vzeroupper`);
// - ipacheck's compression on the SHA extensions (CSHA256Lanes), one message at a time and two side by side.
//
//     HashThroughput [ROUNDS] [MEGABYTES]      # defaults 5 and 355 (the seal benchmark's inflated bytes)

import CIsal
import CSHA256Lanes
import Crypto
import Foundation

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let rounds = max(arguments.first ?? 5, 1)
let megabytes = max(arguments.dropFirst().first ?? 355, 1)
let chunk = 64 * 1024
let chunks = megabytes * 1_000_000 / chunk
var buffer = [UInt8](repeating: 0, count: 2 * chunk)
for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 7) }

/// Seconds `body` takes.
@MainActor
func timed(_ body: () -> Void) -> Double {
    let start = ContinuousClock.now
    body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}

/// Leaves the upper halves of the vector registers as ISA-L's AVX code leaves them: in use.
@MainActor
func dirtyVectorRegisters() {
    // The buffer's storage is lent to ISA-L for the call only.
    _ = unsafe buffer.withUnsafeBufferPointer { bytes in unsafe crc32_gzip_refl(0, bytes.baseAddress, 4096) }
}

@MainActor
func cleanVectorRegisters() {
    if ipacheck_avx_usable() != 0 { ipacheck_vzeroupper() }
}

var digestSink: UInt8 = 0

/// BoringSSL, one message of `chunks` chunks.
@MainActor
func boringSSL() {
    var hasher = SHA256()
    for _ in 0..<chunks { hasher.update(data: buffer[0..<chunk]) }
    digestSink ^= Array(hasher.finalize())[0]
}

/// CSHA256Lanes: the same bytes as one message, or as two messages of half as many chunks side by side.
@MainActor
func lanes(sideBySide: Bool) {
    var first = [UInt32](repeating: 0x6a09_e667, count: 8)
    var second = first
    // The buffer's storage and the states are lent to the C code for each call only.
    unsafe buffer.withUnsafeBufferPointer { bytes in
        guard let base = bytes.baseAddress else { return }
        for _ in 0..<(sideBySide ? chunks / 2 : chunks) {
            unsafe ipacheck_sha256_lanes_compress(
                &first,
                base,
                chunk / 64,
                &second,
                base + chunk,
                sideBySide ? chunk / 64 : 0
            )
        }
    }
    digestSink ^= UInt8(truncatingIfNeeded: first[0] ^ second[0])
}

var runs: [(name: String, body: () -> Void)] = [
    (
        "BoringSSL, one message (baseline)",
        {
            cleanVectorRegisters(); boringSSL()
        }
    ),
    (
        "BoringSSL after ISA-L, no vzeroupper",
        {
            dirtyVectorRegisters(); boringSSL(); cleanVectorRegisters()
        }
    ),
]
if ipacheck_sha256_lanes_available() != 0 {
    runs.append(
        (
            "SHA extensions, one message",
            {
                cleanVectorRegisters(); lanes(sideBySide: false)
            }
        )
    )
    runs.append(
        (
            "SHA extensions, two side by side",
            {
                cleanVectorRegisters(); lanes(sideBySide: true)
            }
        )
    )
} else {
    print("this CPU has no SHA extensions: only BoringSSL is measured")
}
var seconds = runs.map { _ in [Double]() }
for _ in 0..<rounds {
    for (index, run) in runs.enumerated() { seconds[index].append(timed(run.body)) }
}
let medians = seconds.map { $0.sorted()[$0.count / 2] }
print("SHA-256 of \(chunks * chunk / 1_000_000) MB in 64 KiB chunks, \(rounds) rounds, medians (same run, alternating)")
for (index, run) in runs.enumerated() {
    let ratio = medians[index] / medians[0]
    print(
        "  \(run.name.padding(toLength: 40, withPad: " ", startingAt: 0)) \(String(format: "%6.3f s  %5.2fx", medians[index], ratio))"
    )
}
if digestSink == 0x5A { print("") }  // keeps the digests from being optimized away
