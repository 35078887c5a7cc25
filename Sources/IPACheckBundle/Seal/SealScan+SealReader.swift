import IPACheckArchive
import IPACheckConcurrency
import IPACheckPlist
import IPACheckReport
import IPACheckSigning

extension SealScan {
    /// The thread that reads every CodeResources and hands each sealed file to the hashing threads.
    ///
    /// An XML seal (what codesign writes) streams past, each file entry resolved to its member and queued, none
    /// kept. A seal whose paths are not in ascending order (codesign writes them sorted) may name a path twice, and
    /// a dictionary keeps the later entry: such a seal, a binary one, or one another check keeps, is read whole and
    /// its entries handed out from there, as before.
    struct SealReader {
        let state: Locked<ComparisonState>
        let depth: Depth
        /// The archive's symbolic links and their targets: a file sealed as a file that is a link now was modified.
        let links: [String: String]
        /// Info.plists and CodeResources, whose digests other checks took: an entry without a digest still counts
        /// as compared for them, as it did when their digests were looked up.
        let wholeDigestMembers: Set<String>
        private var batch: [Claim] = []
        private var compared = ComparedSeals()

        init(state: Locked<ComparisonState>, depth: Depth, links: [String: String], wholeDigestMembers: Set<String>) {
            self.state = state
            self.depth = depth
            self.links = links
            self.wholeDigestMembers = wholeDigestMembers
        }

        /// Reads each seal in turn, then tells the hashing threads no more claims come.
        ///
        /// Together the seals may list as many files as the archive may hold members, so hostile seals cannot
        /// outgrow the memory budget.
        mutating func read(
            _ sealed: [(bundle: String, member: String, keep: Bool)],
            reopening: IPAMemberReader.Reopening
        ) -> ComparedSeals {
            defer {
                flush()
                state.withLock { $0.closed = true }
            }
            let reader: IPAMemberReader
            do {
                reader = try reopening.open()
            } catch {
                for (number, item) in sealed.enumerated() {
                    compared.bundles[number] = item.bundle
                    let failure = CodeSignatureError("CodeResources", error.message)
                    compared.seals[item.bundle] = ReadSeal(seal: .failure(failure))
                }
                return compared
            }
            var budget = reader.maximumEntries
            for (number, item) in sealed.enumerated() {
                compared.bundles[number] = item.bundle
                compared.readings[number] = 0
                var reading = Reading(
                    seal: number,
                    prefix: item.bundle + "/",
                    listed: MemberBits(count: depth == .everything ? reader.memberCount : 0)
                )
                let (read, entries) = readSeal(item.member, keep: item.keep, reader: reader, budget: budget, &reading)
                budget -= entries
                compared.seals[item.bundle] = read
            }
            return compared
        }

        /// One reading of one seal: what its file entries found so far.
        struct Reading {
            let seal: Int
            let prefix: String
            var number = 0
            var streamed = ResourceSeal.StreamedFiles()
            var listed: MemberBits
            /// The last path handed out, which the next must follow.
            var lastPath: String?
            /// How many file entries were handed out.
            var files = 0
        }

