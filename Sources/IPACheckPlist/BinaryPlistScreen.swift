/// Screens a binary property list before libplist reads it, for what libplist 2.2 (Debian 12) does not survive.
///
/// - A dictionary key holding a NUL character aborts the whole process: `plist_dict_next_item` reads keys through
///   `plist_get_key_val`, which asserts `length == strlen(key)`. XML cannot carry the character; `bplist00` can,
///   in ASCII (`0x5N`) and UTF-16 (`0x6N`) strings.
/// - libplist builds a tree, copying an object for every reference to it, so a few hundred bytes of arrays that
///   refer twice to the next one expand to billions of nodes (a 317-byte Info.plist took 4 GB and 9 s before this
///   check). The tree's size is computed here from the references, once per object, and refused above a cap.
///
/// This reads only what it must: the trailer, the offset table and each container's references, every read
/// checked against the buffer.
///
/// ```
/// trailer (last 32 bytes): 6 unused, offsetIntSize, objectRefSize, numObjects (8), topObject (8),
///                          offsetTableOffset (8), integers big-endian
/// array / set object:      0xAN / 0xCN (N elements; N = 0xF: an integer object 0x1S of 2^S bytes follows),
///                          N references (objectRefSize bytes each)
/// dict object:             0xDN, N key references, N value references
/// ```
enum BinaryPlistScreen {
    /// What the screen found.
    enum Verdict: Equatable {
        /// Nothing libplist cannot take, or a layout it cannot follow (libplist then refuses the file itself).
        case readable
        /// A key holds NUL: libplist 2.2 would abort.
        case keyWithNUL
        /// Dictionaries claim more key references than the file has bytes, so they overlap: no writer does that,
        /// and checking every claimed key would take time quadratic in the file's size.
        case overlappingDictionaries
        /// The tree libplist would build has more than the given number of nodes.
        case tooManyNodes(Int)
        /// References nest deeper than the given number of levels (or loop).
        case tooDeep(Int)
    }

    /// Checks `bytes`, a `bplist` buffer: keys, then the size of the tree its references expand to.
    static func check(_ bytes: [UInt8], maximumNodes: Int, maximumDepth: Int) -> Verdict {
        guard let table = ObjectTable(bytes) else { return .readable }
        let keys = checkKeys(table)
        guard keys == .readable else { return keys }
        guard table.objectCount <= maximumNodes else { return .tooManyNodes(maximumNodes) }
        var sizer = TreeSizer(table: table, maximumNodes: maximumNodes, maximumDepth: maximumDepth)
        guard sizer.size(of: table.topObject, depth: 0) != nil else { return sizer.refusal ?? .readable }
        return .readable
    }

    /// The value of the top object of `bytes`, a `bplist` buffer, when it is a date: seconds since
    /// 2001-01-01T00:00:00Z, as the file stores them (any bit pattern, NaN and infinities included).
    ///
    /// ```
    /// date object: 0x33, then a big-endian IEEE 754 float64
    /// ```
    ///
    /// Returns nil when the buffer has no readable trailer or its top object is not a date.
    static func topDate(_ bytes: [UInt8]) -> Double? {
        guard let table = ObjectTable(bytes), let offset = table.offset(of: table.topObject), offset >= 8,
            table.byte(at: offset) == 0x33, let end = ObjectTable.add(offset, 9, times: 1),
            end <= table.tableStart
        else { return nil }
        // offset + 9 <= tableStart <= bytes.count, so the eight bytes after the marker are inside the buffer.
        let bits = bytes[(offset + 1)..<end].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(bitPattern: bits)
    }

    private static func checkKeys(_ table: ObjectTable) -> Verdict {
        var budget = table.bytes.count
        var checkedKeys = Set<Int>()
        for object in 0..<table.objectCount {
            guard let (marker, count, start) = table.container(object), marker >> 4 == 0xD,
                let end = ObjectTable.add(start, count, times: table.referenceSize), end <= table.bytes.count
            else { continue }
            budget -= count
            guard budget >= 0 else { return .overlappingDictionaries }
            for entry in 0..<count {
                guard let key = table.reference(at: start, entry),
                    checkedKeys.insert(key).inserted
                else { continue }
                if table.stringHoldsNUL(object: key) { return .keyWithNUL }
            }
        }
        return .readable
    }
}

/// The number of nodes each object becomes in libplist's tree, computed once per object.
private struct TreeSizer {
    let table: ObjectTable
    let maximumNodes: Int
    let maximumDepth: Int
    /// Each object's tree size once known (0: not yet).
    ///
    /// `objectCount` was checked against `maximumNodes`, so this stays small.
    var known: [Int]

    init(table: ObjectTable, maximumNodes: Int, maximumDepth: Int) {
        self.table = table
        self.maximumNodes = maximumNodes
        self.maximumDepth = maximumDepth
        known = [Int](repeating: 0, count: table.objectCount)
    }

    /// Why the tree is refused, once ``size(of:depth:)`` returned nil.
    var refusal: BinaryPlistScreen.Verdict?

