/// Checks a binary property list's dictionary keys before libplist reads them.
///
/// libplist 2.2 (Debian 12) aborts the whole process on a key holding a NUL character: `plist_dict_next_item`
/// reads keys through `plist_get_key_val`, which asserts `length == strlen(key)`. XML cannot carry the character;
/// `bplist00` can, in ASCII (`0x5N`) and UTF-16 (`0x6N`) strings. This reads only what it must: the trailer, the
/// offset table and each dictionary's key references, every read checked against the buffer.
///
/// ```
/// trailer (last 32 bytes): 6 unused, offsetIntSize, objectRefSize, numObjects (8), topObject (8),
///                          offsetTableOffset (8), integers big-endian
/// dict object:             0xDN (N entries; N = 0xF: an integer object 0x1S of 2^S bytes follows),
///                          N key references, N value references (objectRefSize bytes each)
/// ```
enum BinaryPlistKeys {
    /// What the keys allow.
    enum Verdict: Equatable {
        /// No key holds NUL, or the layout cannot be followed (libplist then refuses the file itself).
        case readable
        /// A key holds NUL: libplist 2.2 would abort.
        case keyWithNUL
        /// Dictionaries claim more key references than the file has bytes, so they overlap: no writer does that,
        /// and checking every claimed key would take time quadratic in the file's size.
        case overlappingDictionaries
    }

    /// Checks every dictionary object of `bytes`, a `bplist` buffer.
    static func check(_ bytes: [UInt8]) -> Verdict {
        guard let table = ObjectTable(bytes) else { return .readable }
        var budget = bytes.count
        var checkedKeys = Set<Int>()
        for object in 0..<table.objectCount {
            guard let offset = table.offset(of: object), let marker = table.byte(at: offset), marker >> 4 == 0xD,
                let (count, start) = table.lengthAndStart(marker: marker, at: offset),
                let end = ObjectTable.add(start, count, times: table.referenceSize), end <= bytes.count
            else { continue }
            budget -= count
            guard budget >= 0 else { return .overlappingDictionaries }
            for entry in 0..<count {
                guard let key = table.unsigned(at: start + entry * table.referenceSize, size: table.referenceSize),
                    checkedKeys.insert(key).inserted
                else { continue }
                if table.stringHoldsNUL(object: key) { return .keyWithNUL }
            }
        }
        return .readable
    }
}

/// The object table of a `bplist` buffer, read through bounds-checked accessors only.
private struct ObjectTable {
    let bytes: [UInt8]
    let offsetSize: Int
    let referenceSize: Int
    let objectCount: Int
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
            let start = Self.bigEndian(bytes, at: trailer + 24, size: 8), start >= 8, start <= trailer,
            count * offsetSize <= trailer - start
        else { return nil }
        self.bytes = bytes
        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        objectCount = count
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
