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

/// The single streaming pass (``SealScan``) and the seal checks it feeds: each rule that only the pass can raise
/// fires on a build made to break it and stays quiet on one that does not.
struct SealScanTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let app = "Payload/App.app"

    /// `files2` entries for `files` (SHA-1 and SHA-256) and nested code entries, with Xcode's omit rules.
    static func codeResources(files: [String: [UInt8]], nested: [String: [UInt8]] = [:]) -> [UInt8] {
        func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
        var entries = ""
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
            entries += "<key>\(path)</key><dict><key>hash</key><data>\(base64(Array(Insecure.SHA1.hash(data: bytes))))"
            entries += "</data><key>hash2</key><data>\(base64(Array(SHA256.hash(data: bytes))))</data></dict>"
        }
        for (path, cdhash) in nested.sorted(by: { $0.key < $1.key }) {
            entries += "<key>\(path)</key><dict><key>cdhash</key><data>\(base64(cdhash))</data>"
            entries += "<key>requirement</key><string>identifier x</string></dict>"
        }
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>files2</key><dict>\(entries)</dict>
            <key>rules2</key><dict><key>^Info\\.plist$</key><dict><key>omit</key><true/></dict></dict>
            </dict></plist>
            """
        return Array(document.utf8)
    }

    /// An app whose executable seals its Info.plist and this CodeResources, with `extra` members beside it.
    static func sealedApp(
        resources: [String: [UInt8]] = [:],
        nested: [String: [UInt8]] = [:],
        extra: [(String, [UInt8])] = [],
        modified: String? = nil,
        corruptCRC: String? = nil,
        signing change: (inout MachOBuilder.Signing) -> Void = { _ in }
    ) throws -> IPAFile {
        let info = PlistFixture.info(["CFBundleIdentifier": "com.example.app", "CFBundleExecutable": "App"])
        let seal = codeResources(files: resources, nested: nested)
        var signing = MachOBuilder.Signing()
        signing.infoPlist = info
        signing.codeResources = seal
        change(&signing)
        var zip = ZipBuilder()
        zip.add("\(app)/Info.plist", info)
        zip.add("\(app)/App", MachOBuilder.slice(signing: signing))
        zip.add("\(app)/_CodeSignature/CodeResources", seal)
        for (name, bytes) in resources.sorted(by: { $0.key < $1.key }) {
            // A modified file: one byte more than the seal's hash covers.
            zip.add("\(app)/\(name)", name == modified ? bytes + [0xFF] : bytes, corruptCRC: name == corruptCRC)
        }
        for (name, bytes) in extra { zip.add("\(app)/\(name)", bytes) }
        return try IPAFile(path: try zip.write())
    }

    static func verify(_ ipa: IPAFile) throws -> [Finding] {
        let scan = try SealScan.scan(ipa, depth: .everything)
        return scan.findings + scan.verify(ipa: ipa, now: now).flatMap(\.findings)
    }

    @Test("a build whose seal holds raises none of the seal's rules")
    func genuineSealIsQuiet() throws {
        let findings = try Self.verify(try Self.sealedApp(resources: ["a.png": [1, 2, 3]]))
        #expect(findings.filter { $0.severity == .error }.isEmpty, "\(findings)")
        #expect(!findings.contains { ["SIG011", "SIG033", "SIG034", "ARC011"].contains($0.rule) })
    }

    @Test("a bundle with an executable but no _CodeSignature/CodeResources raises SIG034")
    func notSealedFires() throws {
        let info = PlistFixture.info(["CFBundleIdentifier": "com.example.app", "CFBundleExecutable": "App"])
        var zip = ZipBuilder()
        zip.add("\(Self.app)/Info.plist", info)
        zip.add("\(Self.app)/App", MachOBuilder.slice(signing: MachOBuilder.Signing()))
        let findings = try Self.verify(try IPAFile(path: try zip.write()))
        #expect(findings.filter { $0.rule == "SIG034" }.map(\.bundle) == [Self.app])
    }

    /// The seal names nested code by its CodeDirectory hash (the first 20 bytes of its SHA-256): the real hash
    /// passes, any other raises SIG033.
    @Test("nested code whose cdhash differs from the seal's raises SIG033", arguments: [true, false])
    func nestedCodeChanged(sealsTheRealHash: Bool) throws {
        let frameworkInfo = PlistFixture.info([
            "CFBundleIdentifier": "com.example.kit", "CFBundleExecutable": "Kit", "CFBundlePackageType": "FMWK",
        ])
        var frameworkSigning = MachOBuilder.Signing()
        frameworkSigning.infoPlist = frameworkInfo
        let frameworkExecutable = MachOBuilder.slice(signing: frameworkSigning)
        let directory = try #require(
            try MachOContainer.parse(frameworkExecutable).slices.first?.signature?.primaryCodeDirectory
        )
        let real = Array(SHA256.hash(data: directory.bytes).prefix(20))
        let sealed = sealsTheRealHash ? real : [UInt8](repeating: 0xAB, count: 20)
        let ipa = try Self.sealedApp(
            nested: ["Frameworks/Kit.framework": sealed],
            extra: [
                ("Frameworks/Kit.framework/Info.plist", frameworkInfo),
                ("Frameworks/Kit.framework/Kit", frameworkExecutable),
            ]
        )
        let fired = try Self.verify(ipa).filter { $0.rule == "SIG033" }
        #expect(fired.count == (sealsTheRealHash ? 0 : 1), "\(fired)")
        #expect(fired.allSatisfy { $0.location == "Frameworks/Kit.framework" && $0.bundle == Self.app })
    }

    /// A CodeDirectory with 16 KiB pages cannot be compared with the 4 KiB digests the stream takes: the pages are
    /// reported as not checked (SIG011), never as valid.
    @Test("code pages of another page size raise SIG011", arguments: [UInt8(12), UInt8(14)])
    func codePagesNotChecked(pageSizeLog2: UInt8) throws {
        let ipa = try Self.sealedApp { $0.pageSizeLog2 = pageSizeLog2 }
        let fired = try Self.verify(ipa).filter { $0.rule == "SIG011" }
        #expect(fired.count == (pageSizeLog2 == 12 ? 0 : 1), "\(fired)")
        #expect(fired.allSatisfy { $0.severity == .warning })
    }

    /// libzip reports a CRC mismatch at the end of the member: the member is damaged, and says so (ARC011).
    @Test("a sealed member that does not decompress to its end raises ARC011", arguments: [true, false])
    func damagedMember(corrupt: Bool) throws {
        let ipa = try Self.sealedApp(resources: ["a.png": [1, 2, 3]], corruptCRC: corrupt ? "a.png" : nil)
        let fired = try Self.verify(ipa).filter { $0.rule == "ARC011" }
        #expect(fired.count == (corrupt ? 1 : 0), "\(fired)")
        #expect(fired.allSatisfy { $0.location == "\(Self.app)/a.png" })
    }

    /// The pass keeps the files it is asked to keep, and compares every sealed file with its seal: a file kept is
    /// compared too.
    @Test("the pass keeps what it is asked to keep and compares every sealed file")
    func keepsAndCompares() throws {
        let ipa = try Self.sealedApp(resources: ["a.png": [1, 2, 3], "GoogleService-Info.plist": [4, 5]])
        let scan = try SealScan.scan(ipa, depth: .everything) { $0.hasSuffix("GoogleService-Info.plist") }
        #expect(scan.bytes(of: "\(Self.app)/GoogleService-Info.plist") == [4, 5])
        #expect(scan.bytes(of: "\(Self.app)/a.png") == nil)
        let resources = try #require(scan.verify(ipa: ipa, now: Self.now).first?.resources)
        #expect(resources.checkedCount == 2)
        #expect(resources.modified.isEmpty && resources.missing.isEmpty && resources.added.isEmpty)
    }

    /// Chunks that arrive wholly after the signature's start carry no code and must not mark the pages incomplete.
    ///
    /// A real 48 MiB executable has a signature larger than one 256 KiB chunk, which once made every
    /// large app's pages "not checked" (SIG011); small chunks over a small binary reproduce it.
    @Test(
        "chunks that start after the signature leave the code pages complete",
        arguments: [64, 4096, 1 << 20],
        [false, true]
    )
    func chunksAfterTheSignatureKeepPagesComplete(chunkSize: Int, universal: Bool) throws {
        var signing = MachOBuilder.Signing()
        signing.hashTypes = [1, 2]
        let thin = MachOBuilder.slice(bodySize: 20_000, signing: signing)
        let other = MachOBuilder.slice(cpuType: 0x0100_0007, bodySize: 9_000, signing: signing)
        let bytes =
            universal ? MachOBuilder.fat([(0x0100_000c, 0, thin), (0x0100_0007, 3, other)], alignLog2: 14) : thin
        let container = try MachOContainer.parse(bytes)
        var reader = ExecutableReader(fileSize: bytes.count)
        var offset = 0
        while offset < bytes.count {
            let chunk = Array(bytes[offset..<min(offset + chunkSize, bytes.count)])
            reader.consume(chunk, count: chunk.count)
            offset += chunk.count
        }
        let pages = try reader.finish().get().pages
        #expect(pages.count == container.slices.count)
        for slice in container.slices {
            let limit = try #require(slice.loadCommands.codeSignatureRange?.lowerBound)
            #expect(slice.range.count - limit > 64, "the signature spans more than one small chunk")
            let taken = try #require(pages.first { $0.slice == slice.range })
            #expect(taken.hashedLength == limit)
            #expect(taken == CodePageDigests(bytes: bytes[slice.range], slice: slice.range, codeLimit: limit))
        }
    }

    /// Threads split the members by declared size, largest first into the lightest share; each share keeps archive
    /// order, every member lands in exactly one, and a small whole stays on one thread.
    @Test("the pass splits members into balanced shares in archive order")
    func splitsIntoBalancedShares() {
        let sizes = [100, 1, 60, 50, 1]
        let order = [0, 1, 2, 3, 4]
        let shares = SealScan.split(order, into: 2, bytesPerShare: 10) { sizes[$0] }
        #expect(shares == [[0, 1, 4], [2, 3]])
        #expect(SealScan.split(order, into: 2, bytesPerShare: 1000) { sizes[$0] } == [order])
        #expect(SealScan.split(order, into: 8, bytesPerShare: 1) { sizes[$0] }.count == 5)
        #expect(SealScan.split([], into: 4, bytesPerShare: 1) { _ in 0 } == [[]])
        #expect(SealScan.split([7, 9], into: 2, bytesPerShare: 1) { _ in Int.max }.count == 2)
    }

    /// The threaded pass reads what the single-threaded one reads: the same digests, kept bytes, executable
    /// pages and findings, on a build with an unsealed and a damaged member.
    @Test("several threads take exactly what one thread takes")
    func threadsTakeWhatOneThreadTakes() throws {
        var resources: [String: [UInt8]] = [:]
        for index in 0..<24 { resources["r\(index).png"] = [UInt8](repeating: UInt8(index), count: 1000 * index) }
        let ipa = try Self.sealedApp(
            resources: resources,
            extra: [("r3.png.note", [1])],
            corruptCRC: "r7.png"
        )
        let keep: (String) -> Bool = { $0.hasSuffix("r5.png") }
        let one = try SealScan.scan(ipa, depth: .everything, keep: keep, threads: 1)
        let three = try SealScan.scan(ipa, depth: .everything, keep: keep, threads: 3, bytesPerThread: 1)
        #expect(one.findings == three.findings)
        #expect(one.findings.map(\.rule) == ["ARC011"])
        let compared = { (scan: SealScan) in scan.verify(ipa: ipa, now: Self.now).map(\.resources) }
        #expect(compared(one) == compared(three))
        #expect(compared(three).first??.checkedCount == resources.count - 1)
        #expect(three.bytes(of: "\(Self.app)/r5.png") == resources["r5.png"])
        let pages = { (scan: SealScan) in try scan.bundles.first?.executable?.get().pages }
        #expect(try pages(one) == pages(three))
        #expect(
            one.verify(ipa: ipa, now: Self.now).flatMap(\.findings)
                == three.verify(ipa: ipa, now: Self.now).flatMap(\.findings)
        )
    }

    /// Sealed files hashed two at a time (``SHA256Lanes``) give what hashing them one at a time gives: every
    /// length around SHA-256's blocks and the lanes' chunks, an empty file, a modified one and a damaged member.
    @Test(
        "hashing sealed files side by side takes exactly what hashing them one at a time takes",
        .enabled(if: SHA256Lanes.isAvailable, "this CPU has no SHA extensions: files are hashed one at a time")
    )
    func sideBySideTakesWhatOneAtATimeTakes() throws {
        var resources: [String: [UInt8]] = [:]
        let lengths = [0, 1, 55, 56, 63, 64, 65, 4096, 131_071, 131_072, 131_073, 300_000]
        for (index, length) in lengths.enumerated() {
            resources["r\(index).dat"] = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
        }
        let ipa = try Self.sealedApp(resources: resources, modified: "r4.dat", corruptCRC: "r9.dat")
        let scans = try [false, true].map { sideBySide in
            try SealScan.scan(ipa, depth: .everything, threads: 2, bytesPerThread: 1, sideBySide: sideBySide)
        }
        let resourceChecks = scans.map { $0.verify(ipa: ipa, now: Self.now).map(\.resources) }
        #expect(resourceChecks[0] == resourceChecks[1])
        let check = try #require(resourceChecks[1].first ?? nil)
        #expect(check.modified == ["r4.dat"])
        #expect(check.unreadable == ["r9.dat"])
        #expect(check.checkedCount == lengths.count - 1)
        #expect(scans[0].findings == scans[1].findings)
        #expect(scans[1].findings.map(\.rule) == ["ARC011"])
    }

    /// The main executable starts streaming before the seals are read; a seal that also lists it (no codesign writes
    /// one, a crafted build can) has it compared like any sealed file, and nothing of the early reading is lost.
    @Test(
        "a seal listing the main executable still has it compared when the executable streams early",
        arguments: [true, false]
    )
    func sealListingTheMainExecutableHasItCompared(sealsTheRealHash: Bool) throws {
        let info = PlistFixture.info(["CFBundleIdentifier": "com.example.app", "CFBundleExecutable": "App"])
        let executable = MachOBuilder.slice(signing: MachOBuilder.Signing())
        let sealed = sealsTheRealHash ? executable : executable + [0]
        let seal = Self.codeResources(files: ["App": sealed, "a.png": [1, 2, 3]])
        var zip = ZipBuilder()
        zip.add("\(Self.app)/Info.plist", info)
        zip.add("\(Self.app)/App", executable)
        zip.add("\(Self.app)/_CodeSignature/CodeResources", seal)
        zip.add("\(Self.app)/a.png", [1, 2, 3])
        let ipa = try IPAFile(path: try zip.write())
        let one = try SealScan.scan(ipa, depth: .everything, threads: 1)
        let two = try SealScan.scan(ipa, depth: .everything, threads: 2, bytesPerThread: 1)
        let resources = try #require(two.verify(ipa: ipa, now: Self.now).first?.resources)
        #expect(resources.checkedCount == 2)
        #expect(resources.modified == (sealsTheRealHash ? [] : ["App"]))
        let pages = { (scan: SealScan) in try scan.bundles.first?.executable?.get().pages }
        #expect(try pages(two) != nil)
        #expect(try pages(one) == pages(two))
        #expect(
            one.verify(ipa: ipa, now: Self.now).flatMap(\.findings)
                == two.verify(ipa: ipa, now: Self.now).flatMap(\.findings)
        )
    }

    /// appinfo's embedded.ipa: the app's CodeResources lists the extension's files one by one (every hash
    /// matches, per python3 hashlib): nothing is missing or modified.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func sealListingANestedExtensionsFilesHolds() throws {
        let ipa = try IPAFile(path: Corpus.url("ipa/appinfo_embedded_universal.ipa").path)
        let checks = try SealScan.scan(ipa, depth: .everything).verify(ipa: ipa, now: Self.now)
        #expect(checks.count == 2)
        #expect(checks.allSatisfy { $0.isValid })
        let main = try #require(checks.first)
        #expect(main.resources?.missing.isEmpty == true)
        #expect(main.resources?.checkedCount == 11)
    }
}
