public import IPACheckAASA
public import IPACheckReport

/// The path a tap on a link takes, step by step, for support triage ("why does this link open Safari?"): the
/// ``LinkModel``'s answer for one URL, as data that text and JSON render alike.
public struct LinkExplanation: Encodable, Sendable {
    /// Whether the link opens the app.
    public enum Verdict: String, Encodable, Sendable {
        /// A tap opens the app: nothing the gate reports as an error stands on the path.
        case opens
        /// A tap opens the browser.
        case breaks
    }

    /// One step of the path and how it went.
    public struct Step: Encodable, Sendable {
        /// How the step went.
        public enum Status: String, Encodable, Sendable {
            /// The step holds.
            case pass
            /// The step breaks the path: the link opens in the browser.
            case fail
            /// The step could not be checked in this run (for example Apple's CDN with `--no-cdn`).
            case notChecked
            /// A fact worth knowing that decides nothing.
            case info
        }

        /// What the step checks (`URL`, `claim`, `entry`, `build`, `AASA`, `rules`, `reminders`).
        public let name: String
        /// How it went.
        public let status: Status
        /// What was found, one line each.
        public let details: [String]
    }

    /// One copy of a host's AASA the run looked at, and what was observed of it.
    public struct Copy: Encodable, Sendable {
        /// Which copy: `origin` (the host's own), `cdn` (Apple's) or `file` (`--aasa-dir`).
        public let copy: String
        /// The host whose file it is.
        public let host: String
        /// The URL fetched or the file read.
        public let location: String?
        /// The HTTP status, for a copy fetched over the network that answered.
        public let status: Int?
        /// `Content-Type` as served.
        public let contentType: String?
        /// The body's size in bytes.
        public let bytes: Int?
        /// Apple's CDN `Apple-Failure-Reason`, when it sent one.
        public let failureReason: String?
        /// Why the copy could not be fetched or read, when it could not.
        public let problem: String?
        /// Whether the copy parsed as an AASA document.
        public let usable: Bool
        /// Whether this is the copy devices read.
        public let devicesRead: Bool
    }

    /// The URL explained.
    public let url: String
    /// Whether the link opens the app.
    public let verdict: Verdict
    /// The bundle that opens it, or the one the explanation follows when it breaks.
    public let bundle: String?
    /// That bundle's application identifier.
    public let appID: String?
    /// The steps, in the order iOS takes them.
    public let steps: [Step]
    /// The AASA copies looked at.
    public let copies: [Copy]
    /// The deciding rule of the copy devices read, when one decides.
    public let rule: AASARuleReference?
    /// The gate's findings that bear on this URL, worst first.
    public let findings: [Finding]
    /// One line saying where it breaks, or which bundle opens it.
    public let conclusion: String

    /// Whether the link opens the app (the verdict as a flag).
    public var opensApp: Bool { verdict == .opens }

    private enum CodingKeys: String, CodingKey {
        case url, verdict, opensApp, bundle, appID, steps, copies, rule, findings, conclusion
    }

    /// Encodes the explanation (`opensApp` repeats the verdict for older consumers).
    public func encode(to encoder: any Encoder) throws {
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

    /// The explanation for people; the URL, the details and the conclusion quote inputs (the ipa, the AASA, a
    /// server's answer), so each is made visible (``UntrustedText``) before it is styled.
    public func text(style: TextStyle = .plain) -> String {
        let visible = UntrustedText.visibleOnOneLine
        var out = style.bold(visible(url)) + "\n"
        for (index, step) in steps.enumerated() {
            let mark: String
            switch step.status {
            case .pass: mark = style.green("✓")
            case .fail: mark = style.red("✗")
            case .notChecked: mark = style.yellow("?")
            case .info: mark = style.dim("·")
            }
            out += "\(index + 1). \(mark) \(visible(step.name))\n"
            for detail in step.details { out += "     \(visible(detail))\n" }
        }
        let ending = visible(conclusion)
        out += "\n" + (opensApp ? style.green(ending) : style.red(ending)) + "\n"
        return out
    }
}
