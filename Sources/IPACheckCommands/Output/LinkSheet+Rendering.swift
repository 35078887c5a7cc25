import IPACheckAASA
import IPACheckGate
package import IPACheckReport

extension LinkSheet {
    /// The links for people, by bundle and entry; URLs and reasons quote the AASA, so each is made visible
    /// (``UntrustedText``) before it is styled.
    package func text(style: TextStyle = .plain) -> String {
        let visible = UntrustedText.visibleOnOneLine
        var out = ""
        if !buildErrors.isEmpty {
            out += style.red("No device will install or run this build, so every link stays on the web:") + "\n"
            for finding in buildErrors { out += "  " + visible("\(finding.rule) \(finding.message)") + "\n" }
            out += "Beside each link: what the AASA file's rule decides, once the build is fixed.\n\n"
        }
        var current = ""
        for link in links {
            let group = "\(link.bundle)  \(link.appID)  \(link.entry)"
            if group != current {
                out += (current.isEmpty ? "" : "\n") + style.bold(visible(group)) + "\n"
                current = group
            }
            let mark = link.expected == .opens ? style.green("opens") : style.yellow("stays")
            let rules = link.expected.rawValue == link.rulesDecide.rawValue ? "" : ", which \(link.rulesDecide.said)"
            let device = link.onThisDevice.map { $0 == link.expected ? "" : ", on this device \($0.rawValue)" } ?? ""
            out +=
                "  \(mark)  \(visible(link.url))  [rule \(link.rule.detail).\(link.rule.component)\(rules)]"
                + (device.isEmpty ? "" : style.red(device)) + "\n"
        }
        for skip in skipped {
            let rule = skip.rule.map { " rule \($0.detail).\($0.component)" } ?? ""
            out += style.dim(visible("  no link for \(skip.bundle) \(skip.entry)\(rule): \(skip.reason)")) + "\n"
        }
        if links.isEmpty && skipped.isEmpty {
            out += visible(noLinksBecause ?? "the build claims no applinks domains") + "\n"
        }
        if let device, let first = device.first {
            out += "\n" + style.bold(visible("On the device (\(first.device.member ?? first.device.evidence)):")) + "\n"
            for claim in device {
                let state =
                    claim.linksOpen
                    ? style.green("nothing in the record stops its links")
                    : style.red("the record stops its links: they open the browser")
                out += "  \(visible("\(claim.bundle)  \(claim.entry)")): \(state)\n"
                for diagnosis in claim.diagnoses {
                    out += "    " + visible("\(diagnosis.id) \(diagnosis.summary)") + "\n"
                    if let fix = diagnosis.fix { out += "      " + style.dim(visible("fix: \(fix)")) + "\n" }
                }
            }
        }
        return out
    }

    /// One self-contained page (no network resources) a tester opens on a device and taps through, grouped by app
    /// and domain, with the expected outcome beside each link.
    package var html: String {
        let text = JUnitRenderer.escapeText
        let attribute = JUnitRenderer.escapeAttribute
        var out = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>ipacheck: links to tap</title>
            <style>
            body{font:16px -apple-system,system-ui,sans-serif;margin:1em;color:#111}
            h2{font-size:1.1em;margin-top:1.5em} h3{font-size:1em;color:#444}
            li{margin:.6em 0;list-style:none} a{word-break:break-all}
            .opens,.stays{display:inline-block;min-width:4.5em;font-weight:600}
            .opens{color:#0a7d28} .stays{color:#9a5b00} .why{display:block;color:#666;font-size:.85em}
            </style></head><body>
            <h1>Links to tap</h1>
            <p>Tap each link from this page (not the address bar). <span class="opens">opens</span> links should open
            the app; <span class="stays">stays</span> links should stay in the browser. This page is on another domain
            than the links, so a tap is a real universal-link tap.</p>

            """
        if !buildErrors.isEmpty {
            out +=
                "<p><strong>No device will install or run this build, so every link stays on the web:</strong></p>\n<ul>\n"
            for finding in buildErrors { out += "<li>\(text(finding.rule)) \(text(finding.message))</li>\n" }
            out += "</ul>\n<p>Beside each link: what the AASA file's rule decides, once the build is fixed.</p>\n"
        }
        var bundle = ""
        var entry = ""
        for link in links {
            if link.bundle != bundle {
                if !entry.isEmpty { out += "</ul>\n" }
                out += "<h2>\(text(link.bundle)) <small>\(text(link.appID))</small></h2>\n"
                bundle = link.bundle
                entry = ""
            }
            if link.entry != entry {
                if !entry.isEmpty { out += "</ul>\n" }
                out += "<h3>\(text(link.entry))</h3>\n<ul>\n"
                entry = link.entry
            }
            let expected = (link.onThisDevice ?? link.expected).rawValue
            out += "<li><span class=\"\(expected)\">\(expected)</span> "
            out += "<a href=\"\(attribute(link.url))\">\(text(link.url))</a>"
            let rules =
                link.expected.rawValue == link.rulesDecide.rawValue ? "" : " (the rule \(link.rulesDecide.said))"
            out += "<span class=\"why\">rule \(link.rule.detail).\(link.rule.component)\(text(rules)): "
            out += "\(text(link.why))</span></li>\n"
        }
        if !entry.isEmpty { out += "</ul>\n" }
        if links.isEmpty && skipped.isEmpty {
            out += "<p>\(text(noLinksBecause ?? "The build claims no applinks domains."))</p>\n"
        }
        if let device, !device.isEmpty {
            out += "<h2>On the device</h2>\n<ul>\n"
            for claim in device {
                out += "<li>\(text(claim.bundle)) \(text(claim.entry)): "
                out +=
                    claim.linksOpen
                    ? "nothing in the record stops its links"
                    : "<strong>the record stops its links: they open the browser</strong>"
                for diagnosis in claim.diagnoses {
                    out += "<span class=\"why\">\(text(diagnosis.id)) \(text(diagnosis.summary))</span>"
                }
                out += "</li>\n"
            }
            out += "</ul>\n"
        }
        if !skipped.isEmpty {
            out += "<h2>No link</h2>\n<ul>\n"
            for skip in skipped {
                let rule = skip.rule.map { " rule \($0.detail).\($0.component)" } ?? ""
                out += "<li>\(text(skip.bundle)) \(text(skip.entry))\(rule): \(text(skip.reason))</li>\n"
            }
            out += "</ul>\n"
        }
        return out + "</body></html>\n"
    }
}

extension LinkSheet.Link.Expected {
    /// How the text says what a rule decides.
    fileprivate var said: String {
        switch self {
        case .opens: "opens it"
        case .stays: "excludes it"
        }
    }
}
