import IPACheckPlist
import IPACheckReport
import Testing

@testable import IPACheckGate
@testable import IPACheckLinks

/// Every string of the associated-domains array is a domain, and every index a finding or a domain carries is the
/// element's position in the signed array, however many elements before it are broken or ignored.
struct AssociatedDomainIndexTests {
    static let key = AssociatedDomains.key

    static func read(_ elements: [PlistValue], settingsPending: Bool = false) -> AssociatedDomains.Reading {
        AssociatedDomains.from(entitlements: .dictionary([key: .array(elements)]), settingsPending: settingsPending)
    }

    @Test("each domain carries its index in the array, a non-string element counted")
    func domainsCarryTheirIndex() {
        let result = Self.read([.integer(7), .string("applinks:a.com"), .string("applinks:$(HOST)")])
        #expect(result.domains.map(\.entry) == ["applinks:a.com", "applinks:$(HOST)"])
        #expect(result.domains.map(\.index) == [1, 2])
        #expect(result.domains.map { $0.location() } == ["\(Self.key)[1]", "\(Self.key)[2]"])
    }

    @Test("a duplicate names the index of the entry it repeats, not its position among the strings")
    func duplicateNamesTheSignedIndex() throws {
        // Old code: "repeats entry 0", because the integer was not counted.
        let result = Self.read([.integer(7), .string("applinks:a.com"), .string("applinks:a.com")])
        let duplicate = try #require(result.findings.first { $0.rule == "ENT018" })
        #expect(duplicate.message.contains("repeats entry 1 ('applinks:a.com')"), "\(duplicate.message)")
        #expect(duplicate.location == "\(Self.key)[2]")
    }

    @Test("an unexpanded entry before a duplicate keeps the indices of the signed array")
    func unexpandedEntryKeepsIndices() throws {
        let result = Self.read([
            .string("applinks:a.com"), .string("applinks:$(LINK_DOMAIN)"), .string("webcredentials:a.com"),
            .string("applinks:a.com"),
        ])
        #expect(result.domains.count == 4)
        let duplicate = try #require(result.findings.first { $0.rule == "ENT018" })
        #expect(duplicate.message.contains("repeats entry 0"))
        #expect(duplicate.location == "\(Self.key)[3]")
        let unexpanded = result.domains[1]
        #expect(unexpanded.index == 1)
        #expect(!unexpanded.isUsable)
        let reason = try #require(unexpanded.problems.first { $0.rule.id == "ENT012" })
        #expect(reason.message.contains("ignores the entry"), "\(reason.message)")
        #expect(result.findings.filter { $0.rule == "ENT012" }.map(\.location) == ["\(Self.key)[1]"])
    }

    @Test("a wildcard without its apex points at its own index")
    func wildcardWithoutApexIndex() {
        // Old code: [1], its position among the strings.
        let result = Self.read([.integer(7), .string("applinks:a.com"), .string("applinks:*.b.com")])
        #expect(result.findings.filter { $0.rule == "ENT020" }.map(\.location) == ["\(Self.key)[2]"])
    }

    @Test("a developer-mode domain in a distribution build points at its index in the signed array")
    func alternateModeIndex() {
        // Old code: [0], its position among the strings.
        let result = Self.read([.bool(true), .string("applinks:a.com?mode=developer")])
        let findings = AssociatedDomainRules.alternateModeFindings(result.domains, signing: .distribution)
        #expect(findings.map(\.location) == ["\(Self.key)[1]"])
    }

    @Test("an entitlements file's build setting: listed at its index, left out, one finding with the given rule")
    func pendingSettingIsListedAndLeftOut() throws {
        let result = Self.read(
            [.string("applinks:a.com"), .string("applinks:$(LINK_DOMAIN)"), .string("applinks:a.com")],
            settingsPending: true
        )
        #expect(result.domains.map(\.entry) == ["applinks:a.com", "applinks:$(LINK_DOMAIN)", "applinks:a.com"])
        let unexpanded = result.domains[1]
        #expect(unexpanded.index == 1)
        #expect(!unexpanded.isUsable, "never a fetch target")
        #expect(unexpanded.problems.map(\.rule.id) == ["ENT201"])
        let own = result.findings.filter { $0.location == "\(Self.key)[1]" }
        #expect(own.map(\.rule) == ["ENT201"], "no ENT012, ENT014 or ENT016 for a value Xcode substitutes later")
        let duplicate = try #require(result.findings.first { $0.rule == "ENT018" })
        #expect(duplicate.location == "\(Self.key)[2]")
        #expect(duplicate.message.contains("repeats entry 0"))
    }

    @Test("an entry parsed on its own has no index; findings about it point at the key or the caller's position")
    func standaloneEntry() {
        let domain = AssociatedDomain.parse(entry: "applinks:a.com?mode=developer")
        #expect(domain.index == nil)
        #expect(domain.location() == Self.key)
        #expect(domain.location(fallback: 4) == "\(Self.key)[4]")
        let findings = AssociatedDomainRules.alternateModeFindings([domain], signing: .distribution)
        #expect(findings.map(\.location) == ["\(Self.key)[0]"])
    }
}
