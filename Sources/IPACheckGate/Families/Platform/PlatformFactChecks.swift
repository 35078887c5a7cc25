import Foundation
import IPACheckArchive
import IPACheckBundle
import IPACheckLinks
import IPACheckPlist
package import IPACheckReport
import IPACheckSigning

/// Facts of the platform that changed since the AASA rules were first written (Apple's pages, checked 2026-11):
/// browser apps and universal links, HTTPS callbacks of `ASWebAuthenticationSession`, and when App Clips need the
/// AASA's `appclips` entry.
///
/// Each rule cites its source; the executable is read for what it shows (the strings of the main app's executable),
/// never guessed at.
package enum PlatformFactChecks {
    /// The rules declared here; ``RuleSet/all`` lists them by reflection, so a rule added here is listed.
    package struct Rules: JudgedRuleSet {
        /// The check that judges these rules.
        var judgedIn: GateCheckName { .platformFacts }

        /// The set, its rules as declared below.
        package init() {}

        /// PLAT001: a browser app claims `applinks:`.
        ///
        /// Source: TN3155 "Debugging universal links" (Overview): "web browsers, and apps registered as browsers,
        /// are not allowed to register universal links by using the `applinks` service"; "registered as browsers"
        /// links to the `com.apple.developer.web-browser` entitlement.
        package let browserClaimsAppLinks = Rule(
            "PLAT001",
            .error,
            "browser app claims universal links",
            summary: "The bundle is signed with com.apple.developer.web-browser (it may be the default browser) and "
                + "claims applinks: domains, but web browsers and apps registered as browsers are not allowed to "
                + "register universal links (TN3155): iOS ignores the applinks entries and links to those domains open "
                + "in the browser, never in this app.",
            fix: "Ship the universal links in an app that is not registered as a browser, or drop the applinks: "
                + "entries (a browser discovers other apps' universal links with SFUniversalLink and the "
                + "com.apple.developer.associated-domains.applinks.read-write entitlement)."
        )

        /// PLAT002: HTTPS callbacks are used and no `webcredentials:` domain is claimed.
        ///
        /// Sources: `ASWebAuthenticationSession.Callback.https(host:path:)` (iOS 17.4+; the header: "The host must
        /// be associated with the app using associated web credentials domains"), and the Apple developer forums:
        /// the session fails with "Using HTTPS callbacks requires Associated Domains using the webcredentials
        /// service type" unless the callback host is claimed under `webcredentials:`.
        package let httpsCallbackWithoutWebCredentials = Rule(
            "PLAT002",
            .error,
            "HTTPS auth callback without webcredentials",
            summary: "The main executable uses ASWebAuthenticationSession.Callback.https(host:path:) (iOS 17.4+), but "
                + "the app claims no webcredentials: domain, so whatever the callback host, the session fails with "
                + "\"Using HTTPS callbacks requires Associated Domains using the webcredentials service type\".",
            fix: "Add webcredentials:CALLBACK-HOST to the app's Associated Domains capability and list the app ID in "
                + "that host's AASA under webcredentials.apps (or use a custom-scheme callback)."
        )

        /// PLAT003: the host the executable names is associated with the app, but not under `webcredentials:`.
        ///
        /// Sources as for ``httpsCallbackWithoutWebCredentials``.
        package let httpsCallbackHostNotWebCredentials = Rule(
            "PLAT003",
            .warning,
            "HTTPS auth callback host not under webcredentials",
            summary: "The main executable uses ASWebAuthenticationSession.Callback.https(host:path:) and holds, as a "
                + "string of its own, a host the app claims for another service (applinks:, appclips:, "
                + "activitycontinuation:) but not under webcredentials:, while no webcredentials host appears. An "
                + "HTTPS callback on that host fails: the callback host must be claimed under webcredentials:.",
            fix: "Add webcredentials:HOST for the callback host (and list the app ID under webcredentials.apps in its "
                + "AASA), or suppress this finding if that host is not the callback's."
        )

        /// PLAT004: HTTPS callbacks are used; which host the build does not show.
        ///
        /// Sources as for ``httpsCallbackWithoutWebCredentials``.
        package let httpsCallbackHostUnknown = Rule(
            "PLAT004",
            .note,
            "HTTPS auth callback host not known",
            summary: "The main executable uses ASWebAuthenticationSession.Callback.https(host:path:) (iOS 17.4+), "
                + "but which host it calls back on cannot be read from the build; the callback works only if that "
                + "host is one of the webcredentials: domains the app claims, listed here.",
            fix: "Make sure the callback host is among the listed webcredentials: domains and that each one's AASA "
                + "lists the app ID under webcredentials.apps."
        )

        /// PLAT005: a UIKit app built with the iOS 27 SDK or later has no scene manifest.
        ///
        /// Source: TN3187 "Migrating to the UIKit scene-based life cycle": "In the next major release following
        /// iOS 26, UIScene lifecycle will be required when building with the latest SDK; otherwise, your app won't
        /// launch." An app uses scenes when its Info.plist holds `UIApplicationSceneManifest` (the same note);
        /// docs/ios-model.md I56. Device truth: an app that does not launch opens no link.
        package let sceneLifeCycleRequired = Rule(
            "PLAT005",
            .error,
            "iOS 27 SDK app without a scene manifest",
            summary: "The app was built with the iOS 27 SDK or later and its Info.plist has no "
                + "UIApplicationSceneManifest. TN3187: with that SDK \"UIScene lifecycle will be required ...; "
                + "otherwise, your app won't launch\", so no universal link, Handoff or shared credential reaches it.",
            fix: "Adopt the scene-based life cycle (TN3187): add UIApplicationSceneManifest to Info.plist with a "
                + "UIWindowSceneDelegate, and receive links in scene(_:willConnectTo:options:) and "
                + "scene(_:continue:)."
        )

        /// PLAT006: App Store Connect no longer accepts uploads built with this SDK (release policy).
        ///
        /// Sources: Apple developer news, "Upcoming requirements" (2025-04-24: "Apps uploaded to App Store Connect
        /// must be built with Xcode 16 or later using an SDK for iOS 18"; from 2026-04-28, Xcode 26 and the iOS 26
        /// SDK); docs/ios-model.md I55.
        package let sdkBelowUploadMinimum = Rule(
            "PLAT006",
            .error,
            "SDK older than App Store Connect accepts",
            summary: "The app is exported for the App Store but was built with an iOS SDK older than App Store Connect "
                + "accepts at the time of the check, so the upload is refused. Release policy: a device runs the "
                + "build all the same.",
            fix: "Build with the Xcode and iOS SDK App Store Connect requires (Apple's \"Upcoming requirements\" "
                + "news), then export again.",
            linkPath: .offPath
        )
    }

    /// The rules declared here.
    package static let rules = Rules()

    /// The entitlement that registers an app as a web browser.
    package static let webBrowserKey = "com.apple.developer.web-browser"

    /// The Objective-C selector behind `ASWebAuthenticationSession.Callback.https(host:path:)`
    /// (`+[ASWebAuthenticationSessionCallback callbackWithHTTPSHost:path:]`, `NS_SWIFT_NAME(https(host:path:))` in
    /// AuthenticationServices' `ASWebAuthenticationSessionCallback.h`).
    ///
    /// Swift and Objective-C callers alike send this selector, so its name is in the executable's
    /// `__objc_methname` section; the custom-scheme callback (`callbackWithCustomScheme:`) never shows it.
    package static let httpsCallbackSelector = "callbackWithHTTPSHost:path:"

    /// The strings the checks look for in the main executable (searched while it streams past).
    package static let executableNeedles: [String] = [httpsCallbackSelector]

    // MARK: - Browser apps

    /// PLAT001 for each `applinks:` entry of a bundle signed with `com.apple.developer.web-browser = true`.
    static func browserAppLinks(_ facts: [BundleFacts]) -> [Finding] {
        facts.flatMap { fact -> [Finding] in
            guard fact.entitlements[webBrowserKey]?.boolValue == true else { return [] }
            return fact.domains.filter { $0.service == .applinks }.map { domain in
                rules.browserClaimsAppLinks.finding(
                    "\(domain.entry) is claimed, but the bundle is signed with \(webBrowserKey) = true: apps "
                        + "registered as browsers may not register universal links, so iOS ignores the entry",
                    bundle: fact.bundle.path,
                    domain: domain.host.isEmpty ? domain.entry : domain.host,
                    location: "entitlements:\(webBrowserKey)"
                )
            }
        }
    }

    // MARK: - HTTPS callbacks

    /// The HTTPS-callback findings for the main app, given what its executable shows.
    ///
    /// - Parameters:
    ///   - main: The main app's facts.
    ///   - strings: The needles found in its executable (``executableNeedles`` among them).
    ///   - literals: Which of ``callbackHostCandidates(main:strings:)`` the executable holds as strings of their own
    ///     (read with the build, ``hostLiterals(_:executable:in:)``).
    static func httpsCallbacks(
        main: BundleFacts,
        strings: BinaryStrings,
        literals: [String]
    ) -> [Finding] {
        guard strings.contains(httpsCallbackSelector) else { return [] }
        let bundle = main.bundle.path
        let used = usedDomains(main)
        let webCredentials = used.filter { $0.service == .webcredentials }
        guard !webCredentials.isEmpty else {
            let ignored = main.domains.filter { $0.service == .webcredentials }.map(\.entry)
            let why =
                ignored.isEmpty
                ? "the app claims no webcredentials: domain"
                : "the app's only webcredentials entries (\(ignored.joined(separator: ", "))) are not used by this build"
            return [
                rules.httpsCallbackWithoutWebCredentials.finding(
                    "The main executable calls \(httpsCallbackSelector) (ASWebAuthenticationSession.Callback."
                        + "https(host:path:)), but \(why), so every HTTPS callback fails",
                    bundle: bundle,
                    location: "main executable"
                )
            ]
        }
        let candidates = Self.candidateHosts(used)
        let evident = literals.filter(candidates.contains)
        let covered = evident.filter { host in webCredentials.contains { $0.covers(host: host) } }
        let uncovered = evident.filter { host in !webCredentials.contains { $0.covers(host: host) } }
        if !covered.isEmpty { return [] }
        if !uncovered.isEmpty {
            return uncovered.map { host in
                let services = used.filter { $0.covers(host: host) }.map { $0.service.name }
                let claimed = Array(Set(services)).sorted().map { "\($0):" }.joined(separator: ", ")
                return rules.httpsCallbackHostNotWebCredentials.finding(
                    "The main executable uses HTTPS callbacks (\(httpsCallbackSelector)) and holds the host \(host), "
                        + "which the app claims under \(claimed) but not under webcredentials:; an HTTPS callback on "
                        + "\(host) fails (the app's webcredentials domains: "
                        + webCredentials.map(\.entry).joined(separator: ", ") + ")",
                    bundle: bundle,
                    domain: host,
                    location: "main executable"
                )
            }
        }
        return [
            rules.httpsCallbackHostUnknown.finding(
                "The main executable uses HTTPS callbacks (\(httpsCallbackSelector)); the callback host cannot be "
                    + "read from the build and must be one of the webcredentials domains the app claims: "
                    + webCredentials.map(\.entry).joined(separator: ", "),
                bundle: bundle,
                location: "main executable"
            )
        ]
    }

    /// The entries a build of this signing kind uses (a device ignores the others).
    private static func usedDomains(_ main: BundleFacts) -> [AssociatedDomain] {
        main.domains.filter {
            ReleaseGate.fetchTarget($0, signing: main.signingKind, mdmDirectDownloads: false) != nil
        }
    }

    /// The hosts whose literal in the main executable ``httpsCallbacks(main:strings:literals:)`` asks about: none
    /// unless the strings show HTTPS callbacks and the app uses a `webcredentials:` entry, so the executable is
    /// read again only then.
    static func callbackHostCandidates(main: BundleFacts, strings: BinaryStrings) -> [String] {
        guard strings.contains(httpsCallbackSelector) else { return [] }
        let used = usedDomains(main)
        guard used.contains(where: { $0.service == .webcredentials }) else { return [] }
        return candidateHosts(used)
    }

    /// The hosts whose literal would show the callback host: each host the app associates, wildcards left out
    /// (their subdomains are not known), each once.
    static func candidateHosts(_ domains: [AssociatedDomain]) -> [String] {
        var seen: Set<String> = []
        return domains.compactMap { domain in
            guard !domain.wildcard, !domain.host.isEmpty, seen.insert(domain.host).inserted else { return nil }
            return domain.host
        }
    }

    /// Which of `hosts` the executable `member` of `ipa` holds as a string of its own (`\0HOST\0`, how a C string
    /// or a Swift literal of 16 bytes or more lies in `__cstring`).
    ///
    /// A second read of that one member from the archive already open, made only when there are hosts to look for
    /// (``callbackHostCandidates(main:strings:)``). A Swift literal of 15 bytes or fewer is stored inside the
    /// instructions, so a short host is never found: absence proves nothing, and only a host found is used. An
    /// executable that cannot be read again shows no host.
    static func hostLiterals(_ hosts: [String], executable member: String?, in ipa: IPAFile) -> [String] {
        guard !hosts.isEmpty, let member, let stream = try? ipa.stream(member) else { return [] }
        var search = LiteralSearch(hosts)
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while !search.foundAll, let count = try? stream.read(into: &buffer), count > 0 {
            search.consume(buffer[0..<count])
        }
        return hosts.indices.filter { search.found.contains($0) }.map { hosts[$0] }
    }

    /// Records which rules ran on `input`, and why the others did not.
    static func recordCoverage(_ input: GateInput, into coverage: inout RuleCoverage) {
        coverage.ran([rules.browserClaimsAppLinks])
        let callbacks = [
            rules.httpsCallbackWithoutWebCredentials, rules.httpsCallbackHostNotWebCredentials,
            rules.httpsCallbackHostUnknown,
        ]
        if input.build.isEntitlementsFile {
            coverage.skip(
                callbacks,
                because: "an entitlements file has no executable to show HTTPS callbacks: check the built ipa"
            )
        } else if input.facts.first == nil || input.build.mainExecutableStrings == nil {
            coverage.skip(callbacks, because: "the main executable's strings could not be searched")
        } else {
            coverage.ran(callbacks)
        }
        if input.build.isEntitlementsFile {
            coverage.skip(
                [rules.sceneLifeCycleRequired, rules.sdkBelowUploadMinimum],
                because: "an entitlements file names no SDK: check the built ipa"
            )
            return
        }
        coverage.ran([rules.sceneLifeCycleRequired])
        if let reason = uploadMinimumSkipped(input) {
            coverage.skip([rules.sdkBelowUploadMinimum], because: reason)
        } else {
            coverage.ran([rules.sdkBelowUploadMinimum])
        }
    }

    // MARK: - App Clips

    /// The first iOS on which NFC tags, QR codes and App Clip Codes launch an App Clip without the AASA's
    /// `appclips` entry.
    static let physicalInvocationsWithoutAASA = [16, 4]

    /// What a missing or failing `appclips` entry breaks, for a clip whose `MinimumOSVersion` is `minimumOS`.
    ///
    /// Source: Apple, "Associating your App Clip with your website": the system verifies the App Clip (the
    /// `appclips` entry of the AASA) "to support invocations from your website and devices running iOS 16.3 or
    /// earlier"; NFC tags, QR codes and App Clip Codes on iOS 16.4 and later do not depend on it. A clip that
    /// requires iOS 16.4 or later needs the entry only for invocations from the website.
    package static func appClipsEntryReach(minimumOS: String?) -> String {
        let website = "invocations from the website (Smart App Banner, links)"
        let physical = "NFC tags, QR codes and App Clip Codes on iOS 16.4 and later do not need the entry"
        guard let minimumOS, let parsed = version(minimumOS) else {
            return "this breaks App Clip \(website), and on iOS 16.3 and earlier every invocation (the clip's "
                + "MinimumOSVersion is not known); \(physical)"
        }
        if parsed.lexicographicallyPrecedes(physicalInvocationsWithoutAASA) {
            return "this breaks App Clip \(website), and every invocation on iOS 16.3 and earlier, which the clip "
                + "supports (MinimumOSVersion \(minimumOS)); \(physical)"
        }
        return "this breaks only App Clip \(website): the clip requires iOS \(minimumOS), where \(physical)"
    }

    /// `16.4.1` → `[16, 4, 1]`, trailing zeros dropped; `nil` when a part is not a number.
    static func version(_ text: String) -> [Int]? {
        var numbers: [Int] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard let number = Int(part), number >= 0 else { return nil }
            numbers.append(number)
        }
        while numbers.count > 1, numbers.last == 0 { numbers.removeLast() }
        return numbers
    }
}

