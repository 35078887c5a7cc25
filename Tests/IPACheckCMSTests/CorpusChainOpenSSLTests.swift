import Foundation
import IPACheckTestSupport
import SwiftASN1
import Testing
import X509

@testable import IPACheckCMS

/// The chain verdict on every signer in the shared corpus equals what an independent implementation decides:
/// `openssl verify -CAfile <Apple's four pinned roots> -untrusted <the message's certificates> -attime <CMS signing
/// time> <signer>` (the time of the test when the message states no signing time).
///
/// Covers every signed Mach-O in `macho/`, every signed Mach-O and profile inside the archives of `ipa/` (read with
/// python3's zipfile) and every CMS profile in `mobileprovision/`. openssl runs in this test only, never in the
/// product. It is given `-ignore_critical` because it does not know Apple's marker extensions, which ipacheck
/// understands by policy. Messages name corpus files and fingerprints only, never a certificate's subject (real
/// certificates name people).
@Suite(
    .enabled(if: Corpus.isAvailable, "\(Corpus.absentReason)"),
    .enabled(if: OpenSSL.isAvailable, "openssl is not installed: the reference verdicts cannot be computed"),
    .enabled(if: Python.isAvailable, "python3 is not installed: the archives' members cannot be read")
)
struct CorpusChainOpenSSLTests {
    /// One CMS message of the corpus.
    struct Message {
        /// `macho/appinfo_FMDB.framework_bin (slice 1)`.
        let label: String
        let bytes: [UInt8]
        let purpose: AppleTrust.Purpose
    }

    /// What a verdict amounts to, in the terms both implementations can state.
    enum Outcome: String {
        case trusted
        case expired
        case notChaining = "not chaining"
        case invalid
    }

    /// Both implementations judge every message the same way, with the message's certificates only and with
    /// Apple's shipped intermediates added to them; and no genuine Apple signer is reported as not chaining.
    @Test("ipacheck's chain verdicts on the corpus equal openssl verify's")
    func verdictsEqualOpenSSL() async throws {
        let messages = try Self.corpusMessages()
        #expect(messages.count >= 60, "only \(messages.count) signed messages found in the corpus")
        let now = Date()
        let work = Scratch.folder.appendingPathComponent("ipacheck-chains-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let roots = work.appendingPathComponent("roots.pem")
        try Data(AppleRootCertificates.certificates.map(Self.pem).joined().utf8).write(to: roots)
        let shipped = AppleIntermediateCertificates.certificates.map(Self.pem).joined()

        var tally: [String: [Outcome: Int]] = ["message only": [:], "with shipped": [:]]
        for (index, message) in messages.enumerated() {
            let blob = work.appendingPathComponent("\(index).p7")
            try Data(message.bytes).write(to: blob)
            let reference = try OpenSSL.signer(of: blob)
            let parsed = try CMSSignedData.parse(message.bytes)
            let signerInfo = try #require(parsed.signers.first, "\(message.label): no signer")
            let verification = parsed.verify(signer: signerInfo)
            let signer = try #require(verification.signerCertificate, "\(message.label): signer not carried")
            let signingTime = signerInfo.signedAttributes?.signingTime
            #expect(
                AppleRootCertificates.fingerprint(signer) == reference.fingerprint,
                "\(message.label): ipacheck and openssl pick different signers"
            )
            let readTime = signingTime.map { Int($0.timeIntervalSince1970) }
            let referenceTime = reference.signingTime.map(Int.init)
            #expect(readTime == referenceTime, "\(message.label): the signing times ipacheck and openssl read differ")
            let time: AppleTrust.JudgementTime = signingTime.map { .signingTime($0) } ?? .now(now)
            let leaf = work.appendingPathComponent("\(index)-leaf.pem")
            try Data(reference.signerPEM.utf8).write(to: leaf)
            for (variant, extra, candidates) in [
                ("message only", "", [Certificate]()),
                ("with shipped", shipped, AppleIntermediateCertificates.certificates),
            ] {
                let untrusted = work.appendingPathComponent("\(index)-\(variant.prefix(4)).pem")
                try Data((reference.certificatesPEM + extra).utf8).write(to: untrusted)
                let expected = try OpenSSL.verify(leaf: leaf, untrusted: untrusted, roots: roots, at: time.date)
                let verdict = await AppleTrust.evaluate(
                    signer: signer,
                    intermediates: verification.messageCertificates,
                    at: time,
                    purpose: message.purpose,
                    roots: AppleRootCertificates.certificates,
                    shipped: candidates
                )
                let actual = Self.outcome(verdict)
                let words =
                    "\(message.label) (\(variant), judged \(time.words)): ipacheck \(actual.rawValue), "
                    + "openssl \(expected.outcome.rawValue) [\(expected.errors)]"
                #expect(actual == expected.outcome, "\(words)")
                tally[variant, default: [:]][actual, default: 0] += 1
            }
        }
        for (variant, counts) in tally.sorted(by: { $0.key < $1.key }) {
            let parts = [Outcome.trusted, .expired, .notChaining, .invalid].map { "\(counts[$0] ?? 0) \($0.rawValue)" }
            print("corpus chains (\(variant)): \(messages.count) messages: " + parts.joined(separator: ", "))
        }
    }

