/// The members of a zip as its central directory lists them, in about 15 bytes each plus their names.
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
    }

    /// Where each member's central header starts, counted from the directory's first byte (a directory is read
    /// only when it is smaller than 4 GiB).
    private(set) var headerOffsets: [UInt32] = []
    /// Each member's declared size, saturated at `UInt32.max` (informative: it sizes buffers' first guess and the
    /// seal pass's shares, never what is read).
    private var declaredSizes: [UInt32] = []
    private var methods: [UInt16] = []
    private var traits: [Traits] = []
    /// Where each member's name ends in ``nameBytes``; it starts where the previous one ends.
    private var nameEnds: [UInt32] = []
    /// Every name, as UTF-8, one after the other.
    private var nameBytes: [UInt8] = []

    /// An empty table with room for `count` members and `nameBytes` bytes of names (an upper bound costs nothing
    /// until it is written: untouched pages are not resident).
    init(reservingMembers count: Int, nameBytes: Int) {
        headerOffsets.reserveCapacity(count)
        declaredSizes.reserveCapacity(count)
        methods.reserveCapacity(count)
        traits.reserveCapacity(count)
        nameEnds.reserveCapacity(count)
        self.nameBytes.reserveCapacity(nameBytes)
    }

    /// How many members the table holds.
    var count: Int { traits.count }

    /// Adds a member; false (and nothing added) when the names would pass 4 GiB together.
    mutating func append(
        headerOffset: UInt32,
        declaredSize: UInt64,
        method: UInt16,
        traits: Traits,
        name: [UInt8]
    ) -> Bool {
        guard let end = UInt32(exactly: nameBytes.count + name.count) else { return false }
        nameBytes.append(contentsOf: name)
        nameEnds.append(end)
        headerOffsets.append(headerOffset)
        declaredSizes.append(UInt32(clamping: declaredSize))
        methods.append(method)
        self.traits.append(traits)
        return true
    }

    /// The UTF-8 bytes of member `index`'s name.
    func nameBytes(at index: Int) -> ArraySlice<UInt8> {
        let start = index == 0 ? 0 : Int(nameEnds[index - 1])
        return nameBytes[start..<Int(nameEnds[index])]
    }

    /// Member `index` as an entry: everything but where its bytes are.
    func entry(at index: Int) -> ZipEntry {
        let traits = traits[index]
        return ZipEntry(
            index: index,
            name: String(decoding: nameBytes(at: index), as: UTF8.self),
            nameWasNotUTF8: traits.contains(.nameWasNotUTF8),
            nameMislabelledUTF8: traits.contains(.nameMislabelledUTF8),
            isSymbolicLink: traits.contains(.symbolicLink),
            declaredSize: UInt64(declaredSizes[index]),
            compressionMethod: methods[index],
            isEncrypted: traits.contains(.encrypted),
            isCompressionSupported: traits.contains(.compressionSupported)
        )
    }
}
