import Foundation
import IPACheckArchive
import IPACheckConcurrency
import IPACheckReport
import IPACheckSigning

/// Streaming: each member read once, in shares on threads of their own.
extension SealScan {
    // MARK: - Streaming one member

    /// What to take from one member.
    ///
    /// Plain flags (no set to allocate): a large app plans one for every file.
    struct MemberPlan: Equatable {
        var sha1 = false
        var sha256 = false
        var isExecutable = false
        var keep = false
        var needles: [String] = []

        mutating func insert(_ kind: DigestKind) {
            switch kind {
            case .sha1: sha1 = true
            case .sha256: sha256 = true
            }
        }

        var digests: Set<DigestKind> {
            var kinds: Set<DigestKind> = []
            if sha1 { kinds.insert(.sha1) }
            if sha256 { kinds.insert(.sha256) }
            return kinds
        }
    }

    /// The plans of a pass, one byte of flags for each member of the archive (a dictionary of plans cost about 40
    /// bytes a planned member), and the strings to search for beside them (only the main executable has any).
    struct MemberPlans: Sendable {
        private var flags: [UInt8]
        private var needles: [Int: [String]] = [:]

        private static let planned: UInt8 = 1
        private static let sha1: UInt8 = 2
        private static let sha256: UInt8 = 4
        private static let executable: UInt8 = 8
        private static let keep: UInt8 = 16

        /// No plan yet for any of `memberCount` members.
        init(memberCount: Int) {
            flags = [UInt8](repeating: 0, count: max(memberCount, 0))
        }

        /// The plan for `member`, if it has one; setting one outside the archive's members is ignored.
        subscript(member: Int) -> MemberPlan? {
            get {
                guard flags.indices.contains(member), flags[member] & Self.planned != 0 else { return nil }
                let flag = flags[member]
                var plan = MemberPlan()
                plan.sha1 = flag & Self.sha1 != 0
                plan.sha256 = flag & Self.sha256 != 0
                plan.isExecutable = flag & Self.executable != 0
                plan.keep = flag & Self.keep != 0
                plan.needles = needles[member] ?? []
                return plan
            }
            set {
                guard flags.indices.contains(member) else { return }
                guard let plan = newValue else {
                    flags[member] = 0
                    needles[member] = nil
                    return
                }
                var flag = Self.planned
                if plan.sha1 { flag |= Self.sha1 }
                if plan.sha256 { flag |= Self.sha256 }
                if plan.isExecutable { flag |= Self.executable }
                if plan.keep { flag |= Self.keep }
                flags[member] = flag
                needles[member] = plan.needles.isEmpty ? nil : plan.needles
            }
        }

        /// The plan for `member`, or `plan` when it has none, to change in place.
        subscript(member: Int, default plan: MemberPlan) -> MemberPlan {
            get { self[member] ?? plan }
            set { self[member] = newValue }
        }

        /// The members with a plan, ascending (the archive's order).
        var members: [Int] { flags.indices.filter { flags[$0] & Self.planned != 0 } }
    }

    /// What streaming one member gave.
    ///
    /// The digests stand inline; the rest, which few members have, in one box, so the result of each of a hundred
    /// thousand sealed files stays small.
    struct StreamResult: Sendable {
        var digests: FileDigests?
        var more: More?

        final class More: Sendable {
            let found: Set<String>?
            let bytes: [UInt8]?
            let executable: Result<Executable, InputError>?
            let problem: String?

            init(
                found: Set<String>? = nil,
                bytes: [UInt8]? = nil,
                executable: Result<Executable, InputError>? = nil,
                problem: String? = nil
            ) {
                self.found = found
                self.bytes = bytes
                self.executable = executable
                self.problem = problem
            }
        }

        var found: Set<String>? { more?.found }
        var bytes: [UInt8]? { more?.bytes }
        var executable: Result<Executable, InputError>? { more?.executable }
        var problem: String? { more?.problem }
    }

    /// The shares after the first, each streamed on a thread of our own with its own handle on the file, front to
    /// back, while the caller streams the first share with its handle.
    ///
    /// Threads of our own, not tasks: inflating is CPU-bound and reading blocks on the disk, which must not hold up
    /// the few threads Swift's concurrency runs on; and a share gets a thread even when those are busy.
    struct OtherShares: Sendable {
        /// What the threads streamed, and how many are still at it.
        struct Progress: Sendable {
            var results = StreamedMembers()
            var running: Int
            /// The async caller, suspended until `running` is 0.
            var waiting: Waiting?

            /// The results, handed over once: the threads keep no copy.
            mutating func take() -> StreamedMembers {
                defer { results = StreamedMembers() }
                return results
            }
        }

        typealias Waiting = CheckedContinuation<StreamedMembers, Never>

        private let progress: Locked<Progress>

