/// The members of a zip as its central directory lists them, in about 6 bytes each plus their names, front-coded.
///
/// libzip kept each member in about 340 bytes and a `ZipEntry` array another 170, so a large app cost more memory
/// than the rest of a run together (docs/performance.md). This keeps only what listing, screening and lookups need;
/// what reading a member needs (its local header's offset, sizes, CRC) is read again from its central header when
/// the member is opened. Shared, never copied, by every reader of the same archive (`Sendable` value arrays).
struct ZipMemberTable: Sendable {
    /// What is known of a member without reading it.
    struct Traits: OptionSet, Sendable {
        let rawValue: UInt8
        static let encrypted = Traits(rawValue: 1 << 0)
        static let symbolicLink = Traits(rawValue: 1 << 1)
        static let nameWasNotUTF8 = Traits(rawValue: 1 << 2)
        static let nameMislabelledUTF8 = Traits(rawValue: 1 << 3)
        static let compressionSupported = Traits(rawValue: 1 << 4)
        /// Stored (method 0).
        static let stored = Traits(rawValue: 1 << 5)
        /// Deflated (method 8).
        static let deflated = Traits(rawValue: 1 << 6)
    }

    /// Where each member's central header starts, counted from the directory's first byte (a directory is read
    /// only when it is smaller than 4 GiB).
    private(set) var headerOffsets: [UInt32] = []
    /// Each member's declared size as its bit length: its magnitude, which is all a listing needs (the exact size is
    /// read again from the member's central header: ``ZipArchive/declaredSize(at:)``).
    private var sizeClasses: [UInt8] = []
    /// Each member's compression method, kept only once some member is neither stored nor deflated (the traits
    /// say those two); until then empty.
    private var otherMethods: [UInt16] = []
    private var traits: [Traits] = []
    /// The names, front-coded in blocks of ``namesPerBlock``, in chunks of about ``chunkSize`` bytes.
    ///
    /// A block's first name is written whole (its length, then its bytes), each other name as the length it shares
    /// with the one before, the length of the rest, and the rest. An app's names share most of their bytes with
    /// their neighbours (43 bytes a name, 38 shared, in a generated 200,000-member app), so a name costs a few bytes
    /// instead of all of them. A block lies within one chunk; chunks, not one array, so that the names never sit in
    /// an array grown by doubling (17 MiB reserved for 7 at a million members, and both copies held while it grew).
    private var chunks: [[UInt8]] = []
    /// Where each block starts: its chunk over its offset in the chunk.
    private var blockStarts: [UInt64] = []
    /// The last name added, which the next is coded against.
    private var lastName: [UInt8] = []

    /// Names in a block: reading one decodes at most this many.
    static let namesPerBlock = 16
    /// A block starting once a chunk holds this many bytes starts a new chunk.
    static let chunkSize = 1 << 20

    /// An empty table with room for `count` members.
    init(reservingMembers count: Int) {
        headerOffsets.reserveCapacity(count)
        sizeClasses.reserveCapacity(count)
        traits.reserveCapacity(count)
        blockStarts.reserveCapacity(count / Self.namesPerBlock + 1)
    }

    /// How many members the table holds.
    var count: Int { traits.count }

    /// Adds a member; false (and nothing added) when a chunk's offsets would pass 4 GiB.
    mutating func append(
        headerOffset: UInt32,
        declaredSize: UInt64,
        method: UInt16,
        traits: Traits,
        name: [UInt8]
    ) -> Bool {
        if count % Self.namesPerBlock == 0 {
            if chunks.isEmpty || chunks[chunks.count - 1].count >= Self.chunkSize {
                var chunk: [UInt8] = []
                chunk.reserveCapacity(Self.chunkSize + 64 * 1024)
                chunks.append(chunk)
            }
            let last = chunks.count - 1
            guard let offset = UInt32(exactly: chunks[last].count) else { return false }
            blockStarts.append(UInt64(last) << 32 | UInt64(offset))
            Self.appendLength(name.count, to: &chunks[last])
            chunks[last].append(contentsOf: name)
        } else {
            let limit = min(lastName.count, name.count)
            var shared = 0
            while shared < limit, lastName[shared] == name[shared] { shared += 1 }
            let last = chunks.count - 1
            Self.appendLength(shared, to: &chunks[last])
            Self.appendLength(name.count - shared, to: &chunks[last])
            chunks[last].append(contentsOf: name[shared...])
        }
        lastName = name
        headerOffsets.append(headerOffset)
        sizeClasses.append(UInt8(UInt64.bitWidth - declaredSize.leadingZeroBitCount))
        var traits = traits
        switch method {
        case 0: traits.insert(.stored)
        case 8: traits.insert(.deflated)
        default:
            if otherMethods.isEmpty {
                otherMethods = self.traits.map { $0.contains(.stored) ? 0 : 8 }
            }
        }
        if !otherMethods.isEmpty { otherMethods.append(method) }
        self.traits.append(traits)
        return true
    }

