import Foundation
import IPACheckArchive
package import IPACheckBinary
import IPACheckPlist
package import IPACheckReport
package import IPACheckSigning

/// One streaming pass over an ipa that takes everything verifying every bundle's seal needs: each executable's
/// headers and signatures with the digest of every code page, every file a resource seal lists compared with its
/// digest as the seal streams past (``ResourceComparison``), and the bytes of the few small files other checks read
/// (profiles, CodeResources, GoogleService-Info plists).
///
/// Nothing is held whole: executables and resources stream through in 256 KiB chunks, and only headers,
/// signatures, mismatches and the kept small files stay in memory. Sealed files are read in the seal's order (codesign
/// sorts it), executables and kept files in the archive's; a file a seal lists that is also an executable is read
/// for each.
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
        /// What comparing the seal's files with the archive found while the seal streamed past; nil when they were
        /// not compared.
        let streamed: ResourceSeal.StreamedFiles?
        /// The members the seal's file entries list.
        let listed: MemberBits?
    }

    /// The bundles, in ``IPAFile/bundles`` order.
    package let bundles: [Bundle]
    /// The strings found in the main app's executable, when a search was asked for.
    package let mainExecutableStrings: BinaryStrings?
    /// How deep the pass went.
    package let depth: Depth
    /// Problems found while streaming (damaged members, unreadable nested executables).
    package let problems: [ArchiveProblem]
    private let kept: [String: [UInt8]]
    private let nested: [String: Result<Executable, InputError>]

    /// The chunk size members stream in.
    static let chunkSize = 256 * 1024

    /// Threads a pass uses by default: one per core, at most four (inflating is CPU-bound, and each thread holds
    /// only a chunk buffer and its own descriptor on the file: the member table is shared).
    package static let defaultThreads = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4)

    /// Below this many declared bytes per thread a pass uses fewer threads: opening another handle would cost more
    /// than it saves.
    package static let bytesWorthAThread = 16 * 1024 * 1024

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
    ///   - sideBySide: Whether sealed files are hashed two at a time (``SHA256Lanes``, where the CPU can).
    /// - Throws: ``InputError`` when the main app's executable cannot be read: there is nothing to check without it.
    package static func read(
        _ ipa: IPAFile,
        depth: Depth,
        keep: (String) -> Bool = { _ in false },
        searchMainExecutable needles: [String] = [],
        threads: Int = defaultThreads,
        bytesPerThread: Int = bytesWorthAThread,
        sideBySide: Bool = SHA256Lanes.isAvailable
    ) async throws(InputError) -> SealScan {
        let early = Pass.earlyStart(ipa, keep: keep, needles: needles, threads: threads, bytesPerThread: bytesPerThread)
        let compared = await ResourceComparison(
            ipa,
            depth: depth,
            keep: keep,
            threads: threads,
            sideBySide: sideBySide
        ).results()
        var pass = Pass(
            ipa,
            depth: depth,
            keep: keep,
            needles: needles,
            threads: threads,
            bytesPerThread: bytesPerThread,
            streamedEarly: early?.plans ?? MemberPlans(memberCount: 0),
            compared: compared
        )
        let others = OtherShares(pass.shares.dropFirst(), plans: pass.plans, reopening: ipa.reader.reopening)
        var results = streamShare(pass.shares[0], plans: pass.plans, reader: ipa.reader)
        results = results.merged(with: await others.results())
        if let early { results = results.merged(with: await early.shares.results()) }
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
        bytesPerThread: Int = bytesWorthAThread,
        sideBySide: Bool = SHA256Lanes.isAvailable
    ) throws(InputError) -> SealScan {
        let early = Pass.earlyStart(ipa, keep: keep, needles: needles, threads: threads, bytesPerThread: bytesPerThread)
        let compared = ResourceComparison(
            ipa,
            depth: depth,
            keep: keep,
            threads: threads,
            sideBySide: sideBySide
        ).waitForResults()
        var pass = Pass(
            ipa,
            depth: depth,
            keep: keep,
            needles: needles,
            threads: threads,
            bytesPerThread: bytesPerThread,
            streamedEarly: early?.plans ?? MemberPlans(memberCount: 0),
            compared: compared
        )
        let others = OtherShares(pass.shares.dropFirst(), plans: pass.plans, reopening: ipa.reader.reopening)
        var results = streamShare(pass.shares[0], plans: pass.plans, reader: ipa.reader)
        results = results.merged(with: others.waitForResults())
        if let early { results = results.merged(with: early.shares.waitForResults()) }
        return try pass.finish(consume results, ipa: ipa)
    }

    /// One pass: what it plans to take from which member (executables, kept files, the main executable's
    /// strings), split into shares for the threads, after the seals were read and their files compared
    /// (``ResourceComparison``).
    private struct Pass {
        let depth: Depth
        /// The members to stream, by index, in archive order.
        let order: [Int]
        let shares: [[Int]]
        private(set) var plans: MemberPlans
        /// Each bundle's seal as the comparison read it, by bundle path.
        private let compared: ComparedSeals
        private var kept: [String: [UInt8]] = [:]

        init(
            _ ipa: IPAFile,
            depth: Depth,
            keep: (String) -> Bool,
            needles: [String],
            threads: Int,
            bytesPerThread: Int,
            streamedEarly early: MemberPlans,
            compared: ComparedSeals
        ) {
            self.depth = depth
            self.compared = compared
            let reader = ipa.reader
            plans = MemberPlans(memberCount: reader.memberCount)
            for bundle in ipa.bundles {
                if let member = bundle.codeResources, let bytes = compared.seals[bundle.path]?.kept {
                    kept[member] = bytes
                }
                if let executable = bundle.executable.flatMap(reader.memberIndex(of:)) {
                    plans[executable, default: MemberPlan()].isExecutable = true
                }
                guard depth == .everything, case .success(let seal)? = compared.seals[bundle.path]?.seal else {
                    continue
                }
                for (path, entry) in seal.entries {
                    guard case .nestedCode = entry, let member = reader.memberIndex(of: bundle.path + "/" + path)
                    else { continue }
                    plans[member, default: MemberPlan()].isExecutable = true
                }
            }
            for member in reader.memberIndices where plans[member]?.keep != true {
                let name = reader.name(at: member)
                guard keep(name), kept[name] == nil else { continue }
                plans[member, default: MemberPlan()].keep = true
            }

            if !needles.isEmpty, let main = ipa.mainApp.executable.flatMap(reader.memberIndex(of:)) {
                plans[main, default: MemberPlan()].needles = needles
            }
            order = plans.members
            // A member streamed early is left out of the shares when nothing more is asked of it.
            let planned = plans
            shares = SealScan.split(
                order.filter { early[$0] != planned[$0] },
                into: threads,
                bytesPerShare: bytesPerThread
            ) {
                reader.declaredMemberSize(at: $0)
            }
        }

        /// The main executable, started on a thread of its own before the seals are read.
        ///
        /// It needs nothing from them, and it is the largest member of most apps, so the seals are parsed while it
        /// streams. Only when there is more than one thread and it is worth one.
        static func earlyStart(
            _ ipa: IPAFile,
            keep: (String) -> Bool,
            needles: [String],
            threads: Int,
            bytesPerThread: Int
        ) -> (plans: MemberPlans, shares: OtherShares)? {
            let reader = ipa.reader
            guard threads > 1, let name = ipa.mainApp.executable, let main = reader.memberIndex(of: name),
                reader.declaredMemberSize(at: main) >= bytesPerThread
            else { return nil }
            var plan = MemberPlan()
            plan.isExecutable = true
            plan.keep = keep(name)
            plan.needles = needles
            var plans = MemberPlans(memberCount: reader.memberCount)
            plans[main] = plan
            return (plans, OtherShares([[main]], plans: plans, reopening: reader.reopening))
        }

        /// The scan, from `results` (the members the other threads streamed included): any member no thread read
        /// (a share whose thread could not open the file again) is read now, with the first handle.
        mutating func finish(
            _ results: consuming StreamedMembers,
            ipa: IPAFile
        ) throws(InputError) -> SealScan {
            let unread = order.filter { !results.contains($0) }
            if !unread.isEmpty {
                results = results.merged(with: streamShare(unread, plans: plans, reader: ipa.reader))
            }
            plans = MemberPlans(memberCount: 0)
            var executables: [String: Result<Executable, InputError>] = [:]
            var mainStrings: BinaryStrings?
            var problems: [(member: Int, problem: String)] = []
            for (member, result) in results.takeMore() {
                if let found = result.found { mainStrings = BinaryStrings(found: found) }
                let name = ipa.reader.name(at: member)
                if let bytes = result.bytes { kept[name] = bytes }
                if let executable = result.executable { executables[name] = executable }
                if let problem = result.problem { problems.append((member, problem)) }
            }
            // A member read for the seal comparison and again as an executable is reported once; one that cannot
            // be decompressed at all was reported when the archive was opened (ARC003: one cause, one finding).
            var reported = Set(problems.map(\.member))
            problems += compared.problems.filter { reported.insert($0.member).inserted }
            problems.removeAll { ipa.reader.isUndecompressable(at: $0.member) }
            let damaged = problems.sorted { $0.member < $1.member }.map { member, problem in
                ArchiveProblem(.unreadableSealedMember, problem, location: ipa.reader.name(at: member))
            }

            var bundles: [Bundle] = []
            for bundle in ipa.bundles {
                let executable = bundle.executable.flatMap { executables[$0] }
                let read = compared.seals[bundle.path]
                bundles.append(
                    Bundle(
                        bundle: bundle,
                        executable: executable,
                        seal: read?.seal,
                        codeResourcesDigests: read?.digests,
                        streamed: read?.streamed,
                        listed: read?.listed
                    )
                )
            }
            let mainExecutables = Set(ipa.bundles.compactMap(\.executable))
            return SealScan(
                bundles: bundles,
                mainExecutableStrings: mainStrings,
                depth: depth,
                problems: damaged,
                kept: kept,
                nested: executables.filter { !mainExecutables.contains($0.key) }
            )
        }
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
}
