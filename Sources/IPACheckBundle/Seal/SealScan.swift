import Foundation
import IPACheckArchive
package import IPACheckBinary
import IPACheckPlist
package import IPACheckReport
package import IPACheckSigning

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

    /// The bundles, in ``IPAFile/bundles`` order.
    package let bundles: [Bundle]
    /// The strings found in the main app's executable, when a search was asked for.
    package let mainExecutableStrings: BinaryStrings?
    /// How deep the pass went.
    package let depth: Depth
    /// Problems found while streaming (damaged members, unreadable nested executables).
    package let findings: [Finding]
    /// The digests streaming took from each member, by member index (a name a member would cost more than its
    /// digests).
    private let taken: TakenDigests
    /// The digests of the members read whole before the pass (Info.plists, CodeResources), by member index.
    private let wholeDigests: [Int: FileDigests]
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
    /// - Throws: ``InputError`` when the main app's executable cannot be read: there is nothing to check without it.
    package static func read(
        _ ipa: IPAFile,
        depth: Depth,
        keep: (String) -> Bool = { _ in false },
        searchMainExecutable needles: [String] = [],
        threads: Int = defaultThreads,
        bytesPerThread: Int = bytesWorthAThread
    ) async throws(InputError) -> SealScan {
        let early = Pass.earlyStart(ipa, keep: keep, needles: needles, threads: threads, bytesPerThread: bytesPerThread)
        var pass = Pass(
            ipa,
            depth: depth,
            keep: keep,
            needles: needles,
            threads: threads,
            bytesPerThread: bytesPerThread,
            streamedEarly: early?.plans ?? MemberPlans(memberCount: 0)
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
        bytesPerThread: Int = bytesWorthAThread
    ) throws(InputError) -> SealScan {
        let early = Pass.earlyStart(ipa, keep: keep, needles: needles, threads: threads, bytesPerThread: bytesPerThread)
        var pass = Pass(
            ipa,
            depth: depth,
            keep: keep,
            needles: needles,
            threads: threads,
            bytesPerThread: bytesPerThread,
            streamedEarly: early?.plans ?? MemberPlans(memberCount: 0)
        )
        let others = OtherShares(pass.shares.dropFirst(), plans: pass.plans, reopening: ipa.reader.reopening)
        var results = streamShare(pass.shares[0], plans: pass.plans, reader: ipa.reader)
        results = results.merged(with: others.waitForResults())
        if let early { results = results.merged(with: early.shares.waitForResults()) }
        return try pass.finish(consume results, ipa: ipa)
    }

    /// One pass: what it plans to take from which member, split into shares for the threads, and what it read
    /// whole before streaming.
    private struct Pass {
        let depth: Depth
        /// The members to stream, by index, in archive order.
        let order: [Int]
        let shares: [[Int]]
        private(set) var plans: MemberPlans
        private var seals: [String: Result<ResourceSeal, CodeSignatureError>] = [:]
        /// The digests of each CodeResources, by member name (they are read whole, before the pass) and index.
        private var sealDigests: [String: FileDigests] = [:]
        private var sealMembers: [Int: FileDigests] = [:]
        private var kept: [String: [UInt8]] = [:]
        /// Each bundle's Info.plist digests (read when the bundle was found), by member index.
        private let infoPlists: [Int: FileDigests]

        init(
            _ ipa: IPAFile,
            depth: Depth,
            keep: (String) -> Bool,
            needles: [String],
            threads: Int,
            bytesPerThread: Int,
            streamedEarly early: MemberPlans
        ) {
            self.depth = depth
            let reader = ipa.reader
            plans = MemberPlans(memberCount: reader.memberCount)
            infoPlists = Dictionary(
                ipa.bundles.compactMap { bundle in
                    reader.memberIndex(of: bundle.infoPlistPath).map { ($0, bundle.infoPlistDigests) }
                },
                uniquingKeysWith: { first, _ in first }
            )

            // The seals first: they say which digest each resource needs. Together they may list as many files as
            // the archive may hold members, so hostile seals cannot outgrow the memory budget.
            var sealBudget = ipa.reader.maximumEntries
            for bundle in ipa.bundles {
                guard let member = bundle.codeResources else { continue }
                let (digests, seal) = Self.readSeal(member, of: ipa, keep: keep(member), budget: sealBudget)
                if case .success(let parsed) = seal { sealBudget -= parsed.entries.count }
                seals[bundle.path] = seal
                sealDigests[member] = digests.digests
                if let bytes = digests.bytes { kept[member] = bytes }
                if let index = reader.memberIndex(of: member) { sealMembers[index] = digests.digests }
            }
            for bundle in ipa.bundles {
                if let executable = bundle.executable.flatMap(reader.memberIndex(of:)) {
                    plans[executable, default: MemberPlan()].isExecutable = true
                }
                guard depth == .everything, case .success(let seal)? = seals[bundle.path] else { continue }
                for (path, kind) in seal.requiredDigests {
                    guard let member = reader.memberIndex(of: bundle.path + "/" + path), infoPlists[member] == nil,
                        sealMembers[member] == nil
                    else { continue }
                    plans[member, default: MemberPlan()].insert(kind)
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
            // A member streamed early is left out of the shares when the seals asked nothing more of it (a seal that
            // lists the main executable has it streamed again, and that result is kept).
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

        /// A bundle's CodeResources: its digests (for the CodeDirectory's special slot) and its seal.
        ///
        /// An XML seal (what codesign writes) is parsed as it streams past, never held whole; one that is kept for
        /// other checks, or a binary one, is read whole.
        private static func readSeal(
            _ member: String,
            of ipa: IPAFile,
            keep: Bool,
            budget: Int
        ) -> (digests: (digests: FileDigests?, bytes: [UInt8]?), seal: Result<ResourceSeal, CodeSignatureError>) {
            let head: [UInt8]
            let headStream: ZipMemberStream
            do {
                headStream = try ipa.stream(member)
                do {
                    head = try headStream.read(exactly: 64)
                } catch {
                    let reason = "\(member): \(error.reason)"
                    return ((nil, nil), .failure(CodeSignatureError("CodeResources", reason)))
                }
            } catch {
                return ((nil, nil), .failure(CodeSignatureError("CodeResources", error.message)))
            }
            guard !keep, XMLPlistReader.looksLikeXML(head) else {
                do {
                    let bytes = try ipa.read(member, limit: ipa.reader.maximumSealBytes)
                    let seal = Result { () throws(CodeSignatureError) in
                        try ResourceSeal.parse(bytes, maximumEntries: budget)
                    }
                    return ((FileDigests(of: bytes), keep ? bytes : nil), seal)
                } catch {
                    return ((nil, nil), .failure(CodeSignatureError("CodeResources", error.message)))
                }
            }
            var digester: FileDigester? = FileDigester(kinds: [.sha1, .sha256])
            let limit = ipa.reader.maximumSealBytes
            // The first pass goes on with the stream the head was read from (its 64 bytes given first), takes the
            // digests, and reads to the end whatever the parser left unread, so the digests cover every byte; a
            // second pass (a seal without files2) opens the member again.
            var streams: [ZipMemberStream] = []
            let seal = Result { () throws(CodeSignatureError) in
                try ResourceSeal.parseXML(
                    pulling: {
                        let stream = streams.isEmpty ? headStream : try? ipa.stream(member)
                        if let stream { streams.append(stream) }
                        let digesting = streams.count == 1
                        var unread: [UInt8]? = digesting ? head : nil
                        return {
                            guard let stream else { return .failed("\(member) cannot be read") }
                            if let bytes = unread {
                                unread = nil
                                digester?.update(bytes[...])
                                return .bytes(bytes)
                            }
                            do throws(ArchiveError) {
                                let chunk = try stream.read(maximumCount: 64 * 1024)
                                if digesting { digester?.update(chunk[...]) }
                                return .bytes(chunk)
                            } catch {
                                return .failed("\(member): \(error.reason)")
                            }
                        }
                    },
                    maximumEntries: budget,
                    maximumBytes: limit
                )
            }
            guard let first = streams.first else { return ((nil, nil), seal) }
            do {
                while true {
                    let chunk = try first.read(maximumCount: 64 * 1024)
                    if chunk.isEmpty { break }
                    digester?.update(chunk[...])
                }
            } catch {
                digester = nil
            }
            return ((digester?.finish(), nil), seal)
        }

        /// The scan, from `results` (the members the other threads streamed included): any member no thread read
        /// (a share whose thread could not open the file again) is read now, with the first handle.
        mutating func finish(
            _ results: consuming TakenDigests,
            ipa: IPAFile
        ) throws(InputError) -> SealScan {
            let unread = order.filter { !results.contains($0) }
            if !unread.isEmpty {
                results = results.merged(with: streamShare(unread, plans: plans, reader: ipa.reader))
            }
            plans = MemberPlans(memberCount: 0)
            var executables: [String: Result<Executable, InputError>] = [:]
            var mainStrings: BinaryStrings?
            var findings: [Finding] = []
            // The tables the threads filled become the scan's; the few results with more than digests are unpacked
            // and the tables keep the digests only.
            for (member, result) in results.takeMore() {
                if let found = result.found { mainStrings = BinaryStrings(found: found) }
                let name = ipa.reader.name(at: member)
                if let bytes = result.bytes { kept[name] = bytes }
                if let executable = result.executable { executables[name] = executable }
                if let problem = result.problem {
                    findings.append(ArchiveRules.rules.unreadableSealedMember.finding(problem, location: name))
                }
            }

            var bundles: [Bundle] = []
            for bundle in ipa.bundles {
                let executable = bundle.executable.flatMap { executables[$0] }
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
                taken: results,
                wholeDigests: infoPlists.merging(sealMembers) { first, _ in first },
                kept: kept,
                nested: executables.filter { !mainExecutables.contains($0.key) }
            )
        }
    }

    /// The digests of a member of `ipa` taken during the pass (those a seal asked for, Info.plists,
    /// CodeResources).
    package func digests(of member: String, in ipa: IPAFile) -> FileDigests? {
        ipa.reader.memberIndex(of: member).flatMap { wholeDigests[$0] ?? taken.digests(of: $0) }
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
