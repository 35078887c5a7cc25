import Foundation

/// The dimensions of the conformance matrix and the expected device verdict of each scenario.
///
/// The verdict is computed by a small table from the cited rules of docs/ios-model.md, never from the tool's
/// output. Shared by the in-process matrix
/// (IPACheckGateTests) and the one run through the command line (CLITests).
package enum Conformance {
    // MARK: - The dimensions

    /// An entry's alternate mode, with the conditions managed mode depends on.
    package struct ModeCase: Sendable, CustomStringConvertible {
        package let mode: String?
        package var mdm = false
        package var direct = false

        package var description: String {
            (mode ?? "none") + (mode?.contains("managed") == true ? "/mdm:\(mdm)/direct:\(direct)" : "")
        }

        package static let all: [ModeCase] =
            [ModeCase(mode: nil), ModeCase(mode: "developer")]
            + ["managed", "developer+managed"].flatMap { mode in
                [false, true].flatMap { mdm in [false, true].map { ModeCase(mode: mode, mdm: mdm, direct: $0) } }
            }
    }

    /// What the build claims, and the URL host a tap goes to.
    package enum Shape: String, CaseIterable, Sendable {
        /// `applinks:good.test`, URL on good.test.
        case exact
        /// `applinks:*.wild.test`, URL on sub.wild.test: read from wild.test's file (I31).
        case wildcard
        /// `applinks:*.wild.test` and `applinks:sub.wild.test`, URL on sub.wild.test: the specific entry wins and
        /// reads its own file (I29, I31).
        case wildcardAndSpecific
        /// `applinks:*.wild.test`, URL on wild.test: a wildcard never covers the apex (I30).
        case apexOfWildcard
        /// `applinks:café.test` (signed as Unicode), URL on café.test: both compare as xn--caf-dma.test (I35).
        case idn

        package func entries(mode: String?) -> [String] {
            let suffix = mode.map { "?mode=\($0)" } ?? ""
            switch self {
            case .exact: return ["applinks:good.test\(suffix)"]
            case .wildcard, .apexOfWildcard: return ["applinks:*.wild.test\(suffix)"]
            case .wildcardAndSpecific: return ["applinks:*.wild.test\(suffix)", "applinks:sub.wild.test\(suffix)"]
            case .idn: return ["applinks:café.test\(suffix)"]
            }
        }

        /// The host written in the URL.
        package var urlHost: String {
            switch self {
            case .exact: "good.test"
            case .wildcard, .wildcardAndSpecific: "sub.wild.test"
            case .apexOfWildcard: "wild.test"
            case .idn: "café.test"
            }
        }

        /// The host whose file decides (I31), and the other file present to catch a wrong pick.
        package var decidingHost: String {
            switch self {
            case .exact: "good.test"
            case .wildcard, .apexOfWildcard: "wild.test"
            case .wildcardAndSpecific: "sub.wild.test"
            case .idn: "xn--caf-dma.test"
            }
        }

        package var decoyHost: String? { self == .wildcardAndSpecific ? "wild.test" : nil }
    }

    /// The copies of the deciding host's file a run sees.
    package enum CopyState: String, CaseIterable, Sendable {
        /// Offline (`--aasa-dir`): the file lists the app, stands in for both copies.
        case offlineListed
        /// Offline: the file lists another app only.
        case offlineUnlisted
        /// Offline: no file.
        case offlineMissing
        /// Live: origin and Apple's CDN both list the app.
        case bothListed
        /// Live: the origin lists the app, the CDN's copy is older and does not (stale CDN).
        case staleCDN
        /// Live: the CDN lists the app, the origin no longer does.
        case originChanged
        /// Live: the origin lists the app, the CDN has no copy (404 with a failure reason).
        case cdnMissing
        /// Live: the origin answers 404; the CDN still holds an older copy listing the app (I23: it refetches
        /// within a day and then records the failure).
        case originMissing
        /// Live: no host answers, neither the origin nor Apple's CDN (this machine has no network).
        case noNetwork

        package var isOffline: Bool { rawValue.hasPrefix("offline") }
        /// Whether the origin's file lists the app.
        package var originLists: Bool { [.offlineListed, .bothListed, .staleCDN, .cdnMissing].contains(self) }
        /// Whether Apple's CDN copy lists the app (offline: the file stands in for it).
        package var cdnLists: Bool { [.offlineListed, .bothListed, .originChanged, .originMissing].contains(self) }
    }

    /// How the URL is written (I34–I39); each path is judged by the same rules.
    package enum URLForm: String, CaseIterable, Sendable {
        case https, http, rawUnicodePath, percentEncodedPath, query, fragment, dotSegments, excluded

        package func url(host: String) -> String {
            switch self {
            case .https: "https://\(host)/products/1"
            case .http: "http://\(host)/products/1"
            case .rawUnicodePath: "https://\(host)/café/1"
            case .percentEncodedPath: "https://\(host)/caf%C3%A9/1"
            case .query: "https://\(host)/products/1?ref=mail"
            case .fragment: "https://\(host)/products/1#top"
            // A browser resolves the dot segments before the tap reaches iOS (RFC 3986 §5.2.4, I38): the path is
            // /products/1, not the excluded /account/...
            case .dotSegments: "https://\(host)/account/../products/1"
            case .excluded: "https://\(host)/account/1"
            }
        }
    }

    /// An AASA document: `/account/*` excluded, then `/products/*` and the encoded `/café/*` for `appID`.
    package static func aasa(listing appID: String) -> [UInt8] {
        Array(
            """
            {"applinks": {"details": [{"appIDs": ["\(appID)"], "components": [
              {"/": "/account/*", "exclude": true}, {"/": "/products/*"}, {"/": "/caf%C3%A9/*"}]}]}}
            """.utf8
        )
    }

    /// Every build the matrices make: each mode case with each claim shape.
    package static let builds: [(mode: ModeCase, shape: Shape)] = ModeCase.all.flatMap { mode in
        Shape.allCases.map { (mode, $0) }
    }

    // MARK: - The expectation, from docs/ios-model.md

    /// What `match --build` must answer: `match`, `block` or `none`.
    package static func expected(
        kind: ConformanceBuild.Kind,
        mode: ModeCase,
        shape: Shape,
        copy: CopyState,
        form: URLForm
    )
        -> String
    {
        // I5: a build signed without an identity installs on no device.
        if kind == .noIdentity { return "none" }
        // I30: a *. entry never covers the apex.
        if shape == .apexOfWildcard { return "none" }
        // I12–I14: developer mode needs a development-signed app; managed mode the MDM entitlement.
        let developmentSigned = kind == .development
        switch mode.mode {
        case "developer"?: if !developmentSigned { return "none" }
        case "managed"?: if !mode.mdm { return "none" }
        case "developer+managed"?: if !developmentSigned || !mode.mdm { return "none" }
        default: break
        }
        // I20–I22: the copy devices read. Offline, the --aasa-dir file stands in for both.
        let readsOrigin =
            mode.mode == "developer" || mode.mode == "developer+managed" || (mode.mode == "managed" && mode.direct)
        // A link opens only where nothing check reports as an error stands on its path: the origin's file, which
        // the CDN serves within a day (I23), is what check judges, so a CDN copy that still lists the app does not
        // make a link open once the origin dropped it (docs/output-formats.md, explain).
        let lists = readsOrigin ? copy.originLists : (copy.cdnLists && copy.originLists)
        guard lists else { return "none" }
        return form == .excluded ? "block" : "match"
    }
}