    /// The issue's cases: Apple Distribution signatures of 2021 (leaf → WWDR → Apple Root CA, all carried) chain.
    @Test(
        "genuine Apple Distribution signatures chain to Apple Root CA",
        arguments: [
            "macho/appinfo_FMDB.framework_bin", "macho/appinfo_NotificationService.appex_exec",
            "macho/appinfo_libswiftPhotos.dylib",
        ]
    )
    func appleDistributionChains(file: String) async throws {
        let messages = try MachOSignatures.cms(in: Corpus.bytes(file))
        #expect(!messages.isEmpty)
        for bytes in messages {
            let parsed = try CMSSignedData.parse(bytes)
            let signerInfo = try #require(parsed.signers.first)
            let verification = parsed.verify(signer: signerInfo)
            let time = try #require(signerInfo.signedAttributes?.signingTime)
            let verdict = await AppleTrust.evaluate(
                signer: try #require(verification.signerCertificate),
                intermediates: verification.messageCertificates,
                at: .signingTime(time),
                purpose: .codeSigning
            )
            guard case .trusted(let chain) = verdict else {
                Issue.record("\(file): \(Self.outcome(verdict).rawValue)")
                continue
            }
            #expect(
                chain.dropFirst() == ["Apple Worldwide Developer Relations Certification Authority", "Apple Root CA"]
            )
            // Without the intermediate the signature carries, the shipped WWDR CA completes the chain.
            let alone = await AppleTrust.evaluate(
                signer: try #require(verification.signerCertificate),
                intermediates: [],
                at: .signingTime(time),
                purpose: .codeSigning
            )
            #expect(alone == verdict, "\(file): judged without its intermediate")
        }
    }

    /// A 2015 iPhone Developer signature judged today (as if it stated no signing time) is expired, not "no chain":
    /// its leaf and every same-key generation of the WWDR CA have expired, though the chain itself holds.
    @Test("an old developer signature judged now is reported expired, naming the certificate and the time judged")
    func oldSignatureJudgedNowIsExpired() async throws {
        let bytes = try #require(try MachOSignatures.cms(in: Corpus.bytes("macho/isign_Test.app_isignTestApp")).first)
        let parsed = try CMSSignedData.parse(bytes)
        let signerInfo = try #require(parsed.signers.first)
        let verification = parsed.verify(signer: signerInfo)
        let now = Date()
        let verdict = await AppleTrust.evaluate(
            signer: try #require(verification.signerCertificate),
            intermediates: verification.messageCertificates,
            at: .now(now),
            purpose: .codeSigning
        )
        guard case .expired(let expiry) = verdict else {
            Issue.record("expected expired, got \(Self.outcome(verdict).rawValue)")
            return
        }
        #expect(expiry.lapses.first?.isSigner == true)
        #expect(expiry.chain.last == "Apple Root CA")
        #expect(expiry.reason.contains(" expired on 2016-12-08T18:10:41Z"))
        #expect(
            expiry.reason.hasSuffix("judged now, \(AppleTrust.timestamp(now)), as the signature states no signing time")
        )
        for dump in ["RFC5280Policy", "Certificate(", "serialNumber"] { #expect(!expiry.reason.contains(dump)) }
        // At its signing time (2015-12-17) the same chain holds.
        let signed = try #require(signerInfo.signedAttributes?.signingTime)
        #expect(
            await AppleTrust.evaluate(
                signer: try #require(verification.signerCertificate),
                intermediates: verification.messageCertificates,
                at: .signingTime(signed),
                purpose: .codeSigning
            ).isTrusted
        )
    }

    // MARK: Helpers

    static func outcome(_ verdict: AppleTrust.Verdict) -> Outcome {
        switch verdict {
        case .trusted: return .trusted
        case .expired: return .expired
        case .untrusted: return .notChaining
        case .invalidChain: return .invalid
        }
    }

    static func pem(_ certificate: Certificate) -> String {
        (try? certificate.serializeAsPEM().pemString).map { $0 + "\n" } ?? ""
    }

    /// Every CMS message of the corpus, labelled by file (and slice or member).
    static func corpusMessages() throws -> [Message] {
        var messages: [Message] = []
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: Corpus.url("macho").path).sorted() {
            let bytes = try Corpus.bytes("macho/\(name)")
            for (slice, cms) in try MachOSignatures.cms(in: bytes).enumerated() {
                messages.append(Message(label: "macho/\(name) (slice \(slice))", bytes: cms, purpose: .codeSigning))
            }
        }
        for name in try manager.contentsOfDirectory(atPath: Corpus.url("mobileprovision").path).sorted() {
            let bytes = try Corpus.bytes("mobileprovision/\(name)")
            guard bytes.first == 0x30 else { continue }  // a CMS message; the rest are plists or empty
            messages.append(Message(label: "mobileprovision/\(name)", bytes: bytes, purpose: .content))
        }
        for (label, bytes) in try ArchiveMembers.signed(in: Corpus.url("ipa")) {
            if MachOSignatures.isMachO(bytes) {
                for (slice, cms) in try MachOSignatures.cms(in: bytes).enumerated() {
                    messages.append(Message(label: "\(label) (slice \(slice))", bytes: cms, purpose: .codeSigning))
                }
            } else if bytes.first == 0x30 {
                messages.append(Message(label: label, bytes: bytes, purpose: .content))
            }
        }
        return messages
    }
}

