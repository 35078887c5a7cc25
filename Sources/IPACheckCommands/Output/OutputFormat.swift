/// How a command that answers in text or JSON prints its answer (`--format`).
package enum OutputFormat: String, CaseIterable, Sendable {
    /// For people (colour on a terminal only).
    case text
    /// For machines: deterministic, camelCase keys.
    case json
}
