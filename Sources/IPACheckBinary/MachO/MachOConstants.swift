/// The magic numbers that open a Mach-O file or a universal (fat) binary, as read big-endian from offset 0.
///
/// Values are the constants of `<mach-o/loader.h>` and `<mach-o/fat.h>`; the `CIGAM` forms are the same magic
/// stored in the other byte order, which tells us the file's byte order.
package enum MachOMagic: UInt32, Sendable, CaseIterable {
    /// `FAT_MAGIC`: a universal binary whose arch table has 32-bit offsets and sizes (always big-endian).
    case fat = 0xcafe_babe
    /// `FAT_MAGIC_64`: a universal binary whose arch table has 64-bit offsets and sizes.
    case fat64 = 0xcafe_babf
    /// `MH_MAGIC`: a 32-bit Mach-O in big-endian byte order.
    case machO32 = 0xfeed_face
    /// `MH_CIGAM`: a 32-bit Mach-O in little-endian byte order (armv7, i386).
    case machO32Swapped = 0xcefa_edfe
    /// `MH_MAGIC_64`: a 64-bit Mach-O in big-endian byte order.
    case machO64 = 0xfeed_facf
    /// `MH_CIGAM_64`: a 64-bit Mach-O in little-endian byte order (arm64, x86_64).
    case machO64Swapped = 0xcffa_edfe
}

/// The load commands ipacheck reads (`cmd` values of `<mach-o/loader.h>`); every other command is skipped.
package enum LoadCommandType: UInt32, Sendable, CaseIterable {
    /// `LC_SEGMENT`: a 32-bit segment.
    case segment = 0x1
    /// `LC_SEGMENT_64`: a 64-bit segment.
    case segment64 = 0x19
    /// `LC_CODE_SIGNATURE`: where the code signature (a SuperBlob) lies in the slice.
    case codeSignature = 0x1d
    /// `LC_ENCRYPTION_INFO`: the FairPlay-encrypted range of a 32-bit slice.
    case encryptionInfo = 0x21
    /// `LC_ENCRYPTION_INFO_64`: the FairPlay-encrypted range of a 64-bit slice.
    case encryptionInfo64 = 0x2c
}

/// The kind of Mach-O file (`filetype` of `mach_header`, `MH_*` constants).
package enum MachOFileType: UInt32, Sendable, CaseIterable {
    /// `MH_OBJECT`: a relocatable object file.
    case object = 0x1
    /// `MH_EXECUTE`: an executable (an app's or extension's main binary).
    case execute = 0x2
    /// `MH_FVMLIB`: a fixed VM shared library.
    case fixedVMLibrary = 0x3
    /// `MH_CORE`: a core file.
    case core = 0x4
    /// `MH_PRELOAD`: a preloaded executable.
    case preload = 0x5
    /// `MH_DYLIB`: a dynamic library (frameworks, Swift runtime dylibs).
    case dylib = 0x6
    /// `MH_DYLINKER`: the dynamic linker.
    case dynamicLinker = 0x7
    /// `MH_BUNDLE`: a loadable bundle.
    case bundle = 0x8
    /// `MH_DYLIB_STUB`: a stub library.
    case dylibStub = 0x9
    /// `MH_DSYM`: debug symbols.
    case dSYM = 0xa
    /// `MH_KEXT_BUNDLE`: a kernel extension.
    case kextBundle = 0xb
    /// `MH_FILESET`: a file set (kernel collections).
    case fileSet = 0xc

    /// The short name `otool -h` and `file` use (`execute`, `dylib`).
    package var name: String {
        switch self {
        case .object: "object"
        case .execute: "execute"
        case .fixedVMLibrary: "fvmlib"
        case .core: "core"
        case .preload: "preload"
        case .dylib: "dylib"
        case .dynamicLinker: "dylinker"
        case .bundle: "bundle"
        case .dylibStub: "dylib_stub"
        case .dSYM: "dsym"
        case .kextBundle: "kext_bundle"
        case .fileSet: "fileset"
        }
    }
}

/// A CPU type and subtype pair (`cpu_type_t`, `cpu_subtype_t` of `<mach/machine.h>`), named as Apple's tools
/// name architectures.
package struct Architecture: Hashable, Sendable, CustomStringConvertible {
    /// `cputype` as stored (`CPU_TYPE_ARM64` = `0x0100000c`).
    package let cpuType: UInt32
    /// `cpusubtype` as stored, including the capability bits in the top byte (`CPU_SUBTYPE_PTRAUTH_ABI`).
    package let cpuSubtype: UInt32

    /// Creates an architecture from the raw header fields.
    package init(cpuType: UInt32, cpuSubtype: UInt32) {
        self.cpuType = cpuType
        self.cpuSubtype = cpuSubtype
    }

    /// `CPU_ARCH_ABI64`: the flag that makes a CPU type 64-bit.
    static let abi64: UInt32 = 0x0100_0000
    /// `CPU_ARCH_ABI64_32`: 64-bit hardware with 32-bit pointers (arm64_32).
    static let abi64With32BitPointers: UInt32 = 0x0200_0000
    /// `CPU_TYPE_X86`.
    static let x86: UInt32 = 7
    /// `CPU_TYPE_ARM`.
    static let arm: UInt32 = 12
    /// `CPU_TYPE_POWERPC`.
    static let powerPC: UInt32 = 18
    /// `CPU_SUBTYPE_MASK`: the capability bits of `cpusubtype`.
    static let subtypeCapabilityMask: UInt32 = 0xff00_0000

    /// The architecture's name as `lipo -info` prints it (`arm64`, `arm64e`, `armv7s`, `x86_64`), or
    /// `cputype 0x…/0x…` for pairs we do not know.
    package var name: String {
        let subtype = cpuSubtype & ~Self.subtypeCapabilityMask
        switch cpuType {
        case Self.arm | Self.abi64:
            switch subtype {
            case 2: return "arm64e"  // CPU_SUBTYPE_ARM64E
            case 1: return "arm64v8"  // CPU_SUBTYPE_ARM64_V8
            default: return "arm64"  // CPU_SUBTYPE_ARM64_ALL
            }
        case Self.arm | Self.abi64With32BitPointers:
            return "arm64_32"
        case Self.arm:
            switch subtype {
            case 5: return "armv4t"
            case 6: return "armv6"
            case 7: return "armv5"
            case 8: return "xscale"
            case 9: return "armv7"
            case 10: return "armv7f"
            case 11: return "armv7s"
            case 12: return "armv7k"
            case 13: return "armv8"
            case 14: return "armv6m"
            case 15: return "armv7m"
            case 16: return "armv7em"
            default: return "arm"
            }
        case Self.x86 | Self.abi64:
            return subtype == 8 ? "x86_64h" : "x86_64"  // CPU_SUBTYPE_X86_64_H
        case Self.x86:
            return "i386"
        case Self.powerPC:
            return "ppc"
        case Self.powerPC | Self.abi64:
            return "ppc64"
        default:
            return "cputype 0x\(String(cpuType, radix: 16))/0x\(String(cpuSubtype, radix: 16))"
        }
    }

    /// Whether the CPU type is a 64-bit one (`CPU_ARCH_ABI64`).
    package var is64Bit: Bool { cpuType & Self.abi64 != 0 }

    /// The name, so architectures print as `arm64`.
    package var description: String { name }
}
