import Crypto
import Foundation
import IPACheckBinary
import IPACheckGate
import IPACheckPlist
import IPACheckReport
import IPACheckTestSupport
import Testing

@testable import IPACheckBundle
@testable import IPACheckSigning

/// The seal compared with the archive as it streams past (``SealScan/ResourceComparison``) judges exactly as the
/// seal read whole and compared from its entries does: over seals in and out of order, with paths listed twice,
/// missing, optional, SHA-1 only, wrong, and files the seal does not list.
struct SealComparisonTests {
    static let app = "Payload/App.app"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// One entry of a crafted seal.
    struct Entry {
        let path: String
        let bytes: [UInt8]
        var sha1Only = false
        var optional = false
    }

    /// A CodeResources listing `entries` in the order given (codesign sorts them; a crafted seal need not), in
    /// `dictionaries` files2 dictionaries (the later replaces the earlier, as a dictionary's repeated key does),
    /// cut short after `truncatedAfter` bytes when given.
    static func codeResources(_ dictionaries: [[Entry]], truncatedAfter: Int? = nil) -> [UInt8] {
        func base64(_ bytes: some Sequence<UInt8>) -> String { Data(Array(bytes)).base64EncodedString() }
        var document = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>"#
        for entries in dictionaries {
            document += "<key>files2</key><dict>"
            for entry in entries {
                document += "<key>\(entry.path)</key><dict><key>hash</key>"
                document += "<data>\(base64(Insecure.SHA1.hash(data: entry.bytes)))</data>"
                if !entry.sha1Only {
                    document += "<key>hash2</key><data>\(base64(SHA256.hash(data: entry.bytes)))</data>"
                }
                if entry.optional { document += "<key>optional</key><true/>" }
                document += "</dict>"
            }
            document += "</dict>"
        }
        document += "<key>rules2</key><dict><key>^Info\\.plist$</key><dict><key>omit</key><true/></dict></dict>"
        document += "</dict></plist>"
        let bytes = Array(document.utf8)
        return truncatedAfter.map { Array(bytes.prefix($0)) } ?? bytes
    }

    /// An app holding `files` and sealed by `seal`.
    static func app(files: [String: [UInt8]], seal: [UInt8]) throws -> IPAFile {
        let info = PlistFixture.info(["CFBundleIdentifier": "com.example.app", "CFBundleExecutable": "App"])
        var signing = MachOBuilder.Signing()
        signing.infoPlist = info
        signing.codeResources = seal
        var zip = ZipBuilder()
        zip.add("\(app)/Info.plist", info)
        zip.add("\(app)/App", MachOBuilder.slice(signing: signing))
        zip.add("\(app)/_CodeSignature/CodeResources", seal)
        for (name, bytes) in files.sorted(by: { $0.key < $1.key }) { zip.add("\(app)/\(name)", bytes) }
        return try IPAFile(path: try zip.write())
    }

    /// The seal read whole and compared from its entries, each file's digests taken from its bytes.
    static func wholeReading(_ ipa: IPAFile, seal: [UInt8]) throws -> ResourceSealCheck {
        let prefix = app + "/"
        return try ResourceSeal.parse(seal).check(
            bundleFiles: ipa.bundleFiles(of: ipa.mainApp).map { (path: $0, isListedFile: false) },
            streamed: nil,
            exists: { ipa.contains(prefix + $0) },
            digests: { path in (try? ipa.read(prefix + path)).map { FileDigests(of: $0) } },
            nestedCodeHashes: { _ in nil },
            mainExecutable: "App",
            bundle: app
        )
    }

    /// The seal as the pass compares it.
    static func streamed(_ ipa: IPAFile, threads: Int) throws -> ResourceSealCheck? {
        let scan = try SealScan.scan(ipa, depth: .everything, threads: threads, bytesPerThread: 1)
        return scan.verify(ipa: ipa, now: now).first?.resources
    }

    @Test("the streamed comparison judges every generated seal as the whole reading does", arguments: [1, 3])
    func streamedMatchesWholeReading(threads: Int) throws {
        var state: UInt64 = 2_026
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        let pool = (0..<12).map { "r\($0).png" } + ["sub/a.png", "sub/b.png", "é.png", "e\u{301}.png", "Z.png"]
        var verdicts = Set<String>()
        for round in 0..<240 {
            var files: [String: [UInt8]] = [:]
            for path in pool where next(4) != 0 { files[path] = [UInt8(truncatingIfNeeded: round), UInt8(path.count)] }
            // A third of the seals list every file, so that nothing is added.
            var entries = next(3) == 0 ? files.keys.sorted().map { Entry(path: $0, bytes: files[$0] ?? []) } : []
            for _ in 0..<next(entries.isEmpty ? 20 : 6) {
                let path = pool[next(pool.count)]
                let real = files[path] ?? [9]
                entries.append(
                    Entry(
                        path: path,
                        bytes: next(5) == 0 ? real + [1] : real,
                        sha1Only: next(6) == 0,
                        optional: next(5) == 0
                    )
                )
            }
            // Half the seals sorted and unique, as codesign writes them; the others as generated.
            if round % 2 == 0 {
                var seen = Set<String>()
                entries = entries.filter { seen.insert($0.path).inserted }.sorted { $0.path < $1.path }
            }
            let dictionaries = next(8) == 0 ? [Array(entries.prefix(3)), entries] : [entries]
            let seal = Self.codeResources(dictionaries)
            let ipa = try Self.app(files: files, seal: seal)
            let whole = try Self.wholeReading(ipa, seal: seal)
            let streamed = try #require(try Self.streamed(ipa, threads: threads))
            #expect(streamed == whole, "round \(round)")
            verdicts.insert("\(whole.modified.isEmpty)\(whole.missing.isEmpty)\(whole.added.isEmpty)")
        }
        // The rounds reach every combination of modified, missing and added files.
        #expect(verdicts.count == 8, "\(verdicts)")
    }

