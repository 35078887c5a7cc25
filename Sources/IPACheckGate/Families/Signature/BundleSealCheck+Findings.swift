package import IPACheckBundle
package import IPACheckReport

extension BundleSealCheck {
    /// Every problem and note of the bundle's seal check as findings, one per cause, worst first.
    package var findings: [Finding] {
        let found = problems.flatMap { problem -> [Finding] in
            switch problem {
            case .signing(let signing): [signing.finding]
            case .archive(let archive): [archive.finding]
            case .resources(let resources): resources.findings
            }
        }
        return Finding.merged(found).sorted()
    }
}
