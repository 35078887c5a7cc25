/// Paths as their UTF-8 bytes end to end, compared as Swift strings compare.
///
/// A `String` for each path cost 16 bytes and a heap object (64 bytes for a typical path of a large app's seal);
/// here its bytes and 9 more (where it ends, whether it is ASCII). Two ASCII paths compare byte by byte, which is how
/// Swift compares ASCII strings; any other pair is compared as strings (Unicode canonical equivalence and order), as
/// a dictionary keyed by the paths would compare them.
struct PackedPaths: Sendable, Equatable {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    private var isASCII: [Bool] = []

    /// A path to look up, measured once.
    struct Query {
        let string: String
        let utf8: [UInt8]
        let isASCII: Bool

        init(_ string: String) {
            self.string = string
            utf8 = Array(string.utf8)
            isASCII = utf8.allSatisfy { $0 < 0x80 }
        }
    }

    /// No paths.
    init() {}

    /// The number of paths.
    var count: Int { ends.count }

    /// Adds `path` at the end.
    mutating func append(_ path: String) {
        bytes.append(contentsOf: path.utf8)
        ends.append(bytes.count)
        isASCII.append(path.utf8.allSatisfy { $0 < 0x80 })
    }

    /// Adds the path `other` holds at `index`.
    mutating func append(_ index: Int, of other: PackedPaths) {
        bytes.append(contentsOf: other.bytes[other.range(index)])
        ends.append(bytes.count)
        isASCII.append(other.isASCII[index])
    }

    private func range(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// The path at `index`.
    subscript(index: Int) -> String {
        String(decoding: bytes[range(index)], as: UTF8.self)
    }

    /// How the path at `index` compares with the one at `other`: negative, zero (the same path) or positive.
    func compare(_ index: Int, _ other: Int) -> Int {
        guard isASCII[index], isASCII[other] else { return Self.compare(self[index], self[other]) }
        return Self.compare(bytes[range(index)], bytes[range(other)])
    }

    /// How the path at `index` compares with `query`: negative, zero (the same path) or positive.
    func compare(_ index: Int, _ query: Query) -> Int {
        guard isASCII[index], query.isASCII else { return Self.compare(self[index], query.string) }
        return Self.compare(bytes[range(index)], query.utf8[...])
    }

    private static func compare(_ left: String, _ right: String) -> Int {
        left < right ? -1 : left == right ? 0 : 1
    }

    private static func compare(_ left: ArraySlice<UInt8>, _ right: ArraySlice<UInt8>) -> Int {
        for (a, b) in zip(left, right) where a != b { return a < b ? -1 : 1 }
        return left.count < right.count ? -1 : left.count == right.count ? 0 : 1
    }
}
