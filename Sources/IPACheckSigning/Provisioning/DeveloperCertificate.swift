package import IPACheckCMS

/// One entry of a profile's `DeveloperCertificates`: the certificates allowed to sign apps with it.
package enum DeveloperCertificate: Hashable, Sendable {
    /// A certificate that parsed.
    case certificate(CertificateSummary)
    /// Bytes that are not a DER certificate (redacted or damaged fixtures), with the reason.
    case unreadable(reason: String)

    init(der bytes: [UInt8]) {
        if let summary = CertificateSummary(der: bytes) {
            self = .certificate(summary)
        } else {
            self = .unreadable(reason: "\(bytes.count) bytes that are not a DER certificate")
        }
    }
}
