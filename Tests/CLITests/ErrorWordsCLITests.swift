import Foundation
import IPACheckTestSupport
import Testing

/// Failures are said in words (the issue of that name): what happened and what to do, one line on stderr, never
/// `Error Domain=…`, an errno tuple, a type's dump or a path into `.build/`.
@Suite struct ErrorWordsCLITests {
    /// Text only a dump would contain.
    static let dumps = ["Error Domain=", "errno", ".build/", "Certificate(", "UserInfo="]

    private func expectWords(
        _ text: String,
        contains hints: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for dump in Self.dumps {
            #expect(!text.contains(dump), "\(text)", sourceLocation: sourceLocation)
        }
        for hint in hints {
            #expect(text.contains(hint), "\(text)", sourceLocation: sourceLocation)
        }
    }

    private static func temporary(_ name: String) -> URL {
        Scratch.folder.appendingPathComponent("ipacheck-words-\(UUID())-\(name)")
    }

    /// One cause, one sentence, whichever command reads the input: the same words after `ipacheck: error: PATH: `
    /// from every command that takes a file (check shows them in its report as well).
    @Test(arguments: ["missing", "notAFolderOnTheWay", "emptyFolder", "folderWithoutApp", "emptyFile", "textFile"])
    func everyCommandSaysACauseInTheSameWords(cause: String) throws {
        let base = Self.temporary("cause")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let path: String
        let words: String
        var commands = ["info", "check", "verify", "entitlements", "domains"]
        switch cause {
        case "missing":
            path = base.appendingPathComponent("App.ipa").path
            words = "no such file"
            commands += ["lint", "profile"]
        case "notAFolderOnTheWay":
            let file = base.appendingPathComponent("file")
            try Data("x".utf8).write(to: file)
            path = file.appendingPathComponent("App.ipa").path
            words = "cannot be read: a part of the path is not a folder"
            commands += ["lint", "profile"]
        case "emptyFolder":
            let folder = base.appendingPathComponent("App.ipa")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            path = folder.path
            words = "is an empty folder (or one this user may not list), not an ipa, an .app or an .xcarchive"
        case "emptyFile", "textFile":
            // Info and check said "not a zip archive" where the others named what the file is.
            let file = base.appendingPathComponent("App.entitlements")
            try Data((cause == "textFile" ? "garbage" : "").utf8).write(to: file)
            path = file.path
            words =
                cause == "textFile"
                ? "is neither an ipa (zip), a Mach-O nor a property list" : "is too short to be an ipa or a Mach-O"
        default:
            let folder = base.appendingPathComponent("App.ipa")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("notes".utf8).write(to: folder.appendingPathComponent("README.txt"))
            path = folder.path
            words = "is a folder with no Payload/*.app in it (1 file), not an unpacked ipa"
        }
        for command in commands {
            let result = try CLI.run([command, path])
            #expect(result.status == 2, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr == "ipacheck: error: \(path): \(words)\n", "\(command): \(result.stderr)")
        }
    }

