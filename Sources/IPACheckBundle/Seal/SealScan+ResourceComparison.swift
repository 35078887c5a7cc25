import Foundation
import IPACheckArchive
import IPACheckConcurrency
import IPACheckPlist
import IPACheckReport
import IPACheckSigning

/// Comparing every bundle's sealed files with the archive while the seals stream past.
///
/// A thread of our own reads each CodeResources and hands every file entry, with the digest it names, to hashing
/// threads that read the member and keep only a mismatch. Nothing is held for each file but a bit (whether the seal
/// lists it): a million-file seal is compared in the memory of a few batches of entries, where holding the seal's
/// entries and the digests taken cost about 125 bytes a file (docs/performance.md).
extension SealScan {
    /// One bit for each member of an archive.
    struct MemberBits: Sendable {
        private var words: [UInt64]

        /// No member set, for an archive of `count` members.
        init(count: Int) {
            words = [UInt64](repeating: 0, count: (max(count, 0) + 63) / 64)
        }

        /// Whether `member`'s bit is set.
        func contains(_ member: Int) -> Bool {
            member >= 0 && member >> 6 < words.count && words[member >> 6] & (1 << UInt64(member & 63)) != 0
        }

        /// Sets `member`'s bit.
        mutating func insert(_ member: Int) {
            guard member >= 0, member >> 6 < words.count else { return }
            words[member >> 6] |= 1 << UInt64(member & 63)
        }
    }

    /// One bundle's CodeResources, as the comparison read it.
    struct ReadSeal: Sendable {
        /// The seal, its file entries taken out when they were compared here; or why it could not be read.
        var seal: Result<ResourceSeal, CodeSignatureError>
        /// The digests of the CodeResources file itself (for the CodeDirectory's special slot).
        var digests: FileDigests?
        /// Its bytes, when another check asked to keep them.
        var kept: [UInt8]?
        /// What comparing its files found; nil when they were not compared.
        var streamed: ResourceSeal.StreamedFiles?
        /// The members its file entries list; nil when they were not compared.
        var listed: MemberBits?
    }

    /// What the comparison gave: each bundle's seal (by bundle path) and the members that could not be read.
    struct ComparedSeals: Sendable {
        var seals: [String: ReadSeal] = [:]
        /// Members of a readable seal that could not be read, ascending, each once.
        var problems: [(member: Int, problem: String)] = []
        /// Each seal's bundle path, by the seal's number in the pass.
        var bundles: [Int: String] = [:]
        /// Each seal's last reading (a seal read again voids what its first reading handed out).
        var readings: [Int: Int] = [:]
    }

    /// A sealed file to hash and compare: which seal (and which reading of it) names it, the member, the path as
    /// the seal spells it and the digest the seal names.
    struct Claim: Sendable {
        let seal: Int
        let reading: Int
        let member: Int
        let path: String
        let sha1: [UInt8]?
        let sha256: [UInt8]?
    }

    /// What one reading thread found for one reading of one seal.
    struct ClaimResults: Sendable {
        var modified: [String] = []
        var checked = 0
        var unreadable: [String] = []
    }

    /// The batches of claims between the thread reading the seals and the threads hashing files, and what the
    /// hashing threads found.
    struct ComparisonState: Sendable {
        var batches: [[Claim]] = []
        var closed = false
        var running = 0
        /// By seal, then by reading of it.
        var results: [Int: [Int: ClaimResults]] = [:]
        var problems: [(member: Int, problem: String, seal: Int, reading: Int)] = []
        var compared: ComparedSeals?
        /// The async caller, suspended until every thread is done.
        var waiting: CheckedContinuation<ComparedSeals, Never>?

        /// Whether every thread is done.
        var isDone: Bool { running == 0 && compared != nil }
    }

    /// Claims in a batch, and batches queued at most: the seal reader waits when the hashing threads are behind.
    static let claimsPerBatch = 512
    static let queuedBatches = 8

