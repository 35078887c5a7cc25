import IPACheckArchive
import IPACheckReport
import IPACheckSigning

/// Sealed files hashed two at a time (``SHA256Lanes``): the seal pass's largest cost, in about half the time.
extension SealScan {
    /// The bytes each lane reads at a time: the lanes hold what one chunk holds (``chunkSize``).
    static let laneChunkSize = chunkSize / SHA256Lanes.width

    /// Streams the members of the claims `next` gives, for their SHA-256 alone, and hands each
    /// result to `done` with its claim, two at a time.
    ///
    /// Each result is what ``stream(_:plan:reader:buffer:)`` gives for that plan: the digest, or the problem in the
    /// same words. The members' bytes are hashed side by side as far as the shorter chunk goes; the lane that ran
    /// out reads its next chunk (or takes the next member), so the two keep moving together.
    static func streamSHA256(
        reader ipa: IPAMemberReader,
        next: () -> Claim?,
        done: (Claim, StreamResult) -> Void
    ) {
        /// A claim's member being read, its chunk buffer and the part of it not hashed yet.
        struct Lane {
            let claim: Claim
            let stream: ZipMemberStream
            var buffer: [UInt8]
            var unhashed: Range<Int> = 0..<0
        }
        var lanes: [Lane] = []
        var messages: [SHA256Lanes.Message] = []
        var spareBuffers: [[UInt8]] = []
        var exhausted = false
        while true {
            while lanes.count < SHA256Lanes.width, !exhausted {
                guard let claim = next() else {
                    exhausted = true
                    break
                }
                do throws(InputError) {
                    let stream = try ipa.stream(at: claim.member)
                    let buffer = spareBuffers.popLast() ?? [UInt8](repeating: 0, count: laneChunkSize)
                    lanes.append(Lane(claim: claim, stream: stream, buffer: buffer))
                    messages.append(SHA256Lanes.Message())
                } catch {
                    done(claim, StreamResult(more: .init(problem: error.message)))
                }
            }
            guard !lanes.isEmpty else { return }
            var finished: [Int] = []
            for index in lanes.indices where lanes[index].unhashed.isEmpty {
                let stream = lanes[index].stream
                do {
                    let count = try stream.read(into: &lanes[index].buffer)
                    lanes[index].unhashed = 0..<count
                    if count == 0 {
                        let digest = messages[index].finish()
                        let digests = FileDigests(sha1: nil, sha256: digest, size: messages[index].size)
                        done(lanes[index].claim, StreamResult(digests: digests))
                        finished.append(index)
                    }
                } catch {
                    let name = ipa.name(at: lanes[index].claim.member)
                    let problem = InputError("unreadable-member", file: ipa.path, "\(name): \(error.reason)")
                    done(lanes[index].claim, StreamResult(more: .init(problem: problem.message)))
                    finished.append(index)
                }
            }
            for index in finished.reversed() {
                spareBuffers.append(lanes.remove(at: index).buffer)
                messages.remove(at: index)
            }
            // A lane that finished is given its next member before the others hash on without it.
            if !finished.isEmpty, !exhausted { continue }
            let taken = SHA256Lanes.update(&messages, with: lanes.map { $0.buffer[$0.unhashed] })
            for index in lanes.indices {
                let unhashed = lanes[index].unhashed
                lanes[index].unhashed = (unhashed.lowerBound + taken[index])..<unhashed.upperBound
            }
        }
    }
}
