#include <isa-l/igzip_lib.h>
#include <isa-l/crc.h>

// ISA-L's AVX2 and AVX-512 routines return without `vzeroupper`: the upper halves of the vector registers stay in
// use, and every legacy-SSE instruction the thread runs afterwards pays for them (BoringSSL's SHA-NI SHA-256 took a
// third longer: docs/performance.md). IPACheckArchive's ISAL.swift clears them after each ISA-L call, as compilers
// do after their own AVX code.
#if defined(__x86_64__)
#include <cpuid.h>

// Whether the CPU and the OS run AVX code (CPUID.1:ECX OSXSAVE and AVX, XCR0 keeping the SSE and AVX state): only
// then may `vzeroupper` run, and only then can ISA-L have left the upper halves in use.
static inline int ipacheck_avx_usable(void) {
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & bit_OSXSAVE) || !(ecx & bit_AVX)) return 0;
    unsigned int low = 0, high = 0;
    __asm__ __volatile__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return (low & 6) == 6;
}

static inline void ipacheck_vzeroupper(void) { __asm__ __volatile__("vzeroupper"); }
#else
static inline int ipacheck_avx_usable(void) { return 0; }

static inline void ipacheck_vzeroupper(void) {}
#endif
