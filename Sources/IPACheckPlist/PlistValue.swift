package import Foundation

/// A property-list value: the one model for Info.plist, XML and DER entitlements, profiles and
/// GoogleService-Info.plist, so every source of entitlements can be compared with `==`.
package enum PlistValue: Hashable, Sendable {
    /// A UTF-8 string.
    case string(String)
    /// A signed integer (plists store 64 bits).
    case integer(Int64)
    /// An integer above `Int64.max`, up to `UInt64.max`: plists store unsigned 64-bit values too, and such a value
    /// is kept as written, not wrapped to a negative one.
    case unsignedInteger(UInt64)
    /// A floating-point number.
    case real(Double)
    /// A Boolean.
    case bool(Bool)
    /// An absolute time.
    case date(Date)
    /// Raw bytes.
    case data([UInt8])
    /// An ordered list.
    case array([PlistValue])
    /// A dictionary; keys are unique, and renderers sort them for stable output.
    case dictionary([String: PlistValue])

    /// The string, if this is a string.
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The Boolean, if this is a Boolean.
    package var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer, if this is an integer.
    package var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The date, if this is a date.
    package var dateValue: Date? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The bytes, if this is data.
    package var dataValue: [UInt8]? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    package var arrayValue: [PlistValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries, if this is a dictionary.
    package var dictionaryValue: [String: PlistValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The value under `key`, if this is a dictionary that has it.
    package subscript(key: String) -> PlistValue? {
        dictionaryValue?[key]
    }

    /// The strings of an array, skipping anything that is not a string (as iOS does for entitlement arrays).
    package var stringArray: [String]? {
        arrayValue.map { $0.compactMap(\.stringValue) }
    }

    /// The type's name with its article, for sentences (`"an integer"`, `"a dictionary"`).
    package var typeNameWithArticle: String {
        let name = typeName
        return (["a", "e", "i", "o", "u"].contains(name.prefix(1)) ? "an " : "a ") + name
    }

    /// A short name of the value's type, for messages (`"string"`, `"dictionary"`).
    package var typeName: String {
        switch self {
        case .string: "string"
        case .integer, .unsignedInteger: "integer"
        case .real: "real"
        case .bool: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }
}
