import Foundation
import IPACheckTestSupport
import Testing

/// The sample files (Samples/README.md says what each is designed to give).
enum SampleFiles {
    static func path(_ relative: String) -> String { Repository.samples.appendingPathComponent(relative).path }

    static var acme: String { path("Acme.ipa") }
    static var minimal: String { path("Minimal.ipa") }
    static var aasaDir: String { path("aasa") }
    static var apexAASA: String { path("aasa/acme.example/apple-app-site-association") }
    static var appflip: String { path("appflip.json") }
    static func broken(_ name: String) -> String { path("broken/\(name)") }
    static func brokenAASA(_ name: String) -> String { path("aasa-broken/\(name)") }

    /// `--offline --aasa-dir Samples/aasa`.
    static var offline: [String] { ["--offline", "--aasa-dir", aasaDir] }
}

extension CLIResult {
    /// stdout parsed as a JSON object.
    func jsonObject(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        return try #require(
            object as? [String: Any],
            "stdout is not a JSON object: \(stdout)",
            sourceLocation: sourceLocation
        )
    }

    /// The non-empty lines of stderr.
    var stderrLines: [Substring] { stderr.split(separator: "\n", omittingEmptySubsequences: true) }
}

/// Rebuilds an extracted folder as an ipa with ZipBuilder (stored members, folders as `name/` entries).
enum Rezip {
    /// Zips every file under `folder`, with paths relative to it, in sorted order; `change` may rewrite a member,
    /// and `method` name the compression method a member's headers claim (its bytes are stored as they are).
    static func write(
        _ folder: URL,
        change: (String, inout [UInt8]) -> Void = { _, _ in },
        method: (String) -> UInt16 = { _ in 0 }
    ) throws -> String {
        let root = folder.standardizedFileURL.path
        let enumerator = try #require(FileManager.default.enumerator(atPath: root))
        var names: [String] = []
        while let name = enumerator.nextObject() as? String { names.append(name) }
        var zip = ZipBuilder()
        for name in names.sorted() {
            var isDirectory: ObjCBool = false
            _ = unsafe FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                zip.add(name + "/")
            } else {
                var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + name)))
                change(name, &bytes)
                zip.add(name, bytes, method: method(name))
            }
        }
        return try zip.write(named: "Rezipped.ipa")
    }
}

/// Byte searches for tampering tests.
enum Bytes {
    /// The offset of the first occurrence of `needle` in `haystack` at or after `start`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else {
            return nil
        }
        for offset in start...(haystack.count - needle.count) where haystack[offset] == needle[0] {
            if Array(haystack[offset..<(offset + needle.count)]) == needle { return offset }
        }
        return nil
    }
}

