public import IPACheckAASA
public import IPACheckReport

/// A host's report plus the files read, parsed once here for live `match`, `check` and `explain`.
public struct AASASiteResult: Sendable {
    /// The judged report.
    public var report: AASASiteReport
    /// The origin's file (status 200, within the cap and parseable), or `nil`.
    public var origin: ParsedAASA?
    /// Apple's CDN copy (status 200, within the cap and parseable), or `nil`.
    public var cdn: ParsedAASA?

    /// Creates a result.
    public init(report: AASASiteReport, origin: ParsedAASA? = nil, cdn: ParsedAASA? = nil) {
        self.report = report
        self.origin = origin
        self.cdn = cdn
    }

    /// The origin's file bytes.
    public var originBody: [UInt8]? { origin?.body }
    /// The CDN copy's bytes.
    public var cdnBody: [UInt8]? { cdn?.body }
}

/// An AASA file that parsed: its bytes, the document, and what the parser noticed (BOM, duplicate keys, signing).
public struct ParsedAASA: Sendable {
    /// The bytes as served.
    public let body: [UInt8]
    /// The parsed document.
    public let document: AASADocument
    /// The parser's findings about the encoding.
    public let findings: [Finding]
}
