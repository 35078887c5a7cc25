package import Foundation
package import IPACheckBundle
package import IPACheckDevice
package import IPACheckLinks

/// What a device's own record says about one link, joined with the build and the files the model judged.
///
/// Each diagnosis is data: a stable ID, whether it explains the link opening the browser on this device, what it
/// says and how to fix it, the source of that reading (docs/device.md), and the lines of the evidence it rests on.
package struct DeviceDiagnosis: Encodable, Sendable, Equatable {
    /// A stable ID (`DEV001`…), listed with its source in docs/device.md.
    package let id: String
    /// Whether it explains a tap opening the browser on this device.
    package let breaksLink: Bool
    /// What the record shows, in one or two sentences.
    package let summary: String
    /// What to do about it, when something can be done.
    package let fix: String?
    /// Where the reading comes from.
    package let source: String
    /// The lines of the evidence (`swcutil_show.txt`) it rests on.
    package let evidenceLines: [Int]
}

/// What of a build a device's record is compared with: each bundle's app ID and `CFBundleVersion`, and how the
/// build is signed.
package struct DeviceComparedBuild: Sendable {
    package struct Bundle: Sendable {
        package let appID: String
        package let version: String?

        package init(appID: String, version: String?) {
            self.appID = appID
            self.version = version
        }
    }

    package let bundles: [Bundle]
    package let signing: SigningKind?

    package init(bundles: [Bundle], signing: SigningKind?) {
        self.bundles = bundles
        self.signing = signing
    }

    /// The build whose bundles the gate read as `facts` (the main app first).
    package init(facts: [BundleFacts]) {
        bundles = facts.compactMap { fact in fact.appID.map { Bundle(appID: $0, version: fact.bundle.build) } }
        signing = facts.first?.signingKind
    }
}

