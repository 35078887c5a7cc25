package import Foundation
import IPACheckAASA
package import IPACheckDevice
import IPACheckLinks

/// The device's entry of the claim, as the `device` step of `explain --device` shows it.
package struct DeviceRecordFacts: Encodable, Sendable {
    /// The evidence as given, the member or file the text came from, and when it was captured.
    package let evidence: String
    package let member: String?
    package let capturedAt: Date?
    /// The entry's domain as the device wrote it, its approvals, dates and error; absent when the device holds no
    /// entry of the claim.
    package let domain: String?
    package let userApproval: String?
    package let siteApproval: String?
    package let lastChecked: String?
    package let nextCheck: String?
    package let error: String?
    /// The entry's lines in the evidence.
    package let lines: [Int]?

    /// The facts of `entry` (none when the device holds no entry of the claim) in `device`'s record.
    init(_ device: DeviceEvidence, entry: SwcutilEntry?) {
        evidence = device.path
        member = device.member
        capturedAt = device.capturedAt
        domain = entry?.domain.raw
        userApproval = entry?.userApproval?.word
        siteApproval = entry?.siteApproval?.word
        lastChecked = entry?.lastChecked?.raw
        nextCheck = entry?.nextCheck?.raw
        error = entry?.error?.raw
        lines = entry.map { [$0.lines.lowerBound, $0.lines.upperBound] }
    }
}

extension LinkExplanation {
    /// The explanation with the device as a step, before the causes outside the files.
    ///
    /// The step says what the record holds of the claim (``DeviceDiagnoses``); a link the files open but the device's
    /// record does not breaks on this device.
    package func joined(with device: DeviceEvidence, build: DeviceComparedBuild, now: Date) -> LinkExplanation {
        let claim = (steps.last { $0.name == "entry" } ?? steps.last { $0.name == "claim" })?.claims?.first
        guard let appID = claim?.appID ?? appID ?? build.bundles.first?.appID else {
            return inserting(
                .init(name: "device", status: .notChecked, summary: "no app ID to look for in the device's record"),
                verdictBreaks: nil
            )
        }
        let host = claim?.host ?? LinkURL(url).host ?? ""
        let deviceCopy = copies.first { $0.devicesRead }
        let decision = steps.last { $0.name == "rules" }?.decision
        var model = DeviceDiagnoses.Model(
            appID: appID,
            host: host,
            wildcard: claim?.wildcard ?? false,
            mode: claim?.mode,
            copyGrants: decision.map { $0.verdict == .match },
            cdnAgeSeconds: deviceCopy?.copy == "cdn" ? deviceCopy?.ageSeconds : nil
        )
        model.originLastModified = copies.first { $0.copy == "origin" }?.lastModified.flatMap {
            DeviceDiagnoses.httpDate.date(from: $0)
        }
        let (entry, diagnoses) = DeviceDiagnoses.diagnose(model, device: device, build: build, now: now)
        let breaking = diagnoses.first { $0.breaksLink }
        let agrees = diagnoses.contains { $0.id == "DEV010" }
        var step = LinkExplanation.Step(
            name: "device",
            status: breaking != nil ? .fail : agrees ? .pass : .info,
            summary: breaking?.summary
                ?? diagnoses.first?.summary
                ?? "the device's record holds \(entry?.domain.raw ?? host) for \(appID)"
        )
        step.details = diagnoses.map { diagnosis in
            let lines = diagnosis.evidenceLines.map(String.init).joined(separator: ", ")
            return "\(diagnosis.id) \(diagnosis.summary)" + (diagnosis.fix.map { " Fix: \($0)" } ?? "")
                + " [\(diagnosis.source)\(lines.isEmpty ? "" : "; evidence line\(diagnosis.evidenceLines.count == 1 ? "" : "s") \(lines)")]"
        }
        step.device = DeviceRecordFacts(device, entry: entry)
        step.diagnoses = diagnoses
        return inserting(step, verdictBreaks: verdict == .opens ? breaking : nil)
    }

    /// The explanation with `step` before the causes; when `verdictBreaks` names a diagnosis, the link breaks on
    /// this device and the conclusion says so.
    private func inserting(_ step: Step, verdictBreaks: DeviceDiagnosis?) -> LinkExplanation {
        var steps = self.steps
        steps.insert(step, at: steps.firstIndex { $0.name == "causes" } ?? steps.endIndex)
        return LinkExplanation(
            url: url,
            verdict: verdictBreaks == nil ? verdict : .breaks,
            bundle: bundle,
            appID: appID,
            steps: steps,
            copies: copies,
            rule: rule,
            findings: findings,
            conclusion: verdictBreaks.map {
                "the files open it, but on this device it opens the browser: \($0.id) \($0.summary)"
            } ?? conclusion
        )
    }
}
