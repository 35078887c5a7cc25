package import Foundation

/// Runs python3 for independent checks (schema validation, reading zips).
package enum Python {
    /// Whether CI asked for every check to run (`CI=true`): a missing python3 or jsonschema is then a failure.
    package static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Whether `python3 -c "import jsonschema"` works.
    package static let hasJSONSchema: Bool = (try? run(script: "import jsonschema", arguments: []))?.status == 0

    /// Whether python3 runs at all.
    package static let isAvailable: Bool = (try? run(script: "pass", arguments: []))?.status == 0

    /// Runs `python3 -c script arguments...`; returns its exit status and combined output.
    package static func run(script: String, arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ProcessRunner.run(program: "python3", ["-c", script] + arguments, errors: .merged)
        return (result.status, result.output)
    }

    /// The SARIF validator of IPACheckReportTests/SARIFRendererTests.swift: Draft 7 plus RFC 3986 checks for the
    /// `uri` and `uri-reference` formats (which jsonschema checks only with optional packages installed).
    package static let sarifValidator = #"""
        import json, re, sys
        from jsonschema import Draft7Validator, FormatChecker
        schema = json.load(open(sys.argv[1], encoding="utf-8"))
        log = json.load(open(sys.argv[2], encoding="utf-8"))
        checker = FormatChecker()
        chars = re.compile(r"^(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$")
        scheme = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
        @checker.checks("uri")
        def is_uri(value):
            return not isinstance(value, str) or (bool(chars.match(value)) and bool(scheme.match(value)))
        @checker.checks("uri-reference")
        def is_uri_reference(value):
            if not isinstance(value, str):
                return True
            if not chars.match(value):
                return False
            return bool(scheme.match(value)) or ":" not in value.split("/")[0]
        errors = list(Draft7Validator(schema, format_checker=checker).iter_errors(log))
        for error in errors:
            print("/".join(str(p) for p in error.absolute_path) + ": " + error.message)
        print("valid" if not errors else "invalid")
        sys.exit(1 if errors else 0)
        """#

    /// The committed official SARIF 2.1.0 schema.
    package static var sarifSchema: URL {
        Repository.root.appendingPathComponent("Tests/IPACheckReportTests/Fixtures/sarif-schema-2.1.0.json")
    }

    /// Validates a SARIF log against the official schema.
    package static func validateSARIF(_ sarif: String) throws -> (status: Int32, output: String) {
        let file = Scratch.folder.appendingPathComponent("ipacheck-\(UUID().uuidString).sarif")
        try Data(sarif.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try run(script: sarifValidator, arguments: [sarifSchema.path, file.path])
    }

    /// Extracts every member of the zip at `path` into a new folder (python's zipfile: independent of ipacheck).
    package static func unzip(_ path: String) throws -> URL {
        let folder = Scratch.folder.appendingPathComponent(
            "ipacheck-unzip-\(UUID().uuidString)"
        )
        let result = try run(
            script: "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
            arguments: [path, folder.path]
        )
        guard result.status == 0 else { throw PythonError(output: result.output) }
        return folder
    }
}

/// python3 failed; its output says why.
package struct PythonError: Error, CustomStringConvertible {
    /// What python3 printed.
    package let output: String
    /// The output.
    package var description: String { "python3 failed: \(output)" }
}