/// A small ipa built from scratch: one app whose ad-hoc signature carries `entitlements` (an XML plist body and
/// the matching DER blob), for inputs the samples do not contain.
enum SmallIPA {
    /// Writes `Payload/NAME.app` (executable `NAME`) with application-identifier `appID`, these associated domains,
    /// and as bundle ID the application identifier without its team prefix.
    ///
    /// `strings` go into the executable after the signed slice, NUL-separated, as the streaming search sees
    /// `__cstring`.
    static func write(
        domains: [String],
        appID: String = "7QX3KD52VH.com.example.small",
        name: String = "App",
        strings: [String] = []
    ) throws -> String {
        let bundleID = String(appID.drop { $0 != "." }.dropFirst())
        let escaped = domains.map { $0.replacingOccurrences(of: "&", with: "&amp;") }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>application-identifier</key><string>\(appID)</string>
            <key>com.apple.developer.associated-domains</key><array>\(escaped.map { "<string>\($0)</string>" }.joined())</array>
            </dict></plist>

            """
        let der = SuperBlobBuilder.derEntitlementsApplication([
            ("application-identifier", SuperBlobBuilder.derString(appID)),
            (
                "com.apple.developer.associated-domains",
                SuperBlobBuilder.derArray(domains.map(SuperBlobBuilder.derString))
            ),
        ])
        let info = PlistFixture.info([
            "CFBundleIdentifier": bundleID, "CFBundleExecutable": name, "CFBundlePackageType": "APPL",
        ])
        var signing = MachOBuilder.Signing()
        signing.xmlEntitlements = Array(xml.utf8)
        signing.derEntitlements = der
        signing.infoPlist = info
        let tail: [UInt8] = strings.isEmpty ? [] : [0] + strings.flatMap { Array($0.utf8) + [0] }
        var zip = ZipBuilder()
        zip.add("Payload/\(name).app/Info.plist", info)
        zip.add("Payload/\(name).app/\(name)", MachOBuilder.slice(signing: signing) + tail)
        return try zip.write(named: "Small.ipa")
    }
}

/// Loopback servers on port 443, where `--resolve HOST:443:ADDRESS` sends the fetcher.
enum Loopback {
    /// Whether this process may listen on `address`, port 443 (root, as CI runs) and nothing else does.
    static func canServe443(on address: String) -> Bool {
        let probe = try? Python.run(
            script: """
                import socket, sys
                s = socket.socket()
                try:
                    s.bind((sys.argv[1], 443)); print("free")
                except OSError:
                    print("taken")
                """,
            arguments: [address]
        )
        return probe?.output.trimmingCharacters(in: .whitespacesAndNewlines) == "free"
    }
}

/// Where a published schema lives: the value an output's `$schema` names.
enum JSONSchemaURL {
    static func of(_ name: String) -> String {
        "https://raw.githubusercontent.com/ipacheck/ipacheck/main/docs/schemas/\(name).schema.json"
    }
}

/// Validates JSON outputs against the schemas published in docs/schemas (python's jsonschema, draft 2020-12).
enum JSONSchemaCheck {
    private static let script = """
        import json, sys, glob, jsonschema
        from referencing import Registry, Resource
        base = "https://raw.githubusercontent.com/ipacheck/ipacheck/main/docs/schemas/"
        schemas = {p.rsplit("/", 1)[1]: json.load(open(p)) for p in glob.glob(sys.argv[1] + "/*.schema.json")}
        registry = Registry().with_resources([(base + n, Resource.from_contents(s)) for n, s in schemas.items()])
        every_schema_used = sys.argv[2] == "all"
        used, problems = set(), []
        for path in sys.argv[3:]:
            text = open(path, encoding="utf-8").read()
            if text.startswith("exit: "):
                text = text.split("--- stdout\\n", 1)[1].rsplit("\\n--- stderr\\n", 1)[0]
            document = json.loads(text)
            name = str(document.get("$schema", "")).replace(base, "")
            if name not in schemas:
                problems.append(f"{path}: $schema {document.get('$schema')!r} is not a published schema")
                continue
            used.add(name)
            validator = jsonschema.Draft202012Validator(schemas[name], registry=registry)
            for error in validator.iter_errors(document):
                problems.append(f"{path}: {error.message} at /{'/'.join(map(str, error.path))}")
        # A schema another one refers to (report.schema.json, the report commands' shared keys) is used through it.
        refers = lambda u, n: f'"{n}"' in json.dumps(schemas[u]) or f'"{n}#' in json.dumps(schemas[u])
        used |= {n for n in schemas for u in list(used) if refers(u, n)}
        if every_schema_used:
            problems += [f"{n} is used by no output" for n in sorted(set(schemas) - used)]
        print("\\n".join(problems))
        """

    /// What is wrong with the JSON in `files` (a JSON document, or a golden file's stdout); empty when every one
    /// names a published schema and validates against it (and, with `everySchemaUsed`, every schema is named).
    static func problems(_ files: [URL], everySchemaUsed: Bool = false) throws -> [String] {
        let schemas = Repository.root.appendingPathComponent("docs/schemas").path
        let result = try Python.run(
            script: script,
            arguments: [schemas, everySchemaUsed ? "all" : "some"] + files.map(\.path)
        )
        guard result.status == 0 else { return ["the validator failed: \(result.output)"] }
        return result.output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }
}

/// What every command that reads a build says of one input.
enum BuildReaders {
    /// The commands that read a build, as a user runs them on a target.
    static let commands = [["info"], ["verify"], ["entitlements"], ["domains"], ["check"] + SampleFiles.offline]

    /// Expects every command that reads a build to refuse `target` (exit 2) with one error line saying `words`.
    static func expectEachRefuses(
        _ target: String,
        saying words: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for command in commands {
            let result = try CLI.run(command + [target])
            #expect(result.status == 2, "\(command)", sourceLocation: sourceLocation)
            #expect(
                result.stderr.hasPrefix("ipacheck: error: \(target): \(words)\n"),
                "\(command): \(result.stderr)",
                sourceLocation: sourceLocation
            )
        }
    }
}
