import Testing

@testable import IPACheckArchive

/// The member table gives back every name byte for byte, however much it shares with its neighbours.
struct ZipMemberTableTests {
    @Test func frontCodedNamesReadBackExactly() {
        var state: UInt64 = 42
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        var names: [[UInt8]] = [
            [], Array("Payload/".utf8), Array("Payload/A.app/".utf8), Array("Payload/A.app/Info.plist".utf8),
            Array("Payload/A.app/Info.plist".utf8),  // a name given twice shares all of itself
            Array("Payload/A.app/Info".utf8),  // a prefix of the one before
            [0xFF, 0xFE, 0x00, 0x80],  // not UTF-8, a NUL inside
            Array(repeating: UInt8(ascii: "x"), count: 300),  // lengths past one 7-bit group
            Array(repeating: UInt8(ascii: "x"), count: 65_535) + [],
        ]
        for _ in 0..<1_000 {
            let base = names[next(names.count)]
            let kept = base.prefix(next(base.count + 1))
            names.append(Array(kept) + (0..<next(40)).map { _ in UInt8(truncatingIfNeeded: next(256)) })
        }
        var table = ZipMemberTable(reservingMembers: names.count)
        for (index, name) in names.enumerated() {
            let added = table.append(headerOffset: UInt32(index), declaredSize: 0, method: 0, traits: [], name: name)
            #expect(added)
        }
        #expect(table.count == names.count)
        for (index, name) in names.enumerated() {
            #expect(table.nameBytes(at: index) == name, "member \(index)")
        }
        #expect(Array(table.names) == names)
        #expect(table.sizeEstimate(at: 3) == 0)
        #expect(table.nameBytes(at: names.count) == [])
        #expect(table.nameBytes(at: -1) == [])
    }

    /// Names that fill several chunks (long ones among them, so a chunk runs past its size) read back exactly, by
    /// index and in order.
    @Test func namesSpanningSeveralChunksReadBackExactly() {
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        var names: [[UInt8]] = []
        for index in 0..<3_000 {
            let length = index % 97 == 0 ? 65_535 : next(3_000)
            names.append((0..<length).map { _ in UInt8(truncatingIfNeeded: next(256)) })
        }
        let bytes = names.reduce(0) { $0 + $1.count }
        #expect(bytes > 3 * ZipMemberTable.chunkSize)
        var table = ZipMemberTable(reservingMembers: names.count)
        for (index, name) in names.enumerated() {
            let added = table.append(headerOffset: UInt32(index), declaredSize: 1, method: 8, traits: [], name: name)
            #expect(added)
        }
        #expect(Array(table.names) == names)
        for index in stride(from: 0, to: names.count, by: 7) {
            #expect(table.nameBytes(at: index) == names[index], "member \(index)")
        }
    }

    /// A member's size is kept as its magnitude (an upper bound within a factor of two) and its method exactly,
    /// also once a method other than stored and deflate appears among them.
    @Test func sizesAndMethodsReadBack() {
        let sizes: [UInt64] = [0, 1, 2, 3, 4, 1_000, 65_536, UInt64(UInt32.max), 1 << 40, .max]
        let methods: [UInt16] = [0, 8, 8, 0, 12, 8, 0, 99, 8, 0]
        var table = ZipMemberTable(reservingMembers: sizes.count)
        for (index, size) in sizes.enumerated() {
            let added = table.append(
                headerOffset: 0,
                declaredSize: size,
                method: methods[index],
                traits: [],
                name: Array("m\(index)".utf8)
            )
            #expect(added)
        }
        for (index, size) in sizes.enumerated() {
            let estimate = table.sizeEstimate(at: index)
            #expect(estimate >= size && (estimate - size) <= size, "size \(size): \(estimate)")
            #expect(table.entry(at: index).compressionMethod == methods[index])
            #expect(table.entry(at: index).sizeEstimate == estimate)
        }
    }
}
