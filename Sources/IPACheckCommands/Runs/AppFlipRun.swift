import IPACheckGate
import IPACheckReport

/// `ipacheck appflip url` and `appflip response`: Google App Flip by hand.
package enum AppFlipRun {
    /// The Google app that opens the link unless told otherwise: Google Home.
    package static let defaultGoogleApp = GoogleApp.googleHome.bundleID

    /// Prints the incoming universal link Google's app (`googleApp`, a bundle ID) would open; an unknown app or a
    /// link App Flip cannot use is a usage error.
    package static func url(
        link: String,
        clientID: String,
        scopes: [String],
        googleApp: String,
        sandbox: Bool,
        state: String?,
        format: OutputFormat
    ) throws {
        guard let app = GoogleApp.named(googleApp) else {
            let known = GoogleApp.all.map(\.bundleID).joined(separator: ", ")
            throw UsageError("unknown Google app \(googleApp); known: \(known)")
        }
        let built: AppFlipLink
        do {
            built = try AppFlipLink.make(
                link: link,
                clientID: clientID,
                scopes: scopes,
                googleApp: app,
                sandbox: sandbox,
                state: state
            )
        } catch {
            throw UsageError(error.description)
        }
        switch format {
        case .json: try Console.printJSON(built, schema: .appFlipURL)
        case .text: Console.print(built.url + "\n")
        }
    }

    /// Judges the redirect the app opened at the end of App Flip (against `expectState`, when given); exits 1 when
    /// Google would not accept it.
    package static func response(url: String, expectState: String?, format: OutputFormat) throws {
        let verdict = AppFlipResponse.judge(url: url, expectState: expectState)
        switch format {
        case .json: try Console.printJSON(verdict, schema: .appFlipResponse)
        case .text: Console.print(verdict.text)
        }
        if !verdict.valid { throw CommandExit.problems }
    }
}
