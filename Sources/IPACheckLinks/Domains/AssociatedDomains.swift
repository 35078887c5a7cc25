package import IPACheckPlist

/// Reads `com.apple.developer.associated-domains` from an entitlements dictionary into ``AssociatedDomain``s
/// plus the problems of each entry and of the list as a whole.
package enum AssociatedDomains {
    /// The entitlement key.
    package static let key = "com.apple.developer.associated-domains"
    /// The boolean entitlement an app needs to accept MDM-supplied associated domains.
    package static let mdmManagedKey = "com.apple.developer.associated-domains.mdm-managed"
    /// More entries than this is a `tooMany` problem; Apple's guide advises about 20 to 30.
    package static let recommendedMaximum = 30
    /// The most entries read; a hostile entitlement with more is cut short (and reported).
    package static let readLimit = 10_000

    /// `com.apple.developer.associated-domains[index]`, where findings about one element point.
    package static func location(of index: Int) -> String {
        "\(key)[\(index)]"
    }

    /// What reading the entitlement found: its entries, and every problem with where it is.
    package struct Reading: Sendable {
        /// The string entries, in order.
        package let domains: [AssociatedDomain]
        /// Each entry's problems and the list's own, in order.
        package let problems: [Located]
    }

    /// A problem with the bundle, entry and array position it belongs to.
    package struct Located: Hashable, Sendable {
        /// What is wrong.
        package let problem: AssociatedDomain.Problem
        /// The bundle whose entitlement it is.
        package let bundle: String?
        /// The entry, as findings name a domain.
        package let domain: String?
        /// `com.apple.developer.associated-domains[index]`, or the key for the whole list.
        package let location: String

        /// A problem of the list or of one entry.
        init(_ problem: AssociatedDomain.Problem, bundle: String?, domain: String? = nil, location: String) {
            self.problem = problem
            self.bundle = bundle
            self.domain = domain
            self.location = location
        }

        /// A problem found here, of `kind`, said in `message`.
        init(
            _ kind: AssociatedDomain.Problem.Kind,
            _ message: String,
            bundle: String?,
            domain: String? = nil,
            location: String
        ) {
            self.init(
                AssociatedDomain.Problem(kind: kind, message: message),
                bundle: bundle,
                domain: domain,
                location: location
            )
        }
    }

    /// The associated domains of `entitlements`, in order, and what is wrong with them.
    ///
    /// An absent key gives no domains and no problems. Every string element is a domain, whatever is wrong with it
    /// (``AssociatedDomain/problems`` says why iOS ignores it); an element that is not a string is a problem only.
    /// Each domain's ``AssociatedDomain/index`` is its position in the array, and each problem carries the entry as
    /// `domain` and `com.apple.developer.associated-domains[index]` as `location`, so positions match the signed
    /// array however many elements before it are broken.
    ///
    /// - Parameters:
    ///   - entitlements: The entitlements dictionary.
    ///   - bundle: The bundle problems name.
    ///   - settingsPending: For an entitlements file Xcode has not signed yet: an entry that holds a build setting
    ///     (`$(NAME)`) is substituted when Xcode signs, so it is listed with a pending setting as its only problem
    ///     and left out of the checks (``AssociatedDomain/isUsable`` is false). `false` for signed entitlements,
    ///     where such an entry was never substituted and iOS reads it literally.
    package static func from(
        entitlements: PlistValue,
        bundle: String? = nil,
        settingsPending: Bool = false
    ) -> Reading {
        guard let value = entitlements[key] else { return Reading(domains: [], problems: []) }
        guard let elements = value.arrayValue else {
            let problem = Located(
                .notAnArray,
                "\(key) is \(value.typeNameWithArticle), not an array of strings; iOS ignores it",
                bundle: bundle,
                location: key
            )
            return Reading(domains: [], problems: [problem])
        }
        var problems: [Located] = []
        if elements.isEmpty {
            problems.append(
                Located(
                    .empty,
                    "\(key) is present but empty: the capability is on, with no domain",
                    bundle: bundle,
                    location: key
                )
            )
        }
        var domains: [AssociatedDomain] = []
        var seen: [String: (index: Int, entry: String)] = [:]
        for (index, element) in elements.prefix(readLimit).enumerated() {
            guard let entry = element.stringValue else {
                problems.append(
                    Located(
                        .notAnArray,
                        "element \(index) is \(element.typeNameWithArticle), not a string; iOS ignores it",
                        bundle: bundle,
                        location: location(of: index)
                    )
                )
                continue
            }
            var domain = AssociatedDomain.parse(entry: entry)
            domain.index = index
            if settingsPending, AssociatedDomain.holdsBuildSetting(entry) {
                domain.problems = [
                    AssociatedDomain.Problem(
                        kind: .pendingBuildSetting,
                        message: "\(entry) holds a build setting, which Xcode substitutes when it signs: its value is "
                            + "unknown here, so the entry is left out of the checks",
                        fix: "Check the built ipa, or the .xcent Xcode writes into the build folder, where the setting "
                            + "is substituted."
                    )
                ]
            }
            for problem in domain.problems {
                problems.append(
                    Located(problem, bundle: bundle, domain: domain.findingDomain, location: location(of: index))
                )
            }
            let identity =
                "\(domain.service.name):\(domain.wildcard ? "*." : "")\(domain.host)?\(domain.mode?.rawValue ?? "")"
            if let first = seen[identity] {
                problems.append(
                    Located(
                        .duplicate,
                        "'\(entry)' repeats entry \(first.index) ('\(first.entry)')",
                        bundle: bundle,
                        domain: domain.findingDomain,
                        location: location(of: index)
                    )
                )
            } else {
                seen[identity] = (index, entry)
            }
            domains.append(domain)
        }
        if elements.count > readLimit {
            problems.append(
                Located(
                    .tooMany,
                    "\(key) has \(elements.count) entries; only the first \(readLimit) were read",
                    bundle: bundle,
                    location: key
                )
            )
        } else if domains.count > recommendedMaximum {
            problems.append(
                Located(
                    .tooMany,
                    "\(key) has \(domains.count) entries (more than about \(recommendedMaximum))",
                    bundle: bundle,
                    location: key
                )
            )
        }
        problems += wildcardsWithoutApex(domains, bundle: bundle)
        return Reading(domains: domains, problems: problems)
    }

    /// `*.example.com` never matches `example.com` itself: note wildcards whose apex is not listed too.
    private static func wildcardsWithoutApex(_ domains: [AssociatedDomain], bundle: String?) -> [Located] {
        var problems: [Located] = []
        for (index, domain) in domains.enumerated() where domain.wildcard && domain.isUsable {
            let apexListed = domains.contains { other in
                !other.wildcard && other.host == domain.host && other.service == domain.service
            }
            if !apexListed {
                problems.append(
                    Located(
                        .wildcardWithoutApex,
                        "'\(domain.entry)' covers subdomains of \(domain.host) but not \(domain.host) itself, "
                            + "which is not listed",
                        bundle: bundle,
                        domain: domain.findingDomain,
                        location: domain.location(fallback: index)
                    )
                )
            }
        }
        return problems
    }
}
