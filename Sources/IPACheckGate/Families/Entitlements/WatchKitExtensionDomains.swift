import IPACheckBundle
import IPACheckLinks
import IPACheckPlist
import IPACheckReport

/// ENT023: a watch app with a separate WatchKit extension signs its associated domains on the app, not on the
/// extension, where Apple says they belong.
///
/// docs/ios-model.md I57, Apple's Supporting associated domains: "For watchOS apps with separate WatchKit
/// extensions, you must add the Associated Domains capability to the WatchKit Extension target." A single-target
/// watch app (no WatchKit extension) carries them on the app itself, so it is not judged.
enum WatchKitExtensionDomains: GateRule {
    static let rule = Rule(
        "ENT023",
        .warning,
        "watch app's associated domains not on its WatchKit extension",
        summary: "The watch app claims associated domains, but its separate WatchKit extension, which Apple says "
            + "must carry the Associated Domains capability, claims none of them, so watchOS may associate none.",
        fix: "Add the Associated Domains capability (with the same entries) to the WatchKit Extension target, or "
            + "make the watch app a single target.",
        linkPath: .offPath
    )

    static let judgedIn = GateCheckName.bundleFacts

    /// The extension point of a WatchKit extension (its `NSExtension` dictionary in Info.plist).
    static let watchKitExtensionPoint = "com.apple.watchkit"

    static func judge(_ input: GateInput) -> RuleJudgement {
        guard !input.build.isEntitlementsFile else {
            return .notRun(because: "an entitlements file has no watch app")
        }
        var findings: [Finding] = []
        for watch in input.facts where watch.bundle.kind == .watch && !watch.domains.isEmpty {
            // An extension whose executable cannot be read claims what no one knows: ARC008/ARC009 say so.
            let extensions = input.facts.filter { fact in
                fact.bundle.kind == .appex && fact.bundle.parent == watch.bundle.path && fact.container != nil
                    && fact.bundle.infoPlist["NSExtension"]?["NSExtensionPointIdentifier"]?.stringValue
                        == watchKitExtensionPoint
            }
            for watchKit in extensions {
                let carried = Set(watchKit.domains.map(\.entry))
                let missing = watch.domains.map(\.entry).filter { !carried.contains($0) }
                guard !missing.isEmpty else { continue }
                let shown = missing.prefix(3).joined(separator: ", ") + (missing.count > 3 ? ", …" : "")
                let lack =
                    watchKit.domains.isEmpty
                    ? "claims no associated domain" : "does not claim " + (missing.count == 1 ? "it" : "them")
                findings.append(
                    rule.finding(
                        "\(watch.bundle.path) claims \(shown), but its WatchKit extension \(watchKit.bundle.path) "
                            + lack,
                        bundle: watch.bundle.path,
                        location: AssociatedDomains.key
                    )
                )
            }
        }
        return .ran(findings)
    }
}
