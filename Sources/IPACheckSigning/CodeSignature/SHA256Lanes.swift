internal import CSHA256Lanes

/// SHA-256 of two messages side by side on the CPU's SHA extensions, each fed a chunk at a time.
///
/// One message at a time leaves the SHA unit waiting on each round's result; two interleaved keep it busy, so the
/// seal pass, which hashes every sealed file, hashes them in about half of BoringSSL's time one after another
/// (docs/performance.md). Where the CPU has no SHA extensions, or is not x86-64, ``isAvailable`` is false and
/// callers hash with ``FileDigester``. The digests are SHA-256's (FIPS 180-4); the tests compare them with
/// swift-crypto's on messages of every length around the block boundaries.
package enum SHA256Lanes {
    /// Whether this CPU runs the lanes.
    package static let isAvailable = ipacheck_sha256_lanes_available() != 0

    /// The most messages hashed side by side (four would be slower: their state outgrows the registers the SHA
    /// instructions can use).
    package static let width = 2

    /// One message being hashed.
    package struct Message: Sendable {
        /// The hash value H0…H7 after the whole blocks fed so far.
        fileprivate var state = SIMD8<UInt32>(
            0x6a09_e667,
            0xbb67_ae85,
            0x3c6e_f372,
            0xa54f_f53a,
            0x510e_527f,
            0x9b05_688c,
            0x1f83_d9ab,
            0x5be0_cd19
        )
        /// The bytes after the last whole block (fewer than 64).
        fileprivate var pending: [UInt8] = []
        /// How many bytes were fed.
        package fileprivate(set) var size = 0

        package init() {}

        /// The digest of everything fed (the message is left as it is).
        package func finish() -> [UInt8] {
            // FIPS 180-4 §5.1.1: a 1 bit, zeros to 56 bytes past a block boundary, the length in bits (mod 2^64).
            var tail = [UInt8]()
            tail.reserveCapacity(128)
            tail.append(contentsOf: pending)
            tail.append(0x80)
            tail.append(contentsOf: repeatElement(0, count: (119 - pending.count) % 64))
            let bits = UInt64(truncatingIfNeeded: size) &* 8
            for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> shift)) }
            var finished = state
            SHA256Lanes.compress(&finished, tail[...])
            var digest = [UInt8]()
            digest.reserveCapacity(32)
            for word in 0..<8 {
                for shift in stride(from: 24, through: 0, by: -8) {
                    digest.append(UInt8(truncatingIfNeeded: finished[word] >> UInt32(shift)))
                }
            }
            return digest
        }

        /// Takes the bytes of `chunk` that complete the pending block (hashing it when complete), and all of it when
        /// less than a block would be left; returns the rest, which starts on a block of this message.
        fileprivate mutating func completePending(_ chunk: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            var chunk = chunk
            if !pending.isEmpty {
                let completing = chunk.prefix(64 - pending.count)
                pending.append(contentsOf: completing)
                chunk = chunk.dropFirst(completing.count)
                if pending.count == 64 {
                    SHA256Lanes.compress(&state, pending[...])
                    pending.removeAll(keepingCapacity: true)
                }
            }
            if chunk.count < 64 {
                pending.append(contentsOf: chunk)
                chunk = chunk.dropFirst(chunk.count)
            }
            return chunk
        }
    }

    /// Feeds the messages side by side from `chunks` (one for each of the first ``width`` messages) and returns how
    /// many bytes of each chunk were taken.
    ///
    /// The messages with a whole block to give hash as many blocks together as the shorter of them has; less than
    /// a block left in a chunk is taken too (kept until the next chunk completes the block). The caller gives the
    /// rest of each chunk again, and the next chunk where one was taken whole, so the messages keep moving together.
    package static func update(_ messages: inout [Message], with chunks: [ArraySlice<UInt8>]) -> [Int] {
        let count = min(messages.count, chunks.count, width)
        guard count > 0 else { return [] }
        let first = messages[0].completePending(chunks[0])
        let second = count > 1 ? messages[1].completePending(chunks[1]) : []
        // As many blocks as the shorter of the chunks with a block to give.
        let steps = [first, second].filter { !$0.isEmpty }.map { $0.count / 64 }.min() ?? 0
        if count > 1 {
            var firstState = messages[0].state
            var secondState = messages[1].state
            compress(&firstState, first.prefix(64 * steps), &secondState, second.prefix(64 * steps))
            messages[0].state = firstState
            messages[1].state = secondState
        } else {
            compress(&messages[0].state, first.prefix(64 * steps))
        }
        var taken = [Int]()
        taken.reserveCapacity(count)
        for (lane, body) in [first, second].prefix(count).enumerated() {
            // Less than a block left: kept now, so that the lane reads its next chunk in the next round instead of
            // sitting that round out.
            let rest = body.dropFirst(64 * steps)
            if rest.count < 64 { messages[lane].pending.append(contentsOf: rest) }
            let left = rest.count < 64 ? 0 : rest.count
            taken.append(chunks[lane].count - left)
            messages[lane].size += taken[lane]
        }
        return taken
    }

    /// Compresses the whole blocks of `blocks` (a multiple of 64 bytes) into `state`.
    private static func compress(_ state: inout SIMD8<UInt32>, _ blocks: ArraySlice<UInt8>) {
        var unused = SIMD8<UInt32>()
        compress(&state, blocks, &unused, [])
    }

    /// Compresses the whole blocks of `firstBlocks` into `firstState` and of `secondBlocks` into `secondState`,
    /// side by side.
    private static func compress(
        _ firstState: inout SIMD8<UInt32>,
        _ firstBlocks: ArraySlice<UInt8>,
        _ secondState: inout SIMD8<UInt32>,
        _ secondBlocks: ArraySlice<UInt8>
    ) {
        guard !firstBlocks.isEmpty || !secondBlocks.isEmpty else { return }
        // The states and the blocks' storage are lent for the call only; the C code reads `count / 64` blocks of
        // each and writes eight words of each state.
        unsafe withUnsafeMutableBytes(of: &firstState) { first in
            unsafe withUnsafeMutableBytes(of: &secondState) { second in
                unsafe firstBlocks.withUnsafeBufferPointer { firstData in
                    unsafe secondBlocks.withUnsafeBufferPointer { secondData in
                        unsafe ipacheck_sha256_lanes_compress(
                            first.baseAddress?.assumingMemoryBound(to: UInt32.self),
                            firstData.baseAddress,
                            firstBlocks.count / 64,
                            second.baseAddress?.assumingMemoryBound(to: UInt32.self),
                            secondData.baseAddress,
                            secondBlocks.count / 64
                        )
                    }
                }
            }
        }
    }
}
