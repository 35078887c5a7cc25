import IPACheckAASA
import IPACheckReport

/// The top level and the flat services (webcredentials, appclips, activitycontinuation).
extension LintContext {
    mutating func lintTopLevel() {
        let services = Set(AASAService.allCases.map(\.rawValue))
        for member in document.root.members ?? [] where !services.contains(member.key) {
            let hint = Self.closest(member.key, in: services).map { "; did you mean \"\($0)\"?" } ?? ""
            add(
                hint.isEmpty ? AASARules.lintEntries.ignoredExtraKey : AASARules.lintValues.unknownKey,
                "unknown top-level key \"\(member.key)\" is ignored\(hint)",
                at: member.key
            )
        }
        if document.services.isEmpty {
            add(
                AASARules.lintValues.wrongType,
                "the file has no usable applinks, webcredentials, appclips or activitycontinuation section",
                at: "(root)"
            )
        }
        for service in AASAService.allCases where service != .applinks {
            guard let value = document.root[service.rawValue] else { continue }
            lintFlatService(service, value)
        }
        if let value = document.root["applinks"] {
            if value.members == nil {
                add(
                    AASARules.lintValues.wrongType,
                    "applinks must be an object, found \(value.typeName)",
                    at: "applinks"
                )
            } else if let applinks = document.applinks {
                lintAppLinks(applinks)
            }
        }
    }

    mutating func lintFlatService(_ service: AASAService, _ value: AASAJSON) {
        let name = service.rawValue
        guard value.members != nil else {
            add(
                AASARules.lintValues.wrongType,
                "\(name) must be an object with an \"apps\" array, found \(value.typeName)",
                at: name
            )
            return
        }
        for member in value.members ?? [] where member.key != "apps" {
            add(
                AASARules.lintEntries.ignoredExtraKey,
                "key \"\(member.key)\" in \(name) is ignored",
                at: "\(name).\(member.key)"
            )
        }
        guard let apps = value["apps"] else {
            add(AASARules.lintValues.wrongType, "\(name) has no \"apps\" array, so it lists no app", at: name)
            return
        }
        guard let elements = apps.arrayValue else {
            add(
                AASARules.lintValues.wrongType,
                "\(name).apps must be an array of app IDs, found \(apps.typeName)",
                at: "\(name).apps"
            )
            return
        }
        if elements.isEmpty {
            add(
                AASARules.lintEntries.emptyAppsArray,
                "\(name).apps is empty, so the section lists no app",
                at: "\(name).apps"
            )
        }
        for (index, element) in elements.enumerated() {
            let location = "\(name).apps[\(index)]"
            if let appID = element.stringValue {
                lintAppID(appID, at: location)
            } else {
                add(
                    AASARules.lintValues.wrongType,
                    "\(location) is \(element.typeName), not an app ID string; it is ignored",
                    at: location
                )
            }
        }
    }
}