    /// Root reads every file, so the permission case runs the binary as `nobody` (setpriv, as CI runs as root).
    static let canDropToNobody =
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    /// A file this user may not read: the same sentence from every command (libzip's "Can't open file" and a bare
    /// "cannot be read" are gone).
    @Test(.enabled(if: canDropToNobody, "needs root and setpriv to run the binary as nobody"))
    func aFileThisUserMayNotReadIsSaidTheSameEverywhere() throws {
        let path = Self.temporary("Locked.ipa")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: SampleFiles.minimal), to: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path.path)
        defer { try? FileManager.default.removeItem(at: path) }
        let words = "cannot be read: permission denied (this user may not open it; check its permissions)"
        for command in ["info", "check", "verify", "entitlements", "domains", "lint", "profile"] {
            let result = try CLI.run(
                ["--reuid=nobody", "--regid=nogroup", "--clear-groups", CLI.binary.path, command, path.path],
                executable: URL(fileURLWithPath: "/usr/bin/setpriv")
            )
            #expect(result.status == 2, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr == "ipacheck: error: \(path.path): \(words)\n", "\(command): \(result.stderr)")
        }
    }

    /// A bare Mach-O is named once, and the commands that read an ipa say what it is and which commands read it
    /// (they said "not a zip archive"; entitlements named the path twice).
    @Test func aBareUnsignedMachOIsSaidOnceAndForWhatItIs() throws {
        let path = Self.temporary("App")
        try Data(MachOBuilder.slice()).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let entitlements = try CLI.run(["entitlements", path.path])
        #expect(entitlements.status == 2)
        #expect(
            entitlements.stderr == "ipacheck: error: \(path.path): has no code signature\n",
            "\(entitlements.stderr)"
        )
        for command in ["info", "domains", "check"] {
            let result = try CLI.run([command, path.path])
            #expect(result.status == 2)
            #expect(
                result.stderr.hasPrefix("ipacheck: error: \(path.path): is a Mach-O executable, not an ipa"),
                "\(command): \(result.stderr)"
            )
        }
    }

    /// A scheme without its slashes is told how to write it (it suggested `https://https:acme.example/x`).
    @Test(arguments: ["https:acme.example/x", "https:/acme.example/x", "HTTP:acme.example/x"])
    func aSchemeWithoutSlashesSaysHowToWriteIt(url: String) throws {
        let result = try CLI.run(["match", url, "--app-id", "ABCDE12345.com.example.app"] + SampleFiles.offline)
        #expect(result.status == 2)
        let scheme = url.lowercased().hasPrefix("https") ? "https" : "http"
        #expect(result.stderr.contains("write \(scheme)://acme.example/x"), "\(result.stderr)")
    }

    @Test(arguments: [100, 1000, 0.5, 0.99])
    func aTruncatedIPASaysItIsTruncated(cut: Double) throws {
        let whole = Array(try Data(contentsOf: URL(fileURLWithPath: SampleFiles.acme)))
        let length = cut < 1 ? Int(Double(whole.count) * cut) : Int(cut)
        let path = Self.temporary("Cut.ipa")
        try Data(whole.prefix(length)).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let result = try CLI.run(["info", path.path])
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        expectWords(
            result.stderr,
            contains: [path.path, "the archive is truncated (\(length) bytes;", "download or copy it again"]
        )
        #expect(!result.stderr.contains("not a zip archive"))
    }

    @Test(.enabled(if: Python.isAvailable || Python.isCI, "needs python3 to unpack the ipa"))
    func aSymbolicLinkToAnAppFolderIsFollowed() throws {
        let folder = try Python.unzip(SampleFiles.acme)
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = folder.appendingPathComponent("Payload/Acme.app")
        let link = Self.temporary("Acme.app")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: app)
        defer { try? FileManager.default.removeItem(at: link) }
        let direct = try CLI.run(["info", "--format", "json", app.path])
        let linked = try CLI.run(["info", "--format", "json", link.path])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(!linked.stderr.contains("the archive is empty"))
        // The same bundle, whichever path names it (the report echoes the path it was given).
        #expect(linked.stdout.replacingOccurrences(of: link.path, with: app.path) == direct.stdout)
    }

    @Test func aSymbolicLinkToAnIPAIsFollowed() throws {
        let link = Self.temporary("Acme.ipa")
        try FileManager.default.createSymbolicLink(
            at: link,
            withDestinationURL: URL(fileURLWithPath: SampleFiles.acme)
        )
        defer { try? FileManager.default.removeItem(at: link) }
        let result = try CLI.run(["info", link.path])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func aMissingOfflineFileSaysNoSuchFile() throws {
        let empty = Self.temporary("aasa")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let result = try CLI.run(["aasa", "example.com", "--offline", "--aasa-dir", empty.path])
        expectWords(result.stdout + result.stderr, contains: ["no such file"])
        let json = try CLI.run(["aasa", "example.com", "--offline", "--aasa-dir", empty.path, "--format", "json"])
        expectWords(json.stdout, contains: ["no such file"])
    }

    @Test func aFolderGivenAsAnAASAFileSaysSo() throws {
        let folder = Self.temporary("aasa-folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run(["lint", folder.path])
        #expect(result.status == 2)
        expectWords(result.stderr, contains: [folder.path, "is a folder"])
    }

    @Test func aMissingCAFileIsNamed() throws {
        let result = try CLI.run(["aasa", "example.com", "--ca-file", "/nonexistent/ca.pem", "--no-cdn"])
        #expect(result.status == 64 || result.status == 2, "\(result.stderr)")
        expectWords(result.stderr, contains: ["/nonexistent/ca.pem", "no such file"])
    }

    @Test func aCAFileWithoutCertificatesSaysWhatItMustHold() throws {
        let file = Self.temporary("ca.pem")
        try Data("not a certificate".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CLI.run(["aasa", "example.com", "--ca-file", file.path, "--no-cdn"])
        #expect(result.status != 0)
        expectWords(result.stderr, contains: [file.path, "BEGIN CERTIFICATE"])
        #expect(!result.stderr.contains("failedToLoadCertificate"))
    }

    @Test func aRefusedConnectionNamesTheAddressAndPort() throws {
        // No suite listens on 127.0.0.99 (the servers of the suites use .23 to .25), so the connection is refused,
        // and --resolve keeps the request on loopback. The test asserts that, rather than returning early.
        let result = try CLI.run([
            "aasa", "example.test", "--no-cdn", "--timeout", "5", "--resolve", "example.test:443:127.0.0.99",
        ])
        let text = result.stdout + result.stderr
        #expect(text.contains("connection refused"), "127.0.0.99:443 answered: \(text)")
        expectWords(
            text,
            contains: ["connection refused by 127.0.0.99:443 (for example.test)", "is the server running"]
        )
    }
}