        /// Starts one thread per share.
        ///
        /// A share whose thread cannot open the file again is left unread, for ``Pass/finish(_:ipa:)`` to read
        /// with the first handle.
        init(_ shares: ArraySlice<[Int]>, plans: MemberPlans, reopening: IPAMemberReader.Reopening) {
            let progress = Locked(Progress(running: shares.count))
            self.progress = progress
            for share in shares {
                let thread = Thread {
                    let taken =
                        (try? reopening.open()).map { streamShare(share, plans: plans, reader: $0) }
                        ?? StreamedMembers()
                    let done = progress.withLock { progress -> (Waiting, StreamedMembers)? in
                        progress.results = progress.results.merged(with: taken)
                        progress.running -= 1
                        guard progress.running == 0, let waiting = progress.waiting else { return nil }
                        progress.waiting = nil
                        return (waiting, progress.take())
                    }
                    if case (let waiting, let results)? = done { waiting.resume(returning: results) }
                }
                thread.name = "ipacheck-seal"
                thread.start()
            }
        }

        /// Suspends until every thread is done, then returns what they streamed.
        func results() async -> StreamedMembers {
            await withCheckedContinuation { continuation in
                let done = progress.withLock { progress -> StreamedMembers? in
                    if progress.running == 0 { return progress.take() }
                    progress.waiting = continuation
                    return nil
                }
                if let done { continuation.resume(returning: done) }
            }
        }

        /// Sleeps until every thread is done, then returns what they streamed.
        func waitForResults() -> StreamedMembers {
            progress.withLock(when: { $0.running == 0 }) { $0.take() }
        }
    }

    /// Splits `order` into at most `count` shares of about equal declared size, each kept in archive order.
    ///
    /// The largest members are placed first, each into the lightest share, with no fewer than `bytesPerShare`
    /// bytes a share. Declared sizes only balance the work, so a lying archive costs time, never correctness.
    static func split(_ order: [Int], into count: Int, bytesPerShare: Int, size: (Int) -> Int) -> [[Int]] {
        let sizes = order.map { max(size($0), 0) }
        let total = sizes.reduce(0) { $0.addingReportingOverflow($1).overflow ? Int.max : $0 + $1 }
        let shareCount = min(max(count, 1), order.count, max(total / max(bytesPerShare, 1), 1))
        guard shareCount > 1 else { return [order] }
        var loads = [Int](repeating: 0, count: shareCount)
        var owner = [Int](repeating: 0, count: order.count)
        for index in order.indices.sorted(by: { (sizes[$0], $1) > (sizes[$1], $0) }) {
            let lightest = loads.indices.min { loads[$0] < loads[$1] } ?? 0
            owner[index] = lightest
            let (sum, overflow) = loads[lightest].addingReportingOverflow(sizes[index])
            loads[lightest] = overflow ? Int.max : sum
        }
        return (0..<shareCount).map { share in order.indices.filter { owner[$0] == share }.map { order[$0] } }
    }

    /// Streams `members` (indices, in archive order) with `reader`, each as its plan says.
    static func streamShare(
        _ members: [Int],
        plans: MemberPlans,
        reader: IPAMemberReader
    ) -> StreamedMembers {
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var taken = StreamedMembers()
        for member in members {
            guard let plan = plans[member] else { continue }
            taken.append(member, stream(member, plan: plan, reader: reader, buffer: &buffer))
        }
        return taken
    }

    static func stream(
        _ member: Int,
        plan: MemberPlan,
        reader ipa: IPAMemberReader,
        buffer: inout [UInt8]
    ) -> StreamResult {
        var result = StreamResult()
        var digester = plan.digests.isEmpty ? nil : FileDigester(kinds: plan.digests)
        var executable = plan.isExecutable ? ExecutableReader(fileSize: ipa.declaredMemberSize(at: member)) : nil
        var bytes: [UInt8]? = plan.keep ? [] : nil
        var search = plan.needles.isEmpty ? nil : StringSearch(plan.needles)
        do throws(InputError) {
            let stream = try ipa.stream(at: member)
            while true {
                let count: Int
                do {
                    count = try stream.read(into: &buffer)
                } catch {
                    throw InputError("unreadable-member", file: ipa.path, "\(ipa.name(at: member)): \(error.reason)")
                }
                if count == 0 { break }
                executable?.consume(buffer, count: count)
                search?.consume(buffer[0..<count])
                digester?.update(buffer[0..<count])
                if bytes != nil {
                    guard (bytes?.count ?? 0) + count <= ipa.maximumKeptBytes else {
                        throw InputError(
                            "too-large",
                            file: ipa.path,
                            "\(ipa.name(at: member)) is larger than the \(ipa.maximumKeptBytes)-byte limit for files "
                                + "read whole"
                        )
                    }
                    bytes?.append(contentsOf: buffer[0..<count])
                }
            }
        } catch {
            result.more = .init(executable: plan.isExecutable ? .failure(error) : nil, problem: error.message)
            return result
        }
        result.digests = digester?.finish()
        if search != nil || bytes != nil || executable != nil {
            result.more = .init(
                found: search?.found,
                bytes: bytes,
                executable: executable.map { reader in
                    let name = ipa.name(at: member)
                    return reader.finish().map { Executable(member: name, container: $0.container, pages: $0.pages) }
                        .mapError { InputError("bad-macho", file: ipa.path, "\(name): \($0)") }
                }
            )
        }
        return result
    }
}