/// The CMS messages of a Mach-O's code signatures, read here independently of ipacheck's own Mach-O parser.
enum MachOSignatures {
    /// Whether `bytes` start with a Mach-O or fat magic.
    static func isMachO(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        return [
            [0xca, 0xfe, 0xba, 0xbe], [0xca, 0xfe, 0xba, 0xbf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe],
        ]
        .contains(Array(bytes.prefix(4)))
    }

    /// The non-empty CMS blob (`0xfade0b01`, slot `0x10000`) of every slice, in slice order.
    static func cms(in bytes: [UInt8]) throws -> [[UInt8]] {
        let magic = Array(bytes.prefix(4))
        if magic == [0xca, 0xfe, 0xba, 0xbe] || magic == [0xca, 0xfe, 0xba, 0xbf] {
            let wide = magic[3] == 0xbf
            let count = Int(try be32(bytes, 4))
            guard count <= 32 else { return [] }
            var result: [[UInt8]] = []
            for index in 0..<count {
                let entry = 8 + index * (wide ? 32 : 20)
                let offset = wide ? Int(try be64(bytes, entry + 8)) : Int(try be32(bytes, entry + 8))
                let size = wide ? Int(try be64(bytes, entry + 16)) : Int(try be32(bytes, entry + 12))
                guard offset >= 0, size >= 0, offset + size <= bytes.count else { continue }
                result += try cms(in: Array(bytes[offset..<(offset + size)]))
            }
            return result
        }
        guard magic == [0xce, 0xfa, 0xed, 0xfe] || magic == [0xcf, 0xfa, 0xed, 0xfe] else { return [] }
        let commands = Int(try le32(bytes, 16))
        var cursor = magic[0] == 0xcf ? 32 : 28
        for _ in 0..<commands {
            let command = try le32(bytes, cursor)
            let size = Int(try le32(bytes, cursor + 4))
            if command == 0x1d {
                let offset = Int(try le32(bytes, cursor + 8))
                let length = Int(try le32(bytes, cursor + 12))
                guard offset + length <= bytes.count else { return [] }
                return try superBlobCMS(Array(bytes[offset..<(offset + length)])).map { [$0] } ?? []
            }
            guard size > 0 else { return [] }
            cursor += size
        }
        return []
    }

