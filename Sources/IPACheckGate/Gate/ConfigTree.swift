import Foundation
import IPACheckAASA
import IPACheckReport
import Yams

/// A configuration file read strictly, JSON or YAML, into one tree that knows where every key is, so that a
/// syntax error, a misspelled key or a wrong type is reported at its line and column before anything is decoded.
struct ConfigTree {
    /// A value of the tree.
    indirect enum Value {
        /// An object: keys in file order.
        case object([(key: String, node: ConfigTree)])
        /// An array.
        case array([ConfigTree])
        /// A string.
        case string(String)
        /// A number, as written.
        case number(String)
        /// `true` or `false`.
        case bool(Bool)
        /// `null`.
        case null
    }

    /// The value.
    let value: Value
    /// Where it is: `line L, column C` (of its key, for a member).
    let position: String

    /// Parses `bytes`: YAML when `yaml`, else strict JSON (no trailing commas, comments or repeated keys).
    ///
    /// - Throws: ``InputError`` naming the file, the line and column, and what is wrong.
    static func parse(_ bytes: [UInt8], yaml: Bool, file: String) throws(InputError) -> ConfigTree {
        if yaml { return try parseYAML(bytes, file: file) }
        let parsed: (value: AASAJSON, duplicateKeys: [AASAJSON.DuplicateKey])
        do {
            parsed = try AASAJSON.parseStrict(bytes)
        } catch {
            let place = error.position.map { "\($0): " } ?? ""
            throw InputError("bad-config", file: file, "\(place)\(error.message)")
        }
        if let duplicate = parsed.duplicateKeys.first {
            let object = duplicate.objectPath.isEmpty ? "the top level" : duplicate.objectPath
            throw InputError(
                "bad-config",
                file: file,
                "\(duplicate.position): key \(duplicate.key) appears twice in \(object)"
            )
        }
        return ConfigTree(json: parsed.value, position: "line 1, column 1")
    }

    private init(value: Value, position: String) {
        self.value = value
        self.position = position
    }

    private init(json: AASAJSON, position: String) {
        self.position = position
        switch json {
        case .object(let members):
            value = .object(
                members.map { ($0.key, ConfigTree(json: $0.value, position: "\($0.position)")) }
            )
        case .array(let elements): value = .array(elements.map { ConfigTree(json: $0, position: position) })
        case .string(let text): value = .string(text)
        case .number(let text): value = .number(text)
        case .bool(let flag): value = .bool(flag)
        case .null: value = .null
        }
    }

    private static func parseYAML(_ bytes: [UInt8], file: String) throws(InputError) -> ConfigTree {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InputError("bad-config", file: file, "is not UTF-8 text")
        }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw InputError("bad-config", file: file, "is not valid YAML: \(describe(error))")
        } catch {
            throw InputError("bad-config", file: file, "is not valid YAML: \(error)")
        }
        guard let node else { throw InputError("bad-config", file: file, "is empty") }
        return try ConfigTree(yaml: node, file: file, depth: 0)
    }

    private init(yaml node: Node, file: String, depth: Int) throws(InputError) {
        let place = node.mark.map { "line \($0.line), column \($0.column)" } ?? "line 1, column 1"
        guard depth < 32 else { throw InputError("bad-config", file: file, "\(place): nested too deeply") }
        position = place
        switch node {
        case .mapping(let mapping):
            var members: [(key: String, node: ConfigTree)] = []
            for (key, child) in mapping {
                guard case .scalar(let name) = key else {
                    throw InputError("bad-config", file: file, "\(place): a key must be a plain string")
                }
                if members.contains(where: { $0.key == name.string }) {
                    let at = key.mark.map { "line \($0.line), column \($0.column)" } ?? place
                    throw InputError("bad-config", file: file, "\(at): key \(name.string) appears twice")
                }
                let keyPlace = key.mark.map { "line \($0.line), column \($0.column)" } ?? place
                let inner = try ConfigTree(yaml: child, file: file, depth: depth + 1)
                members.append((name.string, ConfigTree(value: inner.value, position: keyPlace)))
            }
            value = .object(members)
        case .sequence(let sequence):
            var elements: [ConfigTree] = []
            for child in sequence { elements.append(try ConfigTree(yaml: child, file: file, depth: depth + 1)) }
            value = .array(elements)
        case .scalar(let scalar):
            if node.null != nil {
                value = .null
            } else if let flag = node.bool {
                value = .bool(flag)
            } else if node.float != nil || (!scalar.string.contains(":") && node.int != nil) {
                // Yams reads `1:30:00` as a base-60 integer and traps when one overflows (found by the Config
                // fuzzer): with a colon, only its float reading is asked for, and such text is otherwise a string.
                value = .number(scalar.string)
            } else {
                value = .string(scalar.string)
            }
        case .alias:
            throw InputError("bad-config", file: file, "\(place): YAML aliases are not accepted in a config file")
        }
    }

    private static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return "line \(mark.line), column \(mark.column): \(problem)"
        default:
            return "\(error)"
        }
    }

    /// What kind of value this is, for messages (`an array`).
    var kindName: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// The member named `key` of an object.
    subscript(key: String) -> ConfigTree? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.node
    }

    /// The tree as a JSON value, for `JSONDecoder`.
    var json: JSONValue {
        switch value {
        case .object(let members):
            .object(Dictionary(members.map { ($0.key, $0.node.json) }, uniquingKeysWith: { _, last in last }))
        case .array(let elements): .array(elements.map(\.json))
        case .string(let text): .string(text)
        case .number(let text): Int64(text).map { .integer($0) } ?? Double(text).map { .number($0) } ?? .string(text)
        case .bool(let flag): .bool(flag)
        case .null: .null
        }
    }

    /// Refuses keys a schema does not know, at every level: `schema` maps a path pattern (`suppress[]`) to the keys
    /// an object there may have.
    ///
    /// - Throws: ``InputError`` naming the first unknown key's place and the keys that are known.
    func checkKeys(_ schema: [String: [String]], file: String) throws(InputError) {
        try checkKeys(schema, pattern: "", shown: "", file: file)
    }

    private func checkKeys(
        _ schema: [String: [String]],
        pattern: String,
        shown: String,
        file: String
    )
        throws(InputError)
    {
        switch value {
        case .object(let members):
            if let known = schema[pattern] {
                for (key, node) in members where !known.contains(key) {
                    let place = shown.isEmpty ? "at the top level" : "in \(shown)"
                    throw InputError(
                        "bad-config",
                        file: file,
                        "\(node.position): unknown key \(key) \(place) (the keys there are \(known.joined(separator: ", ")))"
                    )
                }
            }
            for (key, node) in members {
                try node.checkKeys(
                    schema,
                    pattern: pattern.isEmpty ? key : "\(pattern).\(key)",
                    shown: shown.isEmpty ? key : "\(shown).\(key)",
                    file: file
                )
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                try element.checkKeys(schema, pattern: pattern + "[]", shown: shown + "[\(index)]", file: file)
            }
        default:
            break
        }
    }
}
