import IPACheckLinks
import IPACheckSites

/// The causes outside the files that explain names beside a link's path (docs/ios-model.md#tap).
extension LinkModel {
    /// The causes outside the files that apply to this claim: all of them when the files say the link opens (the
    /// cause is then outside them), and those that explain a break (a stale CDN copy, developer mode) otherwise.
    ///
    /// Sources: TN3155 "Debugging universal links" (typed URLs, same-domain navigation, in-app browsers, the
    /// remembered choice, the developer-mode setting and its diagnostics, the CDN and blocked hosts) and "Supporting
    /// associated domains" (the CDN fetches within 24 hours; devices check about once a week after installation).
    func causes(for evaluation: Evaluation, host: String, opens: Bool) -> LinkExplanation.Step {
        var causes: [LinkExplanation.Cause] = []
        if opens {
            causes += [
                .init(
                    cause: "typedURL",
                    detail: "a URL typed or pasted into the address bar never opens the app: tap it from another app, "
                        + "a mail or a note"
                ),
                .init(
                    cause: "sameDomain",
                    detail: "a link on a page of \(host) itself stays in Safari: Safari expects a link to the same "
                        + "domain as the page to continue in the browser (TN3155)"
                ),
                .init(
                    cause: "notATap",
                    detail: "a person's tap on a link in Safari or a WKWebView opens the app (Apple, \"Allowing apps "
                        + "and websites to link to your content\"); a URL an app opens itself does not (the same "
                        + "page), and Apple does not say what a URL loaded into a web view without a tap, a "
                        + "redirect or a JavaScript navigation, or a tap in SFSafariViewController does "
                        + "(docs/ios-model.md#unknown U11)"
                ),
                .init(
                    cause: "otherBrowser",
                    detail: "Safari implements universal links; in other browsers and some apps' in-app browsers it "
                        + "is up to that browser whether a tap opens the app (TN3155): try the link from Safari, "
                        + "Notes or Messages"
                ),
                .init(
                    cause: "openInSafariChoice",
                    detail: "if the user once chose to open \(host) in Safari, iOS remembers it: long-press the link "
                        + "and choose Open in the app"
                ),
                .init(
                    cause: "installedBeforeChange",
                    detail: "iOS downloads the association when the app is installed or updated and checks again "
                        + "about once a week: a device that installed before the AASA changed keeps the old one "
                        + "until then (reinstalling refreshes it)"
                ),
            ]
        }
        if evaluation.target.usesCDN, let cdn = copies(evaluation).first(where: { $0.copy == "cdn" }),
            cdn.stale || !cdn.usable
        {
            let when = cdn.expectedRefresh.map { "its cache expires at \($0); " } ?? ""
            causes.append(
                .init(
                    cause: "staleCDN",
                    detail: "Apple's CDN copy, which devices read, is \(cdn.usable ? "older than" : "missing beside") "
                        + "the origin's file: \(when)the CDN fetches the origin's file within about 24 hours, and "
                        + "devices then pick it up at install or their weekly check"
                )
            )
        }
        if evaluation.claim.domain.mode?.requiresDevelopmentSigning == true {
            causes.append(
                .init(
                    cause: "developerMode",
                    detail: "\(evaluation.claim.domain.entry) works only on a device with Settings › Developer › "
                        + "Associated Domains Development turned on; Settings › Developer › Universal Links › "
                        + "Diagnostics shows what the device decided (TN3155)"
                )
            )
        }
        if let mode = evaluation.claim.domain.mode, mode != .developer {
            causes.append(
                .init(
                    cause: "managedMode",
                    detail: "\(evaluation.claim.domain.entry) works only on devices whose MDM supplies the domain to "
                        + "the app (Apple: \"only devices using a mobile device management (MDM) profile can access "
                        + "the domain\"); \(evaluation.target.copyCondition)"
                )
            )
        }
        if evaluation.claim.domain.host.split(separator: ".").contains(where: { $0.hasPrefix("xn--") }) {
            causes.append(
                .init(
                    cause: "internationalizedDomain",
                    detail: "\(evaluation.claim.domain.entry) is an internationalised (IDN) domain: a 2026 developer "
                        + "forum report (thread 814156, FB21797091) finds iOS 16 and later leave such domains "
                        + "unverified, so links open Safari; a report, not Apple's word (docs/ios-model.md#url I36)"
                )
            )
        }
        if opens && evaluation.target.usesCDN {
            causes.append(
                .init(
                    cause: "cdnBlocked",
                    detail: "a device whose profile, VPN or content filter blocks app-site-association.cdn-apple.com "
                        + "never gets the association"
                )
            )
        }
        var step = LinkExplanation.Step(
            name: "causes",
            status: .info,
            summary: opens
                ? "the files open the link; if a tap still opens Safari, the cause is one of these"
                : "outside the files, this also applies"
        )
        step.details = causes.map(\.detail)
        step.causes = causes
        return step
    }
}