/// Searches a stream of chunks for a few strings that stand alone (a NUL byte before and after), carrying the last
/// bytes of each chunk over so that a string split across two chunks is found too.
///
/// It looks for each string's first byte, not for the NUL before it (an executable is full of zeros), and then
/// checks the byte before the match.
private struct LiteralSearch {
    private let needles: [[UInt8]]
    private var carry: [UInt8] = []
    private let overlap: Int
    private(set) var found: Set<Int> = []

    /// A search for `strings` (non-empty), each followed by a NUL byte and preceded by one.
    init(_ strings: [String]) {
        needles = strings.map { Array($0.utf8) + [0] }
        // One byte more than the longest needle, so that the byte before a match is always in the window.
        overlap = needles.map(\.count).max() ?? 0
    }

    /// Whether every string was found (the rest of the stream need not be read).
    var foundAll: Bool { found.count == needles.count }

    /// Feeds the next chunk.
    mutating func consume(_ chunk: ArraySlice<UInt8>) {
        let window = carry + chunk
        for (index, needle) in needles.enumerated() where !found.contains(index) {
            if Self.standsAlone(needle, in: window) { found.insert(index) }
        }
        carry = Array(window.suffix(overlap))
    }

    /// Whether `needle` occurs in `bytes` right after a NUL byte.
    private static func standsAlone(_ needle: [UInt8], in bytes: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count > needle.count else { return false }
        let lastStart = bytes.count - needle.count
        var index = 1
        while index <= lastStart {
            guard let start = bytes[index...lastStart].firstIndex(of: first) else { return false }
            if bytes[start - 1] == 0, bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
            index = start + 1
        }
        return false
    }
}