    /// A path listed twice out of order is judged by its later entry, as a dictionary keeps it: a wrong hash
    /// followed by the right one holds; the right one followed by a wrong one is a modified file.
    @Test("a path listed twice is judged by its later entry", arguments: [true, false])
    func laterEntryOfARepeatedPathIsJudged(rightHashLast: Bool) throws {
        let right = Entry(path: "a.png", bytes: [1, 2, 3])
        let wrong = Entry(path: "a.png", bytes: [0])
        let other = Entry(path: "b.png", bytes: [4])
        let seal = Self.codeResources([[other] + (rightHashLast ? [wrong, right] : [right, wrong])])
        let ipa = try Self.app(files: ["a.png": [1, 2, 3], "b.png": [4]], seal: seal)
        let check = try #require(try Self.streamed(ipa, threads: 2))
        #expect(check.modified == (rightHashLast ? [] : ["a.png"]))
        #expect(check.checkedCount == 2)
    }

    /// A path listed as a file and as nested code is one entry, the later, as a dictionary keeps it: nested code
    /// listed after a file with a wrong hash leaves nothing modified; the file listed after it is a modified file.
    @Test("a path listed as a file and as nested code is judged by the later entry", arguments: [true, false])
    func fileAndNestedCodeOfOnePath(nestedCodeLast: Bool) throws {
        func base64(_ bytes: some Sequence<UInt8>) -> String { Data(Array(bytes)).base64EncodedString() }
        let file =
            "<key>a.png</key><dict><key>hash2</key><data>\(base64(SHA256.hash(data: [0] as [UInt8])))</data></dict>"
        let nested =
            "<key>a.png</key><dict><key>cdhash</key><data>\(base64([UInt8](repeating: 7, count: 20)))</data>"
            + "<key>requirement</key><string>identifier x</string></dict>"
        let entries = nestedCodeLast ? file + nested : nested + file
        let seal = Array(
            (#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>files2</key><dict>"#
                + entries + "</dict></dict></plist>").utf8
        )
        let ipa = try Self.app(files: ["a.png": [1, 2, 3]], seal: seal)
        let check = try #require(try Self.streamed(ipa, threads: 2))
        #expect(check == (try Self.wholeReading(ipa, seal: seal)))
        #expect(check.modified == (nestedCodeLast ? [] : ["a.png"]))
    }

    /// A seal that cannot be read to its end judges nothing: files it handed out before the damage neither count
    /// as compared nor raise findings, and the bundle gets SIG035 alone.
    @Test("a seal cut short raises SIG035 and nothing for the files it listed before the cut")
    func sealCutShortJudgesNothing() throws {
        let entries = (0..<40).map { Entry(path: String(format: "f%02d.png", $0), bytes: [9]) }
        let whole = Self.codeResources([entries])
        let seal = Self.codeResources([entries], truncatedAfter: whole.count * 3 / 4)
        let ipa = try Self.app(
            files: Dictionary(uniqueKeysWithValues: entries.map { ($0.path, [UInt8]([1])) }),
            seal: seal
        )
        let scan = try SealScan.scan(ipa, depth: .everything, threads: 2, bytesPerThread: 1)
        let checks = scan.verify(ipa: ipa, now: Self.now)
        let rules = Set((scan.findings + checks.flatMap(\.findings)).map(\.rule))
        #expect(rules.contains("SIG035"))
        #expect(!rules.contains("SIG030") && !rules.contains("ARC011"))
        #expect(checks.first?.resources == nil)
    }

    /// A pull that gives `bytes` in one piece, then the end.
    static func pull(_ bytes: [UInt8]) -> () -> XMLPlistInput.PullResult {
        var left: [UInt8]? = bytes
        return {
            defer { left = nil }
            return .bytes(left ?? [])
        }
    }

    /// The seal reader hands out file entries in the order it reads them, keeps only nested code and links, and a
    /// path that does not follow the one before is declined: the caller then reads the seal whole.
    @Test("the streaming parse hands out files in order and keeps only the other entries")
    func streamingParseHandsOutFiles() throws {
        let seal = SealScanTests.codeResources(files: ["a": [1], "b": [2]], nested: ["Frameworks/K.framework": [7]])
        var handed: [String] = []
        let parsed = try ResourceSeal.parseXML(
            pulling: { Self.pull(seal) },
            maximumEntries: 10,
            maximumBytes: 1 << 20
        ) { path, _ in
            handed.append(path)
            return path != "b"
        }
        #expect(handed == ["a", "b"])
        guard case .needsWholeRead = parsed else {
            Issue.record("a declined entry asks for a whole read")
            return
        }
        let accepted = try ResourceSeal.parseXML(
            pulling: { Self.pull(seal) },
            maximumEntries: 10,
            maximumBytes: 1 << 20
        ) { _, _ in true }
        guard case .parsed(let kept) = accepted else {
            Issue.record("every entry accepted gives the seal")
            return
        }
        #expect(kept.entries.map(\.path) == ["Frameworks/K.framework"])
    }
}
