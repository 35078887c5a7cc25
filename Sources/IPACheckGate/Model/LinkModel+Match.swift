package import IPACheckAASA

extension LinkModel {
    /// `match URL --build`'s answer: the verdict ``explain(_:)`` reaches for `url`.
    ///
    /// Said as `match` says it:
    /// `match` where the link opens the app, `block` where an exclude rule of the copy devices read stops it,
    /// `none` otherwise (with where it breaks). One judgement, so `match --build`, `explain` and `links` agree.
    package func matchAnswer(_ url: String) -> AASAMatchExplanation {
        let explanation = explain(url)
        let decision = explanation.steps.last { $0.decision != nil }?.decision
        let verdict: AASAVerdict
        if explanation.opensApp {
            verdict = .match
        } else if decision?.verdict == .block, explanation.breakingStep == "rules" {
            verdict = .block
        } else {
            verdict = .none
        }
        let appID = explanation.appID ?? claims.first { $0.appID != nil }?.appID ?? ""
        var result = AASAMatchResult(
            url: explanation.url,
            appID: appID,
            verdict: verdict,
            rule: explanation.rule,
            why: explanation.opensApp ? (decision?.why ?? explanation.conclusion) : explanation.conclusion
        )
        result.origin = decision?.origin
        return AASAMatchExplanation(result: result, steps: decision?.trace ?? [])
    }
}

extension LinkExplanation {
    /// The name of the step where the link breaks (`build`, `claim`, `entry`, `AASA`, `rules`, `URL`), or `nil`
    /// when it opens.
    package var breakingStep: String? {
        opensApp ? nil : steps.last { $0.status == .fail }?.name
    }
}