    /// The comparison of every seal of `ipa`, running on threads of our own.
    struct ResourceComparison: Sendable {
        private let state: Locked<ComparisonState>

        /// Starts reading the seals (and, for ``Depth/everything``, `threads` threads hashing the files they list,
        /// two at a time when `sideBySide`).
        init(_ ipa: IPAFile, depth: Depth, keep: (String) -> Bool, threads: Int, sideBySide: Bool) {
            let sealed = ipa.bundles.compactMap { bundle in
                bundle.codeResources.map { (bundle: bundle.path, member: $0, keep: keep($0)) }
            }
            let hashers = depth == .everything && !sealed.isEmpty ? max(threads, 1) : 0
            let state = Locked(ComparisonState(running: hashers + 1))
            self.state = state
            let reopening = ipa.reader.reopening
            let wholeDigestMembers = Set(
                ipa.bundles.flatMap { [$0.infoPlistPath] + [$0.codeResources].compactMap(\.self) }
            )
            let links = ipa.linkTargets
            for _ in 0..<hashers {
                let thread = Thread { Self.hash(state: state, reopening: reopening, sideBySide: sideBySide) }
                thread.name = "ipacheck-seal"
                thread.start()
            }
            let reader = Thread {
                var sealReader = SealReader(
                    state: state,
                    depth: depth,
                    links: links,
                    wholeDigestMembers: wholeDigestMembers
                )
                let compared = sealReader.read(sealed, reopening: reopening)
                Self.finish(state: state) { $0.compared = compared }
            }
            reader.name = "ipacheck-seals"
            reader.start()
        }

        /// Suspends until every thread is done, then returns what they found.
        func results() async -> ComparedSeals {
            await withCheckedContinuation { continuation in
                let done = state.withLock { state -> ComparedSeals? in
                    if state.isDone { return Self.take(&state) }
                    state.waiting = continuation
                    return nil
                }
                if let done { continuation.resume(returning: done) }
            }
        }

        /// Sleeps until every thread is done, then returns what they found.
        func waitForResults() -> ComparedSeals {
            state.withLock(when: \.isDone) { Self.take(&$0) }
        }

        /// Marks a thread done after `body`, resuming the async caller when it was the last.
        private static func finish(state: Locked<ComparisonState>, _ body: (inout ComparisonState) -> Void) {
            let resume = state.withLock { state -> (CheckedContinuation<ComparedSeals, Never>, ComparedSeals)? in
                body(&state)
                state.running -= 1
                guard state.isDone, let waiting = state.waiting else { return nil }
                state.waiting = nil
                return (waiting, take(&state))
            }
            if case (let waiting, let compared)? = resume { waiting.resume(returning: compared) }
        }

        /// The seals with what the hashing threads found for each one's last reading.
        private static func take(_ state: inout ComparisonState) -> ComparedSeals {
            var compared = state.compared ?? ComparedSeals()
            state.compared = nil
            for (seal, byReading) in state.results {
                guard let bundle = compared.bundles[seal], compared.seals[bundle]?.streamed != nil,
                    let found = byReading[compared.readings[seal] ?? -1]
                else { continue }
                compared.seals[bundle]?.streamed?.modified += found.modified
                compared.seals[bundle]?.streamed?.checked += found.checked
                compared.seals[bundle]?.streamed?.unreadable += found.unreadable
            }
            var seen = Set<Int>()
            for problem in state.problems.sorted(by: { ($0.member, $0.seal) < ($1.member, $1.seal) }) {
                guard compared.readings[problem.seal] == problem.reading, let bundle = compared.bundles[problem.seal],
                    case .success? = compared.seals[bundle]?.seal, seen.insert(problem.member).inserted
                else { continue }
                compared.problems.append((problem.member, problem.problem))
            }
            state.results = [:]
            state.problems = []
            return compared
        }

