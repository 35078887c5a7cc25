import IPACheckBundle
import IPACheckReport

extension GateChecks {
    /// Facts of the platform that changed (``PlatformFactChecks``): browser apps claiming universal links, the
    /// `webcredentials:` domain HTTPS callbacks of `ASWebAuthenticationSession` need, and what the SDK the app was
    /// built with means (scenes required; App Store Connect's minimum).
    static let platformFacts = GateCheck(.platformFacts) { input, _ in
        var outcome = CheckOutcome(findings: PlatformFactChecks.browserAppLinks(input.facts))
        if !input.build.isEntitlementsFile, let main = input.facts.first,
            let strings = input.build.mainExecutableStrings
        {
            outcome.findings += PlatformFactChecks.httpsCallbacks(
                main: main,
                strings: strings,
                literals: input.build.callbackHostLiterals
            )
        }
        if !input.build.isEntitlementsFile, let main = input.facts.first {
            outcome.findings += PlatformFactChecks.sceneLifeCycle(main: main)
            if PlatformFactChecks.uploadMinimumSkipped(input) == nil {
                outcome.findings += PlatformFactChecks.uploadMinimum(main: main, now: input.options.now)
            }
        }
        PlatformFactChecks.recordCoverage(input, into: &outcome.coverage)
        return outcome
    }
}
