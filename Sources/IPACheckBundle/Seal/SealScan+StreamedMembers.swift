extension SealScan {
    /// What the pass's shares streamed: which members (so that a share no thread could read is read afterwards) and
    /// the results with more than digests (executables, kept bytes, strings found, problems).
    ///
    /// The shares hold only executables and kept files, a few members: the sealed files are compared as the seals
    /// stream past (``ResourceComparison``) and leave nothing here.
    struct StreamedMembers: Sendable {
        private var streamed: Set<Int> = []
        private var more: [Int: StreamResult.More] = [:]

        /// Nothing streamed yet.
        init() {}

        /// Records what streaming `member` gave; a member recorded before keeps its first result.
        mutating func append(_ member: Int, _ result: StreamResult) {
            guard streamed.insert(member).inserted, let extra = result.more else { return }
            more[member] = extra
        }

        /// Whether `member` was streamed.
        func contains(_ member: Int) -> Bool { streamed.contains(member) }

        /// This record and `other` as one; for a member both streamed, this record's result is kept.
        func merged(with other: StreamedMembers) -> StreamedMembers {
            var merged = self
            for member in other.streamed where merged.streamed.insert(member).inserted {
                if let extra = other.more[member] { merged.more[member] = extra }
            }
            return merged
        }

        /// The results with more than digests, ascending by member.
        func takeMore() -> [(member: Int, more: StreamResult.More)] {
            more.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }
}