        /// A hashing thread: takes batches of claims until the seal reader is done, hashes each member and keeps
        /// what does not match.
        ///
        /// With `sideBySide`, claims naming a SHA-256 are hashed two at a time (``SHA256Lanes``), the lanes kept
        /// full across batches; the others one at a time as they come.
        private static func hash(
            state: Locked<ComparisonState>,
            reopening: IPAMemberReader.Reopening,
            sideBySide: Bool
        ) {
            let thread = HashingThread(state: state)
            switch Result(catching: { () throws(InputError) in try reopening.open() }) {
            case .failure(let error):
                while let claim = thread.nextClaim() {
                    thread.problems.append((claim.member, error.message, claim.seal, claim.reading))
                }
            case .success(let reader):
                // Taken only when a claim is hashed alone (the lanes have buffers of their own).
                var buffer: [UInt8] = []
                let streamAlone = { (claim: Claim) in
                    if buffer.isEmpty { buffer = [UInt8](repeating: 0, count: chunkSize) }
                    var plan = MemberPlan()
                    if claim.sha256 != nil { plan.sha256 = true } else { plan.sha1 = true }
                    thread.record(claim, stream(claim.member, plan: plan, reader: reader, buffer: &buffer))
                }
                if sideBySide, SHA256Lanes.isAvailable {
                    streamSHA256(
                        reader: reader,
                        next: {
                            while let claim = thread.nextClaim() {
                                if claim.sha256 != nil { return claim }
                                streamAlone(claim)
                            }
                            return nil
                        },
                        done: { claim, result in thread.record(claim, result) }
                    )
                } else {
                    while let claim = thread.nextClaim() { streamAlone(claim) }
                }
            }
            finish(state: state) { state in
                for (seal, byReading) in thread.results {
                    for (reading, found) in byReading {
                        state.results[seal, default: [:]][reading, default: ClaimResults()].modified += found.modified
                        state.results[seal, default: [:]][reading, default: ClaimResults()].checked += found.checked
                        state.results[seal, default: [:]][reading, default: ClaimResults()].unreadable +=
                            found.unreadable
                    }
                }
                state.problems += thread.problems
            }
        }
    }

    /// One hashing thread's claims and what it found (used on that thread only).
    private final class HashingThread {
        private let state: Locked<ComparisonState>
        private var batch: ArraySlice<Claim> = []
        /// By seal, then by reading of it.
        var results: [Int: [Int: ClaimResults]] = [:]
        var problems: [(member: Int, problem: String, seal: Int, reading: Int)] = []

        init(state: Locked<ComparisonState>) {
            self.state = state
        }

        /// The next claim, waiting for a batch when this one is done; nil once the seal reader is done and every
        /// batch taken.
        func nextClaim() -> Claim? {
            while batch.isEmpty {
                guard
                    let next = state.withLock(
                        when: { !$0.batches.isEmpty || $0.closed },
                        { $0.batches.isEmpty ? nil : $0.batches.removeFirst() }
                    )
                else { return nil }
                batch = next[...]
            }
            return batch.popFirst()
        }

        /// Keeps what hashing `claim`'s member gave: a count, and the path when it does not match or could not be
        /// read.
        func record(_ claim: Claim, _ result: StreamResult) {
            guard let digests = result.digests else {
                if let problem = result.problem {
                    problems.append((claim.member, problem, claim.seal, claim.reading))
                }
                results[claim.seal, default: [:]][claim.reading, default: ClaimResults()].unreadable.append(claim.path)
                return
            }
            let matches = claim.sha256 != nil ? digests.sha256 == claim.sha256 : digests.sha1 == claim.sha1
            results[claim.seal, default: [:]][claim.reading, default: ClaimResults()].checked += 1
            if !matches {
                results[claim.seal, default: [:]][claim.reading, default: ClaimResults()].modified.append(claim.path)
            }
        }
    }
}
