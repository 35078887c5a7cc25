import Foundation
import IPACheckArchive
package import IPACheckBinary
package import IPACheckBundle
package import IPACheckReport

/// One streaming pass over an ipa that takes everything verifying every bundle's seal needs, reading each member
/// at most once: each executable's headers and signatures with the digest of every code page, the digests of every
/// file a resource seal lists, and the bytes of the few small files other checks read (profiles, CodeResources,
/// GoogleService-Info plists).
///
/// Nothing is held whole: executables and resources stream through in 256 KiB chunks, and only headers,
/// signatures, digests and the kept small files stay in memory. Members are read in the archive's own order.
package struct SealScan {
    /// How much of the archive a command needs.
    package enum Depth: Sendable {
        /// Executables (code pages and signatures), Info.plist and CodeResources: what `verify` checks.
        case signatures
        /// Also every file a resource seal lists: what `check` and `verify --resources` check.
        case everything
    }

    /// One executable: a bundle's main executable, or a dylib a resource seal names as nested code.
    package struct Executable: Sendable {
        /// The member's name in the archive.
        package let member: String
        /// Its headers and signatures.
        package let container: MachOContainer
        /// The digests of each slice's code pages.
        package let pages: [CodePageDigests]
    }

    /// What the pass took for one bundle.
    package struct Bundle: Sendable {
        /// The bundle.
        package let bundle: AppBundle
        /// Its executable, or why it could not be read; `nil` when Info.plist names none that exists.
        package let executable: Result<Executable, InputError>?
        /// Its resource seal, or why it could not be parsed; `nil` when it has no CodeResources.
        package let seal: Result<ResourceSeal, CodeSignatureError>?
        /// The digests of its CodeResources file.
        package let codeResourcesDigests: FileDigests?
    }

    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: RuleSet {
        /// The set, its rules as declared below.
        package init() {}

        /// A member stopped decompressing in the middle (CRC error, truncated data).
        package let unreadableSealedMember = Rule(
            "ARC011",
            .error,
            "member damaged",
            summary: "A member of the archive could not be decompressed to its end (a CRC error or truncated data), so "
                + "what it holds was not checked; an installer rejects such an ipa.",
            fix: "Export the ipa again; check that the upload or download did not damage it."
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

    /// The bundles, in ``IPAFile/bundles`` order.
    package let bundles: [Bundle]
    /// The strings found in the main app's executable, when a search was asked for.
    package let mainExecutableStrings: BinaryStrings?
    /// How deep the pass went.
    package let depth: Depth
    /// Problems found while streaming (damaged members, unreadable nested executables).
    package let findings: [Finding]
    private let digests: [String: FileDigests]
    private let kept: [String: [UInt8]]
    private let nested: [String: Result<Executable, InputError>]

    /// The chunk size members stream in.
    static let chunkSize = 256 * 1024

    /// Threads a pass uses by default: one per core, at most four (inflating is CPU-bound, and each thread holds
    /// only a chunk buffer and a libzip handle).
    package static let defaultThreads = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4)

    /// Below this many declared bytes per thread a pass uses fewer threads: opening another handle would cost more
    /// than it saves.
    package static let bytesWorthAThread = 16 * 1024 * 1024

    /// What one more handle on the file costs for each member of the archive: libzip's copy of the central
    /// directory (measured: about 340 bytes a member) and the member list checked against the first handle's.
    static let bytesPerMemberPerHandle = 512

    /// The memory the extra handles of a pass may take together: an archive with many members is read on fewer
    /// threads (one, past about 16,000 members) rather than with a copy of its directory per thread.
    static let extraHandlesBudget = 8 * 1024 * 1024

    /// The threads a pass over an archive of `members` members may use, at most `wanted`.
    static func threads(_ wanted: Int, members: Int) -> Int {
        let perHandle = max(members, 1) * bytesPerMemberPerHandle
        return max(1, min(wanted, 1 + extraHandlesBudget / perHandle))
    }

    /// Reads `ipa` once.
    ///
    /// The other threads stream their shares while the calling task streams the first; it then suspends (it never
    /// blocks its thread) until they are done.
    ///
    /// - Parameters:
    ///   - depth: What to take.
    ///   - keep: Members whose bytes other checks need (each at most the archive's per-member limit).
    ///   - searchMainExecutable: Strings to look for in the main app's executable as it streams past.
    ///   - threads: How many threads inflate and hash at once, each with its own handle on the file.
    ///   - bytesPerThread: The fewest declared bytes worth another thread.
    /// - Throws: ``InputError`` when the main app's executable cannot be read: there is nothing to check without it.
    package static func read(
        _ ipa: IPAFile,
        depth: Depth,
        keep: (String) -> Bool = { _ in false },
        searchMainExecutable needles: [String] = [],
        threads: Int = defaultThreads,
        bytesPerThread: Int = bytesWorthAThread
    ) async throws(InputError) -> SealScan {
        var pass = Pass(
            ipa,
            depth: depth,
            keep: keep,
            needles: needles,
            threads: threads,
            bytesPerThread: bytesPerThread
        )
        let others = OtherShares(pass.shares.dropFirst(), plans: pass.plans, reopening: ipa.reader.reopening)
        var results = streamShare(pass.shares[0], plans: pass.plans, reader: ipa.reader)
        results.merge(await others.results()) { first, _ in first }
        return try pass.finish(consume results, ipa: ipa)
    }

    /// Reads `ipa` once, as ``read(_:depth:keep:searchMainExecutable:threads:bytesPerThread:)`` does, for
    /// synchronous callers: the calling thread sleeps until the other threads are done, so async code calls
    /// `read` instead.
    ///
    /// - Throws: ``InputError`` when the main app's executable cannot be read: there is nothing to check without it.
    package static func scan(
        _ ipa: IPAFile,
        depth: Depth,
        keep: (String) -> Bool = { _ in false },
        searchMainExecutable needles: [String] = [],
        threads: Int = defaultThreads,
        bytesPerThread: Int = bytesWorthAThread
    ) throws(InputError) -> SealScan {
        var pass = Pass(
            ipa,
            depth: depth,
            keep: keep,
            needles: needles,
            threads: threads,
            bytesPerThread: bytesPerThread
        )
        let others = OtherShares(pass.shares.dropFirst(), plans: pass.plans, reopening: ipa.reader.reopening)
        var results = streamShare(pass.shares[0], plans: pass.plans, reader: ipa.reader)
        results.merge(others.waitForResults()) { first, _ in first }
        return try pass.finish(consume results, ipa: ipa)
    }

    /// One pass: what it plans to take from which member, split into shares for the threads, and what it read
    /// whole before streaming.
    private struct Pass {
        let depth: Depth
        let order: [String]
        let shares: [[String]]
        private(set) var plans: [String: MemberPlan] = [:]
        private var seals: [String: Result<ResourceSeal, CodeSignatureError>] = [:]
        private var sealDigests: [String: FileDigests] = [:]
        private var kept: [String: [UInt8]] = [:]
        private let infoPlists: [String: FileDigests]

        init(
            _ ipa: IPAFile,
            depth: Depth,
            keep: (String) -> Bool,
            needles: [String],
            threads: Int,
            bytesPerThread: Int
        ) {
            self.depth = depth
            infoPlists = Dictionary(
                ipa.bundles.map { ($0.infoPlistPath, $0.infoPlistDigests) },
                uniquingKeysWith: { first, _ in first }
            )

            // The seals first (small, read whole): they say which digest each resource needs. Together they may
            // list as many files as the archive may hold members, so hostile seals cannot outgrow the memory budget.
            var sealBudget = ipa.reader.maximumEntries
            for bundle in ipa.bundles {
                guard let member = bundle.codeResources else { continue }
                do {
                    let bytes = try ipa.read(member)
                    sealDigests[member] = FileDigests(of: bytes)
                    if keep(member) { kept[member] = bytes }
                    do {
                        let seal = try ResourceSeal.parse(bytes, maximumEntries: sealBudget)
                        sealBudget -= seal.entries.count
                        seals[bundle.path] = .success(seal)
                    } catch {
                        seals[bundle.path] = .failure(error)
                    }
                } catch {
                    seals[bundle.path] = .failure(CodeSignatureError("CodeResources", error.message))
                }
            }
            for bundle in ipa.bundles {
                if let executable = bundle.executable { plans[executable, default: MemberPlan()].isExecutable = true }
                guard depth == .everything, case .success(let seal)? = seals[bundle.path] else { continue }
                for (path, kind) in seal.requiredDigests {
                    guard let member = ipa.storedName(bundle.path + "/" + path), infoPlists[member] == nil,
                        sealDigests[member] == nil
                    else { continue }
                    plans[member, default: MemberPlan()].insert(kind)
                }
                for (path, entry) in seal.entries {
                    guard case .nestedCode = entry else { continue }
                    let member = bundle.path + "/" + path
                    if ipa.contains(member) { plans[member, default: MemberPlan()].isExecutable = true }
                }
            }
            for member in ipa.memberNames where keep(member) && kept[member] == nil {
                plans[member, default: MemberPlan()].keep = true
            }

            if !needles.isEmpty, let main = ipa.mainApp.executable {
                plans[main, default: MemberPlan()].needles = needles
            }
            order = ipa.inArchiveOrder(Array(plans.keys))
            shares = SealScan.split(
                order,
                into: SealScan.threads(threads, members: ipa.reader.memberCount),
                bytesPerShare: bytesPerThread,
                size: ipa.reader.declaredMemberSize
            )
        }

        /// The scan, from `results` (the members the other threads streamed included): any member no thread read
        /// (a share whose thread could not open the file again) is read now, with the first handle.
        mutating func finish(
            _ results: consuming [String: StreamResult],
            ipa: IPAFile
        ) throws(InputError) -> SealScan {
            let unread = order.filter { results[$0] == nil }
            if !unread.isEmpty {
                results.merge(streamShare(unread, plans: plans, reader: ipa.reader)) { first, _ in first }
            }
            plans = [:]
            var digests: [String: FileDigests] = infoPlists.merging(sealDigests) { first, _ in first }
            var executables: [String: Result<Executable, InputError>] = [:]
            var mainStrings: BinaryStrings?
            var findings: [Finding] = []
            for member in order {
                guard let result = results.removeValue(forKey: member) else { continue }
                if let found = result.found { mainStrings = BinaryStrings(found: found) }
                if let taken = result.digests { digests[member] = taken }
                if let bytes = result.bytes { kept[member] = bytes }
                if let executable = result.executable { executables[member] = executable }
                if let problem = result.problem {
                    findings.append(SealScan.rules.unreadableSealedMember.finding(problem, location: member))
                }
            }

            var bundles: [Bundle] = []
            for bundle in ipa.bundles {
                let executable = bundle.executable.flatMap { executables[$0] }
                if bundle.parent == nil, case .failure(let error)? = executable { throw error }
                bundles.append(
                    Bundle(
                        bundle: bundle,
                        executable: executable,
                        seal: seals[bundle.path],
                        codeResourcesDigests: bundle.codeResources.flatMap { sealDigests[$0] }
                    )
                )
            }
            let mainExecutables = Set(ipa.bundles.compactMap(\.executable))
            return SealScan(
                bundles: bundles,
                mainExecutableStrings: mainStrings,
                depth: depth,
                findings: findings,
                digests: digests,
                kept: kept,
                nested: executables.filter { !mainExecutables.contains($0.key) }
            )
        }
    }

    /// The digests of a member taken during the pass (those a seal asked for, Info.plists, CodeResources).
    package func digests(of member: String) -> FileDigests? {
        digests[member]
    }

    /// The bytes of a member the pass was asked to keep.
    package func bytes(of member: String) -> [UInt8]? {
        kept[member]
    }

    /// A file a resource seal names as nested code (a dylib), as the pass read it.
    package func nestedExecutable(_ member: String) -> Result<Executable, InputError>? {
        nested[member]
    }

    /// Every nested-code file the pass read, by member name.
    package var nestedExecutables: [String: Result<Executable, InputError>] { nested }

    // MARK: - Streaming one member

    /// What to take from one member.
    ///
    /// Plain flags (no set to allocate): a large app plans one for every file.
    private struct MemberPlan {
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

    /// What streaming one member gave.
    ///
    /// The digests stand inline; the rest, which few members have, in one box, so the result of each of a hundred
    /// thousand sealed files stays small.
    private struct StreamResult: Sendable {
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
    private struct OtherShares: Sendable {
        /// What the threads streamed, and how many are still at it.
        private struct Progress: Sendable {
            var results: [String: StreamResult] = [:]
            var running: Int
            /// The async caller, suspended until `running` is 0.
            var waiting: Waiting?

            /// The results, handed over once: the threads keep no copy.
            mutating func take() -> [String: StreamResult] {
                defer { results = [:] }
                return results
            }
        }

        private typealias Waiting = CheckedContinuation<[String: StreamResult], Never>

        private let progress: Locked<Progress>

        /// Starts one thread per share.
        ///
        /// A share whose thread cannot open the file again is left unread, for ``Pass/finish(_:ipa:)`` to read
        /// with the first handle.
        init(_ shares: ArraySlice<[String]>, plans: [String: MemberPlan], reopening: IPAMemberReader.Reopening) {
            let progress = Locked(Progress(running: shares.count))
            self.progress = progress
            for share in shares {
                let thread = Thread {
                    let taken = (try? reopening.open()).map { streamShare(share, plans: plans, reader: $0) } ?? [:]
                    let done = progress.withLock { progress -> (Waiting, [String: StreamResult])? in
                        progress.results.merge(taken) { first, _ in first }
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
        func results() async -> [String: StreamResult] {
            await withCheckedContinuation { continuation in
                let done = progress.withLock { progress -> [String: StreamResult]? in
                    if progress.running == 0 { return progress.take() }
                    progress.waiting = continuation
                    return nil
                }
                if let done { continuation.resume(returning: done) }
            }
        }

        /// Sleeps until every thread is done, then returns what they streamed.
        func waitForResults() -> [String: StreamResult] {
            progress.withLock(when: { $0.running == 0 }) { $0.take() }
        }
    }

    /// Splits `order` into at most `count` shares of about equal declared size, each kept in archive order.
    ///
    /// The largest members are placed first, each into the lightest share, with no fewer than `bytesPerShare`
    /// bytes a share. Declared sizes only balance the work, so a lying archive costs time, never correctness.
    static func split(_ order: [String], into count: Int, bytesPerShare: Int, size: (String) -> Int) -> [[String]] {
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

    private static func streamShare(
        _ members: [String],
        plans: [String: MemberPlan],
        reader: IPAMemberReader
    ) -> [String: StreamResult] {
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var results: [String: StreamResult] = [:]
        for member in members {
            guard let plan = plans[member] else { continue }
            results[member] = stream(member, plan: plan, reader: reader, buffer: &buffer)
        }
        return results
    }

    private static func stream(
        _ member: String,
        plan: MemberPlan,
        reader ipa: IPAMemberReader,
        buffer: inout [UInt8]
    ) -> StreamResult {
        var result = StreamResult()
        var digester = plan.digests.isEmpty ? nil : FileDigester(kinds: plan.digests)
        var executable = plan.isExecutable ? ExecutableReader(fileSize: ipa.declaredMemberSize(member)) : nil
        var bytes: [UInt8]? = plan.keep ? [] : nil
        var search = plan.needles.isEmpty ? nil : StringSearch(plan.needles)
        do throws(InputError) {
            let stream = try ipa.stream(member)
            while true {
                let count: Int
                do {
                    count = try stream.read(into: &buffer)
                } catch {
                    throw InputError("unreadable-member", file: ipa.path, "\(member): \(error.reason)")
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
                            "\(member) is larger than the \(ipa.maximumKeptBytes)-byte limit for files read whole"
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
                    reader.finish().map { Executable(member: member, container: $0.container, pages: $0.pages) }
                        .mapError { InputError("bad-macho", file: ipa.path, "\(member): \($0)") }
                }
            )
        }
        return result
    }
}

/// Reads an executable from a stream of chunks: its headers and signatures (``MachOStreamScanner``) and the
/// digests of its code pages (``CodePageDigester``), in one pass that keeps neither the code nor the file.
struct ExecutableReader {
    private var scanner: MachOStreamScanner
    private var pages = CodePageDigester()
    private var layoutKnown = false
    private var offset = 0
    private var problem: ParseError?

    /// A reader for a file of `fileSize` bytes (the declared size; a stream that ends early is reported).
    init(fileSize: Int) {
        scanner = MachOStreamScanner(fileSize: fileSize)
    }

    /// Feeds the first `count` bytes of `buffer`, which follow the previous chunk directly.
    mutating func consume(_ buffer: [UInt8], count: Int) {
        if problem == nil, !scanner.isComplete {
            do {
                try scanner.consume(buffer[0..<count])
            } catch {
                problem = error
            }
        }
        if !layoutKnown {
            let starts = scanner.signatureStarts
            pages.update(starts)
            layoutKnown = !starts.isEmpty && starts.allSatisfy { $0.start != .unknown }
        }
        let start = offset
        pages.consume(buffer[0..<count], at: start)
        offset += count
    }

    /// The headers, signatures and page digests, or why the bytes are not a readable Mach-O.
    func finish() -> Result<(container: MachOContainer, pages: [CodePageDigests]), ParseError> {
        if let problem { return .failure(problem) }
        do {
            return .success((try scanner.finish(), pages.finish()))
        } catch {
            return .failure(error)
        }
    }
}