/// The diagnoses of one applinks claim on a device: the reading of docs/device.md ("Diagnoses"), in the order a
/// support engineer would check them.
package enum DeviceDiagnoses {
    /// What the model found for the link, as the device step needs it.
    package struct Model: Sendable {
        /// The app ID whose entries are read.
        package let appID: String
        /// The claim's host, whether it was `*.`, and its mode (`developer`, `managed`…).
        package let host: String
        package let wildcard: Bool
        package let mode: String?
        /// Whether the copy of the file devices read now grants the link (`rules` matched).
        package let copyGrants: Bool?
        /// How old Apple's CDN copy is, when devices read it and the run fetched it (seconds).
        package let cdnAgeSeconds: Int?
        /// When the site says its file last changed (the origin's `Last-Modified`), when it says.
        package var originLastModified: Date? = nil

        package init(
            appID: String,
            host: String,
            wildcard: Bool,
            mode: String?,
            copyGrants: Bool?,
            cdnAgeSeconds: Int?
        ) {
            self.appID = appID
            self.host = host
            self.wildcard = wildcard
            self.mode = mode
            self.copyGrants = copyGrants
            self.cdnAgeSeconds = cdnAgeSeconds
        }
    }

    /// The entry of `model`'s claim the device holds (or the nearest one), and the diagnoses.
    package static func diagnose(
        _ model: Model,
        device: DeviceEvidence,
        build: DeviceComparedBuild,
        now: Date
    ) -> (entry: SwcutilEntry?, diagnoses: [DeviceDiagnosis]) {
        let record = device.record
        let reference = device.capturedAt ?? now
        let ofApp = record.entries.filter { $0.service == "applinks" && $0.appID == model.appID }
        guard !ofApp.isEmpty else { return (nil, [notInstalled(model, record: record)]) }
        let sameDomain = ofApp.filter { $0.domain.host == model.host && $0.domain.isWildcard == model.wildcard }
        let wantedModes = model.mode.map { $0.split(separator: "+").map(String.init) } ?? []
        guard let entry = sameDomain.first(where: { $0.domain.modes == wantedModes }) ?? sameDomain.first else {
            return (nil, [noEntry(model, among: ofApp)])
        }
        var found: [DeviceDiagnosis] = []
        let entryName = entry.domain.raw
        if entry.domain.modes != wantedModes {
            found.append(
                .init(
                    id: "DEV003",
                    breaksLink: false,
                    summary: "the device holds \(entryName), the build signs \(model.wildcard ? "*." : "")\(model.host)"
                        + (model.mode.map { "?mode=\($0)" } ?? "")
                        + ": the device runs another variant of the app (a Debug or Release build of other "
                        + "entitlements)",
                    fix: "install the build being checked, or check the build the device runs",
                    source: "docs/device.md, \"Diagnoses\" (the record's Domain against the build's entitlement)",
                    evidenceLines: entry.lines(of: ["Domain"])
                )
            )
        }
        let builtVersion = build.bundles.first { $0.appID == model.appID }?.version
        if let version = entry.appVersion, let builtVersion, version != builtVersion {
            found.append(
                .init(
                    id: "DEV004",
                    breaksLink: false,
                    summary: "the device runs version \(version) of the app; the build checked is \(builtVersion)",
                    fix: "ask for the build the device runs, or install this one and capture again",
                    source: "docs/device.md, \"Diagnoses\" (App Version against CFBundleVersion)",
                    evidenceLines: entry.lines(of: ["App Version"])
                )
            )
        }
        if let setting = record.settings.first(where: {
            $0.appID == model.appID && $0.service == "applinks" && $0.domain == nil && $0.linksEnabled == false
        }) {
            found.append(
                .init(
                    id: "DEV005",
                    breaksLink: true,
                    summary: "the app's links are turned off on this device (com.apple.LaunchServices.enabled = 0): "
                        + "they open in the browser",
                    fix: "long-press a link to the app and choose to open it in the app",
                    source: "docs/device.md, \"Settings\" (inferred; which gesture writes it is not documented)",
                    evidenceLines: [setting.line]
                )
            )
        }
        if entry.userApproval == .denied {
            found.append(
                .init(
                    id: "DEV006",
                    breaksLink: true,
                    summary: "the user chose the browser for \(entryName) (User Approval: denied): not a "
                        + "configuration problem",
                    fix: "long-press the link (in Notes, say) and choose \"Open in\" the app; iOS keeps that choice "
                        + "for the domain",
                    source: "Apple, TN3155 (\"Test universal links behavior\")",
                    evidenceLines: entry.lines(of: ["User Approval"])
                )
            )
        }
        if !entry.missingKeys.isEmpty {
            found.append(
                .init(
                    id: "DEV019",
                    breaksLink: false,
                    summary: "the device's entry of \(entryName) has no \(entry.missingKeys.joined(separator: ", ")) "
                        + "line, which swcutil always prints (a trimmed paste?): what is absent is unknown",
                    fix: "send the whole swcutil_show.txt (or the whole `sudo swcutil show` output)",
                    source: "docs/device.md, \"Format\"",
                    evidenceLines: [entry.lines.lowerBound]
                )
            )
        }
        found += siteVerdict(entry, model: model, reference: reference, now: now)
        if entry.domain.modes.contains("developer") {
            var reasons: [String] = []
            if record.developerMode == false { reasons.append("developer mode is off on this device") }
            if build.signing == .distribution { reasons.append("the build is not development-signed") }
            if !reasons.isEmpty {
                found.append(
                    .init(
                        id: "DEV015",
                        breaksLink: true,
                        summary: "the device ignores the developer-mode entry \(entryName): "
                            + reasons.joined(separator: " and "),
                        fix: "turn on Settings > Developer > Associated Domains Development on a development-signed "
                            + "build, or claim the domain without ?mode=developer in a release",
                        source: "Apple, Associated Domains Entitlement (alternate mode)",
                        evidenceLines: entry.lines(of: ["Domain", "Flags"])
                            + record.preamble.filter {
                                $0.key == "Developer Mode"
                            }.map(\.line)
                    )
                )
            }
        }
        if let next = entry.nextCheck?.date, reference.timeIntervalSince(next) > 3_600 {
            found.append(
                .init(
                    id: "DEV016",
                    breaksLink: false,
                    summary: "the device's check was overdue: its Next Check (\(entry.nextCheck?.raw ?? "")) was "
                        + "before the capture; the device was offline or held it back, so its verdict may be stale",
                    fix: "let the device go online for a while and capture again",
                    source: "docs/device.md, \"What each state means\" (inferred timing)",
                    evidenceLines: entry.lines(of: ["Next Check"])
                )
            )
        }
        if let retries = entry.retries, retries >= 8 {
            found.append(
                .init(
                    id: "DEV017",
                    breaksLink: false,
                    summary: "\(retries) failed checks in a row: the device now waits longer and longer between them",
                    fix: "fix the download, then reinstall the app to check at once",
                    source: "docs/device.md, \"What each state means\" (inferred)",
                    evidenceLines: entry.lines(of: ["Retries"])
                )
            )
        }
        if let last = entry.lastChecked?.date, let next = entry.nextCheck?.date, next < last {
            found.append(
                .init(
                    id: "DEV018",
                    breaksLink: false,
                    summary: "the entry's Next Check is before its Last Checked, which no device writes (TN3155's own "
                        + "example has it): its dates are not to be trusted",
                    fix: nil,
                    source: "docs/device.md, \"What each state means\"",
                    evidenceLines: entry.lines(of: ["Last Checked", "Next Check"])
                )
            )
        }
        if !found.contains(where: \.breaksLink), entry.siteApproval == .approved, model.copyGrants != false {
            found.append(
                .init(
                    id: "DEV010",
                    breaksLink: false,
                    summary: "the device agrees: the site approves the app for \(entryName) and the user made no "
                        + "opposite choice; what is left is how the link is opened (see the causes)",
                    fix: nil,
                    source: "Apple, TN3155 (\"If it is approved, your universal links are working correctly\")",
                    evidenceLines: entry.lines(of: ["User Approval", "Site/Fmwk Approval"])
                )
            )
        }
        return (entry, found)
    }

    /// The site's verdict on the device against the file devices read now.
    private static func siteVerdict(
        _ entry: SwcutilEntry,
        model: Model,
        reference: Date,
        now: Date
    ) -> [DeviceDiagnosis] {
        let name = entry.domain.raw
        let recheck = entry.nextCheck.map { " The device checks again at \($0.raw); a reinstall checks at once." } ?? ""
        guard let site = entry.siteApproval else { return [] }
        switch site {
        case .approved:
            guard model.copyGrants == false else { return [] }
            return [
                .init(
                    id: "DEV011",
                    breaksLink: false,
                    summary: "the device approved the app for \(name) from the file it read at "
                        + "\(entry.lastChecked?.raw ?? "its last check"); the file devices read now does not open this "
                        + "link, so it stops opening once the device reads it again." + recheck,
                    fix: "fix the file (see the AASA and rules steps) before the device checks again",
                    source: "Apple, TN3155; docs/device.md, \"What each state means\"",
                    evidenceLines: entry.lines(of: ["Site/Fmwk Approval", "Last Checked", "Next Check"])
                )
            ]
        case .denied:
            if model.copyGrants == true {
                return [stale(entry, model: model, now: now, recheck: recheck)]
            }
            return [
                .init(
                    id: "DEV008",
                    breaksLink: true,
                    summary: "the device read the site's file and it does not grant \(model.appID) applinks for "
                        + "\(name) (Site/Fmwk Approval: denied)",
                    fix: "list \(model.appID) under applinks in the file devices read (see the AASA and rules steps)."
                        + recheck,
                    source: "Apple, TN3155",
                    evidenceLines: entry.lines(of: ["Site/Fmwk Approval"])
                )
            ]
        case .unspecified:
            if let error = entry.error {
                let meaning = SwcutilErrorMeaning(error, host: entry.domain.host)
                let fixedNow =
                    model.copyGrants == true
                    ? " The file devices read now opens this link: fixed since, the device retries at its Next "
                        + "Check (3–4 hours after a failure); a reinstall retries at once." : ""
                return [
                    .init(
                        id: "DEV009",
                        breaksLink: true,
                        summary: "the device's last check of \(name) failed: "
                            + (meaning.words.hasSuffix(".") ? meaning.words : meaning.words + ".") + fixedNow,
                        fix: "make https://\(entry.domain.host)/.well-known/apple-app-site-association answer 200 with "
                            + "the JSON file to Apple's CDN (`ipacheck aasa \(entry.domain.host)`), then reinstall",
                        source: meaning.source,
                        evidenceLines: entry.lines(of: ["Site/Fmwk Approval", "Error", "Retries"])
                    )
                ]
            }
            if entry.lastChecked == nil {
                return [
                    .init(
                        id: "DEV012",
                        breaksLink: true,
                        summary: "the device has not checked \(name) yet (no Last Checked): no verdict, so links open "
                            + "in the browser until it does",
                        fix: "keep the device online for a few minutes after installing, then capture again",
                        source: "Apple, TN3155; docs/device.md, \"What each state means\"",
                        evidenceLines: entry.lines(of: ["Site/Fmwk Approval"])
                    )
                ]
            }
            return [
                .init(
                    id: "DEV013",
                    breaksLink: true,
                    summary: "the device has no verdict for \(name) (Site/Fmwk Approval: unspecified) although it "
                        + "checked at \(entry.lastChecked?.raw ?? "")",
                    fix: "check that the host serves the file to all IP addresses and user agents (TN3155), then "
                        + "reinstall",
                    source: "Apple, TN3155",
                    evidenceLines: entry.lines(of: ["Site/Fmwk Approval", "Last Checked"])
                )
            ]
        case .other(let state):
            return [
                .init(
                    id: "DEV014",
                    breaksLink: false,
                    summary: "the device's site approval for \(name) is \(state), a state without a documented "
                        + "meaning",
                    fix: nil,
                    source: "docs/device.md, \"What each state means\" (unknown)",
                    evidenceLines: entry.lines(of: ["Site/Fmwk Approval"])
                )
            ]
        }
    }

    /// A denial the file devices read now would not give.
    private static func stale(_ entry: SwcutilEntry, model: Model, now: Date, recheck: String) -> DeviceDiagnosis {
        var timing = ""
        if let modified = model.originLastModified, let last = entry.lastChecked?.date, last < modified {
            timing +=
                " The device checked (\(entry.lastChecked?.raw ?? "")) before the site's file last changed "
                + "(Last-Modified \(DeviceDiagnoses.httpDate.string(from: modified)))."
        }
        if let age = model.cdnAgeSeconds, let last = entry.lastChecked?.date {
            let cdnTook = now.addingTimeInterval(TimeInterval(-age))
            timing +=
                last < cdnTook
                ? " The device checked (\(entry.lastChecked?.raw ?? "")) before Apple's CDN took the copy it serves "
                    + "now."
                : " The device checked after Apple's CDN took the copy it serves now, so the copy it read is not "
                    + "known: compare the CDN copy with the origin's."
        }
        return .init(
            id: "DEV007",
            breaksLink: true,
            summary: "a stale device verdict: the device's record says denied for \(entry.domain.raw), but the file "
                + "devices read now opens this link." + timing + recheck,
            fix: "reinstall the app to make the device read the file now, or wait for its Next Check",
            source: "Apple, TN3155 (\"To download a newer version of the AASA file, reinstall the app\")",
            evidenceLines: entry.lines(of: ["Site/Fmwk Approval", "Last Checked", "Next Check"])
        )
    }

    /// HTTP's date form (RFC 9110 IMF-fixdate), as `Last-Modified` is sent.
    package static var httpDate: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }

    /// The record has no applinks entry of the app at all.
    private static func notInstalled(_ model: Model, record: SwcutilRecord) -> DeviceDiagnosis {
        let bundleID = model.appID.split(separator: ".", maxSplits: 1).last.map(String.init) ?? model.appID
        let others = Set(
            record.entries.filter { $0.appID != model.appID && $0.appID.hasSuffix("." + bundleID) }.map(\.appID)
        ).sorted()
        let lines = record.entries.filter { others.contains($0.appID) }.map { $0.lines.lowerBound }
        return .init(
            id: "DEV001",
            breaksLink: true,
            summary: "the device holds no applinks entry for \(model.appID): the app is not installed there, or "
                + "another build of it is"
                + (others.isEmpty
                    ? ""
                    : " (the device has \(others.joined(separator: ", ")): the same bundle ID under another team "
                        + "prefix, a re-signed or enterprise build)"),
            fix: "install this build on the device (or capture the sysdiagnose on the device that runs it) and "
                + "capture again",
            source: "docs/device.md, \"Diagnoses\" (entries are kept per app ID)",
            evidenceLines: lines
        )
    }

    /// The app has entries, but none for the claimed domain.
    private static func noEntry(_ model: Model, among entries: [SwcutilEntry]) -> DeviceDiagnosis {
        let held = entries.map(\.domain.raw)
        return .init(
            id: "DEV002",
            breaksLink: true,
            summary: "the device holds no applinks entry of \(model.appID) for \(model.wildcard ? "*." : "")"
                + "\(model.host) (it holds \(held.joined(separator: ", "))): it runs a build without that domain, "
                + "or iOS could not take the entry (a port; IDN hosts were recorded unspecified, not missing)",
            fix: "install the build being checked and capture again",
            source: "docs/device.md, \"Diagnoses\"",
            evidenceLines: entries.map { $0.lines(of: ["Domain"]) }.flatMap { $0 }
        )
    }
}
