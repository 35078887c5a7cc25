/// Turns a ``Report`` into one output format; the CLI prints the string to stdout as it is.
package protocol ReportRendering: Sendable {
    /// The whole output, ending with a newline.
    func render(_ report: Report) throws -> String
}

/// The `--format` values of `ipacheck check`, each with its renderer.
package enum ReportFormat: String, CaseIterable, Sendable {
    /// For people: grouped by input, bundle and domain, with a verdict line.
    case text
    /// For machines: the ``Report`` as JSON (`{"findings": [...], "summary": {...}}` plus more keys).
    case json
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
    case sarif
    /// JUnit XML, for CI test-report views (Jenkins, GitLab, GitHub test-report actions).
    case junit
    /// GitHub Actions workflow commands (`::error file=...::...`), shown as annotations.
    case github

    /// The renderer for this format; `style` matters only for ``text``.
    package func renderer(style: TextStyle = .plain) -> any ReportRendering {
        switch self {
        case .text: TextRenderer(style: style)
        case .json: JSONRenderer()
        case .sarif: SARIFRenderer()
        case .junit: JUnitRenderer()
        case .github: GitHubAnnotationsRenderer()
        }
    }
}