    /// Where block `block` starts: its chunk and the offset in it; nil when out of range.
    private func start(ofBlock block: Int) -> (chunk: Int, offset: Int)? {
        guard blockStarts.indices.contains(block) else { return nil }
        let chunk = Int(blockStarts[block] >> 32)
        guard chunks.indices.contains(chunk) else { return nil }
        return (chunk, Int(blockStarts[block] & 0xFFFF_FFFF))
    }

    /// The UTF-8 bytes of member `index`'s name, decoded from its block.
    func nameBytes(at index: Int) -> [UInt8] {
        guard index >= 0, index < count, let (chunk, offset) = start(ofBlock: index / Self.namesPerBlock) else {
            return []
        }
        let data = chunks[chunk]
        var position = offset
        guard let length = Self.readLength(in: data, at: &position), position + length <= data.count else {
            return []
        }
        var name = Array(data[position..<(position + length)])
        position += length
        for _ in 0..<(index % Self.namesPerBlock) {
            guard let shared = Self.readLength(in: data, at: &position),
                let rest = Self.readLength(in: data, at: &position),
                shared <= name.count, position + rest <= data.count
            else { return [] }
            name.removeLast(name.count - shared)
            name.append(contentsOf: data[position..<(position + rest)])
            position += rest
        }
        return name
    }

    /// An upper bound of member `index`'s declared size, within a factor of two (0 for an empty member), without
    /// decoding its name.
    func sizeEstimate(at index: Int) -> UInt64 {
        guard sizeClasses.indices.contains(index) else { return 0 }
        let bits = sizeClasses[index]
        return bits >= 64 ? .max : (1 << UInt64(bits)) - 1
    }

    /// Member `index`'s compression method.
    private func method(at index: Int) -> UInt16 {
        if otherMethods.indices.contains(index) { return otherMethods[index] }
        return traits[index].contains(.stored) ? 0 : 8
    }

    /// Every member's name in order, each decoded from the one before (reading them one by one by index decodes
    /// half a block each).
    struct Names: Sequence {
        let table: ZipMemberTable

        /// The names, from the first.
        struct Iterator: IteratorProtocol {
            let table: ZipMemberTable
            var index = 0
            var chunk = 0
            var position = 0
            var name: [UInt8] = []

            /// The next member's name bytes.
            mutating func next() -> [UInt8]? {
                guard index < table.count else { return nil }
                defer { index += 1 }
                if index % ZipMemberTable.namesPerBlock == 0 {
                    guard let (chunk, offset) = table.start(ofBlock: index / ZipMemberTable.namesPerBlock) else {
                        position = -1
                        return []
                    }
                    self.chunk = chunk
                    position = offset
                    let data = table.chunks[chunk]
                    guard let length = ZipMemberTable.readLength(in: data, at: &position),
                        position + length <= data.count
                    else {
                        position = -1
                        return []
                    }
                    name = Array(data[position..<(position + length)])
                    position += length
                    return name
                }
                // A name that does not decode leaves the rest of its block to be read by index (the block's next
                // start is found afresh), never built on a wrong name.
                let data = table.chunks[chunk]
                guard position >= 0, let shared = ZipMemberTable.readLength(in: data, at: &position),
                    let rest = ZipMemberTable.readLength(in: data, at: &position), shared <= name.count,
                    position + rest <= data.count
                else {
                    position = -1
                    return table.nameBytes(at: index)
                }
                name.removeLast(name.count - shared)
                name.append(contentsOf: data[position..<(position + rest)])
                position += rest
                return name
            }
        }

        func makeIterator() -> Iterator { Iterator(table: table) }
    }

    /// Every member's name bytes in order.
    var names: Names { Names(table: self) }

    /// Writes `length` (at most a name's 65,535 bytes) in 7-bit groups, low first, the high bit saying more follow.
    private static func appendLength(_ length: Int, to bytes: inout [UInt8]) {
        var value = length
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// Reads a length ``appendLength(_:to:)`` wrote at `position` of `data`, moving past it.
    private static func readLength(in data: [UInt8], at position: inout Int) -> Int? {
        var value = 0
        var shift = 0
        while position >= 0, position < data.count, shift <= 21 {
            let byte = data[position]
            position += 1
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// Member `index` as an entry: everything but where its bytes are.
    func entry(at index: Int) -> ZipEntry {
        entry(at: index, name: nameBytes(at: index))
    }

    /// Member `index` as an entry, its name already decoded.
    func entry(at index: Int, name: [UInt8]) -> ZipEntry {
        let traits = traits[index]
        return ZipEntry(
            index: index,
            name: String(decoding: name, as: UTF8.self),
            nameWasNotUTF8: traits.contains(.nameWasNotUTF8),
            nameMislabelledUTF8: traits.contains(.nameMislabelledUTF8),
            isSymbolicLink: traits.contains(.symbolicLink),
            sizeEstimate: sizeEstimate(at: index),
            compressionMethod: method(at: index),
            isEncrypted: traits.contains(.encrypted),
            isCompressionSupported: traits.contains(.compressionSupported)
        )
    }
}
