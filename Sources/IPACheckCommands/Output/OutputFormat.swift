import ArgumentParser

/// How a subcommand prints its answer.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    /// For people (colour on a terminal only).
    case text
    /// For machines: deterministic, camelCase keys.
    case json
}

/// The `--format` option shared by the subcommands that print text or JSON.
struct FormatOption: ParsableArguments {
    @Option(name: .long, help: "Output format: text (for people) or json (for machines).")
    var format: OutputFormat = .text
}
