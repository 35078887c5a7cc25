import Crypto
import Testing

@testable import IPACheckSigning

/// The lanes give SHA-256's digests: FIPS 180-4's examples, and swift-crypto's (BoringSSL's) digests of messages of
/// every length around the block boundaries, fed in chunks that split blocks anywhere, alone and side by side.
@Suite(.enabled(if: SHA256Lanes.isAvailable, "this CPU has no SHA extensions: the seal pass hashes with FileDigester"))
struct SHA256LanesTests {
    /// A fixed stream of pseudo-random numbers (xorshift64), so a failure can be replayed.
    private struct Numbers {
        var value: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next(below bound: Int) -> Int {
            value ^= value << 13
            value ^= value >> 7
            value ^= value << 17
            return Int(value % UInt64(max(bound, 1)))
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Feeds `messages` side by side (``SHA256Lanes/width`` at a time), each cut into chunks of up to
    /// `largestChunk` bytes, and returns their digests.
    private static func digests(_ messages: [[UInt8]], largestChunk: Int, numbers: inout Numbers) -> [[UInt8]] {
        stride(from: 0, to: messages.count, by: SHA256Lanes.width).flatMap { start in
            let group = Array(messages[start..<min(start + SHA256Lanes.width, messages.count)])
            var states = group.map { _ in SHA256Lanes.Message() }
            var offsets = group.map { _ in 0 }
            var ends = offsets
            while zip(offsets, group).contains(where: { $0 < $1.count }) {
                // A lane whose chunk was all taken gets its next one, of a random size; the others give the rest
                // again.
                for lane in group.indices where offsets[lane] == ends[lane] {
                    ends[lane] = min(offsets[lane] + numbers.next(below: largestChunk + 1), group[lane].count)
                }
                let chunks = group.indices.map { group[$0][offsets[$0]..<ends[$0]] }
                let taken = SHA256Lanes.update(&states, with: chunks)
                #expect(taken.count == group.count)
                for (lane, count) in taken.enumerated() {
                    #expect(count <= chunks[lane].count)
                    offsets[lane] += count
                }
            }
            return states.map { $0.finish() }
        }
    }

    @Test func givesTheStandardsExamples() {
        var numbers = Numbers()
        let examples = [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
        ]
        let found = Self.digests(examples.map { Array($0.0.utf8) }, largestChunk: 7, numbers: &numbers)
        #expect(found.map(Self.hex) == examples.map(\.1))
    }

    @Test(arguments: [1, 2, 3])
    func agreesWithSwiftCryptoOnEveryLengthAroundTheBlocks(lanes: Int) {
        var numbers = Numbers()
        // Every length from 0 to 300 (each padding case: 55, 56, 63, 64 bytes past a boundary) in chunks of any
        // size, then a few large ones in chunks of about a lane's.
        let groups = [(Array(0...300), [1, 63, 64, 65, 1000]), ([4096, 65_536 + 13, 300_007], [4099, 70_000])]
        for (allLengths, chunkSizes) in groups {
            var lengths = allLengths
            while !lengths.isEmpty {
                let taken = Array(lengths.prefix(lanes))
                lengths.removeFirst(taken.count)
                let messages = taken.map { length in (0..<length).map { _ in UInt8(numbers.next(below: 256)) } }
                for largestChunk in chunkSizes {
                    let found = Self.digests(messages, largestChunk: largestChunk, numbers: &numbers)
                    #expect(
                        found == messages.map { Array(SHA256.hash(data: $0)) },
                        "lengths \(taken), chunks of up to \(largestChunk) bytes"
                    )
                }
            }
        }
    }

    @Test func aMessageFedNothingMoreKeepsItsDigest() {
        var states = [SHA256Lanes.Message(), SHA256Lanes.Message()]
        let message = Array("abc".utf8)
        #expect(SHA256Lanes.update(&states, with: [message[...], []]) == [3, 0])
        #expect(SHA256Lanes.update(&states, with: [[], []]) == [0, 0])
        #expect(states[0].finish() == Array(SHA256.hash(data: message)))
        #expect(states[1].finish() == Array(SHA256.hash(data: [UInt8]())))
        #expect(states.map(\.size) == [3, 0])
    }
}
