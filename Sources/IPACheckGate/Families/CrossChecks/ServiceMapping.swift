import IPACheckAASA
import IPACheckLinks

/// Maps entitlement services to AASA sections.
enum ServiceMapping {
    /// The AASA section that answers for `service`, or nil for services ipacheck cannot judge (authsrv, unknown).
    static func aasaService(_ service: AssociatedDomain.Service) -> AASAService? {
        switch service {
        case .applinks: .applinks
        case .webcredentials: .webcredentials
        case .appclips: .appclips
        case .activitycontinuation: .activitycontinuation
        case .authsrv, .unknown: nil
        }
    }
}
