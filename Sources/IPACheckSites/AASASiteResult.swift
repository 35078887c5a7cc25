package import IPACheckAASA

/// A host's report plus the files read, parsed once here for live `match`, `check` and `explain`.
package struct AASASiteResult: Sendable {
    /// The judged report.
    package var report: AASASiteReport
    /// The origin's file (status 200, within the cap and parseable), or `nil`.
    package var origin: ParsedAASA?
    /// Apple's CDN copy (status 200, within the cap and parseable), or `nil`.
    package var cdn: ParsedAASA?

    /// Creates a result.
    package init(report: AASASiteReport, origin: ParsedAASA? = nil, cdn: ParsedAASA? = nil) {
        self.report = report
        self.origin = origin
        self.cdn = cdn
    }

    /// The origin's file bytes.
    package var originBody: [UInt8]? { origin?.body }
    /// The CDN copy's bytes.
    package var cdnBody: [UInt8]? { cdn?.body }
}

/// An AASA file that parsed: its bytes, the document, and what the parser noticed (BOM, duplicate keys, signing).
package struct ParsedAASA: Sendable {
    /// The bytes as served.
    package let body: [UInt8]
    /// The parsed document.
    package let document: AASADocument
}