    private static func superBlobCMS(_ blob: [UInt8]) throws -> [UInt8]? {
        guard try be32(blob, 0) == 0xfade_0cc0 else { return nil }
        for index in 0..<Int(try be32(blob, 8)) {
            let type = try be32(blob, 12 + index * 8)
            let offset = Int(try be32(blob, 16 + index * 8))
            guard type == 0x10000, try be32(blob, offset) == 0xfade_0b01 else { continue }
            let length = Int(try be32(blob, offset + 4))
            guard length > 8, offset + length <= blob.count else { return nil }
            return Array(blob[(offset + 8)..<(offset + length)])
        }
        return nil
    }

    struct Truncated: Error {}

    private static func be32(_ bytes: [UInt8], _ at: Int) throws -> UInt32 {
        guard at >= 0, at + 4 <= bytes.count else { throw Truncated() }
        return bytes[at..<(at + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func be64(_ bytes: [UInt8], _ at: Int) throws -> UInt64 {
        guard at >= 0, at + 8 <= bytes.count else { throw Truncated() }
        return bytes[at..<(at + 8)].reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func le32(_ bytes: [UInt8], _ at: Int) throws -> UInt32 {
        guard at >= 0, at + 4 <= bytes.count else { throw Truncated() }
        return bytes[at..<(at + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// The Mach-O and profile members of the corpus's archives, read with python3's zipfile.
enum ArchiveMembers {
    private static let script = #"""
        import os, sys, zipfile
        folder, out = sys.argv[1], sys.argv[2]
        count = 0
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if not zipfile.is_zipfile(path):
                continue
            with zipfile.ZipFile(path) as archive:
                for member in archive.namelist():
                    if member.endswith("/") or member.startswith("__MACOSX/"):
                        continue
                    data = archive.read(member)
                    macho = data[:4] in (b"\xca\xfe\xba\xbe", b"\xca\xfe\xba\xbf", b"\xce\xfa\xed\xfe", b"\xcf\xfa\xed\xfe")
                    profile = member.endswith((".mobileprovision", ".provisionprofile")) and data[:1] == b"\x30"
                    if macho or profile:
                        with open(os.path.join(out, str(count)), "wb") as f:
                            f.write(data)
                        print(f"{count}\tipa/{name}::{member}")
                        count += 1
        """#

    /// `(ipa/<archive>::<member>, bytes)` for every signed Mach-O and CMS profile member.
    static func signed(in folder: URL) throws -> [(String, [UInt8])] {
        let out = Scratch.folder.appendingPathComponent("ipacheck-members-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let (status, output) = try Python.run(script: script, arguments: [folder.path, out.path])
        guard status == 0 else { throw OpenSSL.Failure(output: output) }
        return try output.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            let bytes = Array(try Data(contentsOf: out.appendingPathComponent(fields[0])))
            return (fields[1], bytes)
        }
    }
}

/// The reference implementation: the openssl command line.
enum OpenSSL {
    struct Failure: Error, CustomStringConvertible {
        let output: String
        var description: String { output }
    }

    /// What openssl says about a message's signer.
    struct Signer {
        let signerPEM: String
        let certificatesPEM: String
        let fingerprint: String
        let signingTime: TimeInterval?
    }

    /// Whether `openssl version` runs.
    static let isAvailable: Bool = (try? run(["version"]))?.status == 0

    /// Runs `openssl arguments...`; returns its exit status and combined output.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ProcessRunner.run(program: "openssl", arguments, errors: .merged)
        return (result.status, result.output)
    }

    /// The certificates of the CMS message in `blob`, its (first) signer's certificate, matched by the serial
    /// number its SignerInfo names, and its signing time.
    static func signer(of blob: URL) throws -> Signer {
        let certificates = try run(["pkcs7", "-inform", "DER", "-in", blob.path, "-print_certs"])
        guard certificates.status == 0 else { throw Failure(output: certificates.output) }
        let printed = try run(["cms", "-inform", "DER", "-in", blob.path, "-cmsout", "-print"])
        guard printed.status == 0, let infos = printed.output.range(of: "signerInfos:") else {
            throw Failure(output: printed.output)
        }
        let signerInfo = String(printed.output[infos.upperBound...])
        let serial = try #require(firstMatch(#"serialNumber: (-?(?:0x)?[0-9A-Fa-f]+)"#, in: signerInfo))
        var signingTime: TimeInterval?
        if let text = firstMatch(
            #"signingTime[^\n]*\n\s*set:\s*\n\s*(?:UTCTIME|GENERALIZEDTIME):([^\n]+)"#,
            in: signerInfo
        ) {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "MMM d HH:mm:ss yyyy zzz"
            let normalized = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            signingTime = try #require(formatter.date(from: normalized), "unreadable time \(text)")
                .timeIntervalSince1970
        }
        let pems = pemBlocks(certificates.output)
        for pem in pems {
            let details = try run(["x509", "-noout", "-serial", "-fingerprint", "-sha256"], input: pem)
            guard let hex = firstMatch(#"serial=([0-9A-Fa-f]+)"#, in: details.output),
                let fingerprint = firstMatch(#"Fingerprint=([0-9A-Fa-f:]+)"#, in: details.output)
            else { continue }
            if sameNumber(hex: hex, printed: serial) {
                return Signer(
                    signerPEM: pem,
                    certificatesPEM: pems.joined(),
                    fingerprint: fingerprint.replacingOccurrences(of: ":", with: "").uppercased(),
                    signingTime: signingTime
                )
            }
        }
        throw Failure(output: "no certificate with the signer's serial number")
    }

    /// openssl's verdict on `leaf` with `untrusted` as candidates and `roots` as the only anchors, at `time`.
    static func verify(
        leaf: URL,
        untrusted: URL,
        roots: URL,
        at time: Date
    ) throws
        -> (outcome: CorpusChainOpenSSLTests.Outcome, errors: String)
    {
        let result = try run([
            "verify", "-ignore_critical", "-CAfile", roots.path, "-untrusted", untrusted.path,
            "-attime", String(Int(time.timeIntervalSince1970)), leaf.path,
        ])
        if result.status == 0 { return (.trusted, "OK") }
        let codes = Set(matches(#"error (\d+) at \d+ depth"#, in: result.output).compactMap { Int($0) })
        let errors = codes.sorted().map(String.init).joined(separator: ",")
        // 2/20 no issuer found, 18/19 self-signed, 21 cannot verify the first certificate: no chain to an anchor.
        if !codes.isDisjoint(with: [2, 18, 19, 20, 21]) { return (.notChaining, errors) }
        // 9 not yet valid, 10 expired: the chain exists, its time is wrong.
        if !codes.isEmpty && codes.isSubset(of: [9, 10]) { return (.expired, errors) }
        return (.invalid, errors.isEmpty ? result.output : errors)
    }

    private static func run(_ arguments: [String], input: String) throws -> (status: Int32, output: String) {
        let file = Scratch.folder.appendingPathComponent("ipacheck-\(UUID().uuidString).pem")
        try Data(input.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try run(arguments + ["-in", file.path])
    }

    private static func pemBlocks(_ text: String) -> [String] {
        matches(#"(-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----)"#, in: text).map { $0 + "\n" }
    }

    private static func sameNumber(hex: String, printed: String) -> Bool {
        // openssl prints a SignerInfo's serial in decimal (or 0x… hex), x509 -serial always in hex.
        if printed.hasPrefix("0x") {
            return printed.dropFirst(2).uppercased().drop { $0 == "0" } == hex.uppercased().drop { $0 == "0" }
        }
        return decimal(hex: hex) == printed
    }

    /// The decimal digits of the hex number `hex`, by long division (serials exceed 64 bits).
    private static func decimal(hex: String) -> String {
        var digits = hex.compactMap { $0.hexDigitValue }
        var result: [Int] = []
        while digits.contains(where: { $0 != 0 }) {
            var remainder = 0
            var quotient: [Int] = []
            for digit in digits {
                let value = remainder * 16 + digit
                quotient.append(value / 10)
                remainder = value % 10
            }
            result.append(remainder)
            digits = Array(quotient.drop { $0 == 0 })
        }
        return result.isEmpty ? "0" : result.reversed().map(String.init).joined()
    }

    private static func firstMatch(_ pattern: String, in text: String) -> String? {
        matches(pattern, in: text).first
    }

    private static func matches(_ pattern: String, in text: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