        /// A bundle's CodeResources: its digests (for the CodeDirectory's special slot), its seal, and how many
        /// entries it lists.
        private mutating func readSeal(
            _ member: String,
            keep: Bool,
            reader ipa: IPAMemberReader,
            budget: Int,
            _ reading: inout Reading
        ) -> (ReadSeal, entries: Int) {
            let head: [UInt8]
            let headStream: ZipMemberStream
            do {
                headStream = try ipa.stream(member)
                do {
                    head = try headStream.read(exactly: 64)
                } catch {
                    let reason = "\(member): \(error.reason)"
                    return (ReadSeal(seal: .failure(CodeSignatureError("CodeResources", reason))), 0)
                }
            } catch {
                return (ReadSeal(seal: .failure(CodeSignatureError("CodeResources", error.message))), 0)
            }
            guard !keep, XMLPlistReader.looksLikeXML(head) else {
                do {
                    let bytes = try ipa.read(member, limit: ipa.maximumSealBytes)
                    let seal = Result { () throws(CodeSignatureError) in
                        try ResourceSeal.parse(bytes, maximumEntries: budget)
                    }
                    var read = ReadSeal(seal: seal, digests: FileDigests(of: bytes), kept: keep ? bytes : nil)
                    let count = handOut(seal, to: &read, reader: ipa, &reading)
                    return (read, count)
                } catch {
                    return (ReadSeal(seal: .failure(CodeSignatureError("CodeResources", error.message))), 0)
                }
            }
            var digester: FileDigester? = FileDigester(kinds: [.sha1, .sha256])
            let limit = ipa.maximumSealBytes
            // The first pass goes on with the stream the head was read from (its 64 bytes given first), takes the
            // digests, and reads to the end whatever the parser left unread, so the digests cover every byte; a
            // later pass (a seal without files2, or one read whole after all) opens the member again.
            var streams: [ZipMemberStream] = []
            let open = { () -> (() -> XMLPlistInput.PullResult) in
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
            }
            var read = ReadSeal(seal: .failure(CodeSignatureError("CodeResources", "it cannot be read")))
            var count = 0
            do throws(CodeSignatureError) {
                let parsed = try ResourceSeal.parseXML(pulling: open, maximumEntries: budget, maximumBytes: limit) {
                    path,
                    entry in
                    hand(path, entry, reader: ipa, inOrder: true, &reading)
                }
                switch parsed {
                case .parsed(let seal):
                    read.seal = .success(seal)
                    count = seal.entries.count + reading.files
                    if depth == .everything {
                        read.streamed = reading.streamed
                        read.listed = reading.listed
                    }
                case .needsWholeRead:
                    let whole = Result { () throws(CodeSignatureError) in
                        try ResourceSeal.parseXML(pulling: open, maximumEntries: budget, maximumBytes: limit)
                    }
                    count = handOut(whole, to: &read, reader: ipa, &reading)
                }
            } catch {
                read.seal = .failure(error)
            }
            if let first = streams.first {
                do {
                    while true {
                        let chunk = try first.read(maximumCount: 64 * 1024)
                        if chunk.isEmpty { break }
                        digester?.update(chunk[...])
                    }
                } catch {
                    digester = nil
                }
                read.digests = digester?.finish()
            }
            return (read, count)
        }

        /// Hands out the file entries of a seal read whole, and returns how many entries it lists.
        ///
        /// They come in the seal's sorted, unique order, voiding what an earlier reading of it handed out; the seal
        /// keeps only its other entries.
        private mutating func handOut(
            _ seal: Result<ResourceSeal, CodeSignatureError>,
            to read: inout ReadSeal,
            reader: IPAMemberReader,
            _ reading: inout Reading
        ) -> Int {
            guard case .success(let whole) = seal else {
                read.seal = seal
                return 0
            }
            guard depth == .everything else {
                read.seal = seal
                return whole.entries.count
            }
            reading = Reading(
                seal: reading.seal,
                prefix: reading.prefix,
                number: reading.number + 1,
                listed: MemberBits(count: reader.memberCount)
            )
            compared.readings[reading.seal] = reading.number
            for (path, entry) in whole.entries {
                _ = hand(path, entry, reader: reader, inOrder: false, &reading)
            }
            read.seal = .success(whole.withoutFiles())
            read.streamed = reading.streamed
            read.listed = reading.listed
            return whole.entries.count
        }

        /// Judges one file entry as far as it can without reading the file, and queues the rest (other entries stay
        /// in the seal); false when `inOrder` and the path, of any entry, does not follow the one before (the seal
        /// is then read whole).
        private mutating func hand(
            _ path: String,
            _ entry: ResourceSeal.Entry,
            reader: IPAMemberReader,
            inOrder: Bool,
            _ reading: inout Reading
        ) -> Bool {
            if inOrder, depth == .everything {
                if let last = reading.lastPath, !(last < path) { return false }
                reading.lastPath = path
            }
            guard case .file(let sha1, let sha256, let optional) = entry else { return true }
            reading.files += 1
            guard depth == .everything else { return true }
            let name = reading.prefix + path
            guard let member = reader.memberIndex(of: name) else {
                if !optional { reading.streamed.missing.append(path) }
                return true
            }
            reading.listed.insert(member)
            if links[name] != nil {
                // Sealed as a file, now a link.
                reading.streamed.checked += 1
                reading.streamed.modified.append(path)
                return true
            }
            guard sha256 != nil || sha1 != nil else {
                if wholeDigestMembers.contains(name) { reading.streamed.checked += 1 }
                return true
            }
            batch.append(
                Claim(
                    seal: reading.seal,
                    reading: reading.number,
                    member: member,
                    path: path,
                    sha1: sha1,
                    sha256: sha256
                )
            )
            if batch.count >= claimsPerBatch { flush() }
            return true
        }

        /// Queues the claims gathered so far, waiting while the hashing threads are a few batches behind.
        private mutating func flush() {
            guard !batch.isEmpty else { return }
            let full = batch
            batch = []
            state.withLock(when: { $0.batches.count < queuedBatches }) { $0.batches.append(full) }
        }
    }
}
