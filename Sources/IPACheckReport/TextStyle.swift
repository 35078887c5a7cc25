/// Whether and how text output is coloured: ANSI colours only on a terminal and never with `NO_COLOR`.
package struct TextStyle: Sendable, Hashable {
    /// Whether ANSI escape codes are written.
    package let colored: Bool

    /// Creates a style.
    package init(colored: Bool) {
        self.colored = colored
    }

    /// No colour: for files, pipes and tests.
    package static let plain = TextStyle(colored: false)

    /// Bold text.
    package func bold(_ text: String) -> String { wrap(text, "1") }
    /// Red text (errors).
    package func red(_ text: String) -> String { wrap(text, "31") }
    /// Yellow text (warnings).
    package func yellow(_ text: String) -> String { wrap(text, "33") }
    /// Green text (passes).
    package func green(_ text: String) -> String { wrap(text, "32") }
    /// Dim text (notes, details).
    package func dim(_ text: String) -> String { wrap(text, "2") }

    /// The severity's label, coloured by badness (`error`, `warning`, `note`).
    package func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: red("error")
        case .warning: yellow("warning")
        case .note: dim("note")
        }
    }

    private func wrap(_ text: String, _ code: String) -> String {
        colored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
