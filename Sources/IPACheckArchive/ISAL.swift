internal import CIsal

/// The ISA-L calls ipacheck makes, each leaving the vector registers as compiled code expects them.
///
/// ISA-L's AVX2 and AVX-512 routines return with the upper halves of the vector registers still in use (no
/// `vzeroupper`). Until they are cleared, every legacy-SSE instruction on the thread pays for them: BoringSSL's
/// SHA-NI SHA-256, which the seal pass runs over every byte ISA-L inflates, took a third longer, the largest cost
/// of `check` beyond the floor (docs/performance.md). So each call here is followed by `vzeroupper`, as compilers
/// follow their own AVX code.
enum ISAL {
    /// Whether the CPU runs AVX code, so `vzeroupper` exists (checked once).
    private static let clearsUpperState = ipacheck_avx_usable() != 0

    /// `isal_inflate` on `state`: its status.
    static func inflate(_ state: UnsafeMutablePointer<inflate_state>) -> Int32 {
        let status = unsafe isal_inflate(state)
        clearUpperState()
        return status
    }

    /// The zip (gzip, reflected) CRC-32 of `count` bytes at `bytes`, continuing `crc`.
    static func crc32(_ crc: UInt32, _ bytes: UnsafePointer<UInt8>, count: UInt64) -> UInt32 {
        let result = unsafe crc32_gzip_refl(crc, bytes, count)
        clearUpperState()
        return result
    }

    private static func clearUpperState() {
        if clearsUpperState { ipacheck_vzeroupper() }
    }
}
