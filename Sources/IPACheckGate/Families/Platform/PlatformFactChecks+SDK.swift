import Foundation
import IPACheckBundle
import IPACheckPlist
import IPACheckReport
import IPACheckSigning

/// What the SDK a build was made with means, from its Info.plist (`DTSDKName`, `DTPlatformVersion`): whether the
/// app launches at all (TN3187, PLAT005, a device fact) and whether App Store Connect accepts the upload at the time
/// of the check (PLAT006, release policy).
extension PlatformFactChecks {
    /// The iOS SDK a bundle was built with, as Xcode records it.
    struct BuiltSDK: Equatable {
        /// The SDK's major version (`18` for `iphoneos18.2`).
        let major: Int
        /// How the Info.plist names it, for messages (`iphoneos27.0`).
        let name: String

        /// The iOS SDK of `bundle`, or `nil` when its Info.plist names none or another platform's (a simulator
        /// build is DIST002's question; watchOS bundles are judged by their own SDK's table, which is not kept).
        init?(_ bundle: AppBundle) {
            let info = bundle.infoPlist.dictionaryValue
            let sdkName = info?["DTSDKName"]?.stringValue
            let platform = info?["DTPlatformName"]?.stringValue ?? sdkName?.prefix { $0.isLetter }.description
            guard platform == "iphoneos" else { return nil }
            let version =
                info?["DTPlatformVersion"]?.stringValue ?? sdkName.map { String($0.drop { $0.isLetter }) }
            guard let version, let major = version.split(separator: ".").first.flatMap({ Int($0) }) else {
                return nil
            }
            self.major = major
            self.name = sdkName ?? "iphoneos\(version)"
        }
    }

    /// The SDK version from which TN3187's rule applies: "the next major release following iOS 26".
    static let sceneRequiredFromSDK = 27

    /// App Store Connect's minimum iOS SDK for uploads, from each date on.
    ///
    /// Sources: Apple developer news, "Upcoming requirements"; docs/ios-model.md I55. The iOS 27 SDK date ("April
    /// 2027") is known only second-hand and has no day: it is not enforced.
    static let uploadMinimums: [(from: Date, sdk: Int, xcode: Int)] = [
        (Date(timeIntervalSince1970: 1_745_452_800), 18, 16),  // 2025-04-24T00:00:00Z
        (Date(timeIntervalSince1970: 1_777_334_400), 26, 26),  // 2026-04-28T00:00:00Z
    ]

    /// The minimum in force at `now`, if any.
    static func uploadMinimum(at now: Date) -> (from: Date, sdk: Int, xcode: Int)? {
        uploadMinimums.last { $0.from <= now }
    }

    /// PLAT005 for the main app: built with the iOS 27 SDK or later, no `UIApplicationSceneManifest`.
    static func sceneLifeCycle(main: BundleFacts) -> [Finding] {
        guard main.bundle.kind == .app, let sdk = BuiltSDK(main.bundle), sdk.major >= sceneRequiredFromSDK,
            main.bundle.infoPlist.dictionaryValue?["UIApplicationSceneManifest"] == nil
        else { return [] }
        return [
            rules.sceneLifeCycleRequired.finding(
                "\(main.bundle.path) was built with the \(sdk.name) SDK and its Info.plist has no "
                    + "UIApplicationSceneManifest: TN3187 says such an app won't launch, so no link opens it",
                bundle: main.bundle.path
            )
        ]
    }

    /// PLAT006 for the main app of a build exported for the App Store, judged at `now`.
    static func uploadMinimum(main: BundleFacts, now: Date) -> [Finding] {
        guard let sdk = BuiltSDK(main.bundle), let minimum = uploadMinimum(at: now), sdk.major < minimum.sdk else {
            return []
        }
        let since = Date.ISO8601FormatStyle().year().month().day().format(minimum.from)
        return [
            rules.sdkBelowUploadMinimum.finding(
                "\(main.bundle.path) was built with the \(sdk.name) SDK; since \(since) App Store Connect accepts "
                    + "only builds made with Xcode \(minimum.xcode) or later and the iOS \(minimum.sdk) SDK",
                bundle: main.bundle.path
            )
        ]
    }

    /// Why PLAT006 does not apply to `input`, or `nil` when it does.
    static func uploadMinimumSkipped(_ input: GateInput) -> String? {
        guard let main = input.facts.first else { return "the build has no main app" }
        if input.distribution != .appStore {
            return "App Store Connect's SDK minimum applies to uploads: the build is not judged for the App Store"
        }
        if main.profile == nil, DistributionChecks.appStoreDelivery(main) != nil {
            return "an App Store delivery was uploaded already"
        }
        if BuiltSDK(main.bundle) == nil { return "the main app's Info.plist names no iOS SDK (DTSDKName)" }
        if uploadMinimum(at: input.options.now) == nil { return "no SDK minimum was in force at the time judged" }
        return nil
    }
}
