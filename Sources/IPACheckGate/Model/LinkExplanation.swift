package import IPACheckAASA
import IPACheckLinks
package import IPACheckReport

/// The path a tap on a link takes, step by step, for support triage ("why does this link open Safari?"): the
/// ``LinkModel``'s answer for one URL, as data; the text for people is rendered from the same data.
package struct LinkExplanation: Encodable, Sendable {
    /// Whether the link opens the app.
    package enum Verdict: String, Encodable, Sendable {
        /// A tap opens the app: nothing the gate reports as an error stands on the path.
        case opens
        /// A tap opens the browser.
        case breaks
        /// What a tap does cannot be told from this run: the host's file could not be fetched (no network), and
        /// nothing before it on the path breaks the link.
        case undecided
    }

    /// One associated-domains entry that claims the URL's host, as the build signs it.
    package struct Claim: Encodable, Sendable {
        /// The bundle whose signature holds it.
        package let bundle: String
        /// The bundle's application identifier.
        package let appID: String?
        /// The entry as signed (`applinks:example.com?mode=developer`).
        package let entry: String
        /// The host it names (without `*.`).
        package let host: String
        /// Whether it is a `*.` entry.
        package let wildcard: Bool
        /// `developer`, `managed` or `developer+managed`, when it has a mode.
        package let mode: String?
        /// Why iOS ignores it for this build, when it does.
        package let ignored: String?
    }

    /// One copy of a host's AASA the run looked at, and what was observed of it.
    package struct Copy: Encodable, Sendable {
        /// Which copy: `origin` (the host's own), `cdn` (Apple's) or `file` (`--aasa-dir`).
        package let copy: String
        /// The host whose file it is.
        package let host: String
        /// The URL fetched or the file read.
        package let location: String?
        /// The HTTP status, for a copy fetched over the network that answered.
        package let status: Int?
        /// `Content-Type` as served.
        package let contentType: String?
        /// The origin's `Last-Modified`, as sent, when it sent one.
        package var lastModified: String? = nil
        /// The body's size in bytes.
        package let bytes: Int?
        /// Apple's CDN `Apple-Failure-Reason`, when it sent one.
        package let failureReason: String?
        /// Apple's CDN `Apple-Failure-Details`, when it sent them.
        package let failureDetails: [String: String]?
        /// Why the copy could not be fetched or read, when it could not.
        package let problem: String?
        /// Whether the copy parsed as an AASA document.
        package let usable: Bool
        /// Whether this is the copy devices read.
        package let devicesRead: Bool
        /// Whether this copy answers otherwise than the origin's file for the app (Apple's CDN not refreshed yet).
        package let stale: Bool
        /// `Cache-Control: max-age` of a CDN answer, in seconds.
        package let maxAgeSeconds: Int?
        /// `Age` of a CDN answer, in seconds.
        package let ageSeconds: Int?
        /// When the CDN's edge is expected to ask again, for a stale or missing CDN copy (ISO 8601).
        package let expectedRefresh: String?
        /// Why no refresh time can be given, when it cannot.
        package let refreshNote: String?
    }

    /// What the rules of the copy devices read decide for the URL.
    package struct Decision: Encodable, Sendable {
        /// The app ID the rules were read for.
        package let appID: String
        /// Which copy decided, as findings name it.
        package let document: String
        /// `match`, `block` or `none`, as `ipacheck match` says.
        package let verdict: AASAVerdict
        /// The deciding rule, when one decides.
        package let rule: AASAPathRuleReference?
        /// Why, in one sentence.
        package let why: String
        /// Every rule tried, in order.
        package let trace: [AASATraceStep]
        /// The origin's answer, when devices read Apple's CDN copy and the origin's file answers otherwise.
        package let origin: AASAMatchResult.OriginAnswer?
    }

    /// A reason outside the files why a correctly configured link may still open Safari, shown only where it
    /// applies.
    package struct Cause: Encodable, Sendable {
        /// A stable name (`typedURL`, `sameDomain`, `inAppBrowser`, `openInSafariChoice`, `installedBeforeChange`,
        /// `staleCDN`, `developerMode`, `cdnBlocked`).
        package let cause: String
        /// What to check or tell the customer, in one or two sentences.
        package let detail: String
    }

    /// One step of the path and how it went.
    package struct Step: Encodable, Sendable {
        /// How the step went.
        package enum Status: String, Encodable, Sendable {
            /// The step holds.
            case pass
            /// The step breaks the path: the link opens in the browser.
            case fail
            /// The step could not be checked in this run (for example the build, for an entitlements file).
            case notChecked
            /// A fact worth knowing that decides nothing.
            case info
        }

        /// What the step checks (`URL`, `claim`, `build`, `entry`, `AASA`, `rules`, `causes`).
        package let name: String
        /// How it went.
        package let status: Status
        /// One line saying what was found.
        package let summary: String
        /// More lines for people (a rendering of the facts below).
        package var details: [String] = []
        /// The entries claiming the host (`claim`, `entry`).
        package var claims: [Claim]?
        /// The copies of the host's file looked at (`AASA`).
        package var copies: [Copy]?
        /// Which copy devices read, and why that one (`AASA`).
        package var devicesRead: String?
        /// What the rules decide (`rules`).
        package var decision: Decision?
        /// The gate's findings that break this step.
        package var findings: [Finding]?
        /// The causes outside the files that apply (`causes`).
        package var causes: [Cause]?
        /// The device's record of the claim (`device`).
        package var device: DeviceRecordFacts?
        /// What the device's record says about the link (`device`).
        package var diagnoses: [DeviceDiagnosis]?

        init(name: String, status: Status, summary: String, details: [String] = []) {
            self.name = name
            self.status = status
            self.summary = summary
            self.details = details
        }
    }

    /// The URL explained.
    package let url: String
    /// Whether the link opens the app.
    package let verdict: Verdict
    /// The bundle that opens it, or the one the explanation follows when it breaks.
    package let bundle: String?
    /// That bundle's application identifier.
    package let appID: String?
    /// The steps, in the order iOS takes them.
    package let steps: [Step]
    /// The AASA copies looked at.
    package let copies: [Copy]
    /// The deciding rule of the copy devices read, when one decides.
    package let rule: AASAPathRuleReference?
    /// The gate's findings that bear on this URL, worst first.
    package let findings: [Finding]
    /// One sentence saying where it breaks, or which bundle opens it.
    package let conclusion: String

    /// The explanation of a URL iOS never opens as a universal link (no scheme, another scheme, no host): decided
    /// from the URL alone, before any build is read or any host asked; `nil` for a URL a tap could open.
    package static func refusing(_ written: String) -> LinkExplanation? {
        do {
            _ = try TappedURL(written)
            return nil
        } catch {
            return LinkExplanation(
                url: written,
                verdict: .breaks,
                bundle: nil,
                appID: nil,
                steps: [Step(name: "URL", status: .fail, summary: error.reason)],
                copies: [],
                rule: nil,
                findings: [],
                conclusion: "not a URL iOS could open as a universal link (\(error.reason))"
            )
        }
    }

    /// Whether the link opens the app (the verdict as a flag).
    package var opensApp: Bool { verdict == .opens }

    private enum CodingKeys: String, CodingKey {
        case url, verdict, opensApp, bundle, appID, steps, copies, rule, findings, conclusion
    }

    /// Encodes the explanation (`opensApp` repeats the verdict for older consumers).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(opensApp, forKey: .opensApp)
        try container.encode(bundle, forKey: .bundle)
        try container.encode(appID, forKey: .appID)
        try container.encode(steps, forKey: .steps)
        try container.encode(copies, forKey: .copies)
        try container.encode(rule, forKey: .rule)
        try container.encode(findings, forKey: .findings)
        try container.encode(conclusion, forKey: .conclusion)
    }
}
