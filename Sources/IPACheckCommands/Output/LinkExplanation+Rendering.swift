import IPACheckGate
package import IPACheckReport

extension LinkExplanation {
    /// The explanation for people; the URL, the details and the conclusion quote inputs (the ipa, the AASA, a
    /// server's answer), so each is made visible (``UntrustedText``) before it is styled.
    package func text(style: TextStyle = .plain) -> String {
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
            out += "\(index + 1). \(mark) \(visible(step.name)): \(visible(step.summary))\n"
            for detail in step.details { out += "     \(visible(detail))\n" }
        }
        let ending = visible(conclusion)
        switch verdict {
        case .opens: out += "\n" + style.green("✓ " + ending) + "\n"
        case .breaks: out += "\n" + style.red("✗ " + ending) + "\n"
        case .undecided: out += "\n" + style.yellow("? " + ending) + "\n"
        }
        return out
    }
}