    /// The size of object `index`'s tree, or nil when it is refused (see ``refusal``).
    ///
    /// A loop recurses until the depth cap stops it.
    mutating func size(of index: Int, depth: Int) -> Int? {
        guard depth <= maximumDepth else {
            refusal = .tooDeep(maximumDepth)
            return nil
        }
        guard index >= 0, index < known.count else { return 1 }
        if known[index] > 0 { return known[index] }
        var total = 1
        if let (marker, count, start) = table.container(index) {
            let (references, overflowed) =
                marker >> 4 == 0xD ? count.multipliedReportingOverflow(by: 2) : (count, false)
            guard !overflowed, let end = ObjectTable.add(start, references, times: table.referenceSize),
                end <= table.bytes.count
            else { return 1 }
            for entry in 0..<references {
                guard let child = table.reference(at: start, entry) else { continue }
                guard let childSize = size(of: child, depth: depth + 1) else { return nil }
                total += childSize
                guard total <= maximumNodes else {
                    refusal = .tooManyNodes(maximumNodes)
                    return nil
                }
            }
        }
        known[index] = total
        return total
    }
}

/// The object table of a `bplist` buffer, read through bounds-checked accessors only.
struct ObjectTable {
    let bytes: [UInt8]
    let offsetSize: Int
    let referenceSize: Int
    let objectCount: Int
    let topObject: Int
    let tableStart: Int

    init?(_ bytes: [UInt8]) {
        let trailer = bytes.count - 32
        guard bytes.starts(with: Array("bplist".utf8)), trailer >= 8 else { return nil }
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        // Every object takes at least one byte before the table, so a count above the file's size is a lie (and
        // keeps count × offsetSize far from overflowing).
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let count = Self.bigEndian(bytes, at: trailer + 8, size: 8), count <= trailer,
            let top = Self.bigEndian(bytes, at: trailer + 16, size: 8),
            let start = Self.bigEndian(bytes, at: trailer + 24, size: 8), start >= 8, start <= trailer,
            count * offsetSize <= trailer - start
        else { return nil }
        self.bytes = bytes
        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        objectCount = count
        topObject = top
        tableStart = start
    }

    /// A big-endian unsigned integer of `size` bytes at `offset` in `bytes`, if it lies inside and fits an `Int`.
    static func bigEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
        guard offset >= 0, size <= 8, offset <= bytes.count, size <= bytes.count - offset else { return nil }
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return Int(exactly: value)
    }

    /// `base + index × stride`, or nil on overflow.
    static func add(_ base: Int, _ index: Int, times stride: Int) -> Int? {
        let (product, productOverflowed) = index.multipliedReportingOverflow(by: stride)
        let (sum, sumOverflowed) = base.addingReportingOverflow(product)
        return productOverflowed || sumOverflowed ? nil : sum
    }

    func byte(at offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    func unsigned(at offset: Int, size: Int) -> Int? {
        Self.bigEndian(bytes, at: offset, size: size)
    }

    /// Where object `index` starts, as the offset table says.
    func offset(of index: Int) -> Int? {
        guard index < objectCount else { return nil }
        // tableStart + objectCount × offsetSize was checked to lie inside the buffer.
        return unsigned(at: tableStart + index * offsetSize, size: offsetSize)
    }

    /// An object's element count (the marker's low nibble, or the integer object after it) and where its contents
    /// start.
    func lengthAndStart(marker: UInt8, at offset: Int) -> (count: Int, start: Int)? {
        let nibble = Int(marker & 0x0F)
        guard nibble == 0x0F else { return (nibble, offset + 1) }
        guard let integerMarker = byte(at: offset + 1), integerMarker >> 4 == 0x1, integerMarker & 0x0F <= 3 else {
            return nil
        }
        let size = 1 << Int(integerMarker & 0x0F)
        guard let count = unsigned(at: offset + 2, size: size) else { return nil }
        return (count, offset + 2 + size)
    }

    /// Object `index`'s marker, element count and where its references start, when it is an array, a set or a
    /// dictionary.
    func container(_ index: Int) -> (marker: UInt8, count: Int, start: Int)? {
        guard let offset = offset(of: index), let marker = byte(at: offset), [0xA, 0xC, 0xD].contains(marker >> 4),
            let (count, start) = lengthAndStart(marker: marker, at: offset)
        else { return nil }
        return (marker, count, start)
    }

    /// The `entry`th object reference of a container whose references start at `start`.
    func reference(at start: Int, _ entry: Int) -> Int? {
        guard let offset = Self.add(start, entry, times: referenceSize) else { return nil }
        return unsigned(at: offset, size: referenceSize)
    }

    /// Whether object `index` is an ASCII or UTF-16 string holding NUL.
    func stringHoldsNUL(object index: Int) -> Bool {
        guard let offset = offset(of: index), let marker = byte(at: offset), marker >> 4 == 0x5 || marker >> 4 == 0x6,
            let (count, start) = lengthAndStart(marker: marker, at: offset)
        else { return false }
        let unitSize = marker >> 4 == 0x6 ? 2 : 1
        guard let end = Self.add(start, count, times: unitSize), end <= bytes.count else { return false }
        return stride(from: start, to: end, by: unitSize).contains { unit in
            bytes[unit..<(unit + unitSize)].allSatisfy { $0 == 0 }
        }
    }
}
