import Foundation
import IPACheckBundle
import IPACheckFuzzSupport
import IPACheckGate
import IPACheckLinks
import IPACheckPlist
import IPACheckSigning

/// DER entitlements (the `0xfade7172` payload) decoded, then used the way `check` and `entitlements` use them:
/// rendered as XML and JSON, associated domains read, compared with a profile's grants.
enum EntitlementsHarness {
    /// A profile's entitlements with the wildcards real profiles carry, so the comparison walks its wildcard paths.
    static let profileGrants: [String: PlistValue] = [
        "application-identifier": .string("ABCDE12345.*"),
        "com.apple.developer.team-identifier": .string("ABCDE12345"),
        "keychain-access-groups": .array([.string("ABCDE12345.*")]),
        "com.apple.developer.associated-domains": .string("*"),
        "get-task-allow": .bool(false),
        "aps-environment": .string("production"),
    ]

    static func run(_ bytes: [UInt8]) {
        guard let value = try? DEREntitlements.decode(bytes) else { return }
        _ = value.xmlDocument
        _ = try? JSONEncoder().encode(value)
        _ = AssociatedDomains.from(entitlements: value)
        if let signed = value.dictionaryValue {
            _ = EntitlementComparison.compare(signed: signed, profile: profileGrants)
            _ = EntitlementComparison.compare(signed: profileGrants, profile: signed)
        }
    }
}

/// Fuzzes with libFuzzer in a fuzz build, replays the files named on the command line otherwise.
@main
enum Main {
    static func main() { FuzzMain.run(EntitlementsHarness.run) }
}
