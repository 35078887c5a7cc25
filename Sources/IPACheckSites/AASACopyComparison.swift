import Foundation
import IPACheckAASA

extension AASAAppIDDifference {
    /// What would change for each app ID if devices moved from Apple's CDN copy to the origin's file.
    ///
    /// Compared by meaning through IPACheckAASA's effective rules (``AASADocument/differences(to:)``: `appIDs` over
    /// `appID`, `components` over `paths`, the first entry per app, defaults and substitution variables applied),
    /// so the CDN's re-serialization (key order, white space, escapes, dropped comments) is never a difference.
    static func between(origin: AASADocument, cdn: AASADocument) -> [AASAAppIDDifference] {
        cdn.differences(to: origin).map { difference in
            let id = difference.appID
            let name = difference.service.rawValue
            switch difference.change {
            case .added:
                return AASAAppIDDifference(
                    appID: id,
                    service: name,
                    kind: .onlyAtOrigin,
                    detail: "the origin's file lists \(id) for \(name) but Apple's CDN copy does not: "
                        + "devices will not associate it until the CDN refreshes"
                )
            case .removed:
                return AASAAppIDDifference(
                    appID: id,
                    service: name,
                    kind: .onlyOnCDN,
                    detail: "Apple's CDN copy still lists \(id) for \(name); the origin's file no longer does, so "
                        + "devices keep the old association until the CDN refreshes"
                )
            case .rulesChanged:
                return AASAAppIDDifference(
                    appID: id,
                    service: name,
                    kind: .rulesDiffer,
                    detail: "\(id)'s \(name) rules differ: "
                        + firstDifference(
                            cdn: difference.before ?? [],
                            origin: difference.after ?? [],
                            cdnWritten: cdn.detail(for: id)?.rules ?? [],
                            originWritten: origin.detail(for: id)?.rules ?? []
                        )
                )
            }
        }
    }

    /// The first rule that differs, for people, quoted as each file writes it.
    ///
    /// `rule 2 is {"/": "/old/*"} in the CDN copy, {"/": "/new/*"} at the origin`. Rules compare by meaning
    /// (`effective`); `written` are the same rules, in the same order, as the files spell them.
    private static func firstDifference(
        cdn: [AASAEffectiveRule],
        origin: [AASAEffectiveRule],
        cdnWritten: [AASAPathRule],
        originWritten: [AASAPathRule]
    ) -> String {
        let index =
            zip(cdn, origin).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(cdn.count, origin.count)
        let before = index < cdnWritten.count ? cdnWritten[index].text : "absent"
        let after = index < originWritten.count ? originWritten[index].text : "absent"
        return "the CDN copy has \(cdn.count) rule(s), the origin \(origin.count); rule \(index) is \(before) in the "
            + "CDN copy, \(after) at the origin"
    }
}

/// Reads response bodies as AASA documents through IPACheckAASA.
enum AASABody {
    /// Whether the bytes start like a DER SEQUENCE: a CMS-signed (iOS 8) file.
    static func looksLikeCMS(_ bytes: [UInt8]) -> Bool {
        AASASignedEnvelope.looksSigned(bytes)
    }

    /// The parsed file, or the parser's message (with its position) saying why Apple could not use it.
    package static func read(_ bytes: [UInt8], now: Date) -> Result<ParsedAASA, AASAParseError> {
        do {
            return .success(ParsedAASA(body: bytes, document: try AASADocument.parse(bytes, now: now)))
        } catch {
            return .failure(error)
        }
    }

    /// Whether two bodies are the same document: identical bytes, or both parse to the same meaning.
    static func sameMeaning(_ first: [UInt8], _ second: [UInt8], now: Date) -> Bool {
        if first == second { return true }
        guard case .success(let one) = read(first, now: now), case .success(let other) = read(second, now: now)
        else { return false }
        return one.document.differences(to: other.document).isEmpty
    }
}
