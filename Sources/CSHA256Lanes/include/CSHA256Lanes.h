#ifndef IPACHECK_CSHA256LANES_H
#define IPACHECK_CSHA256LANES_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU has the SHA extensions (with SSSE3 and SSE4.1) that the lanes use: x86-64 only.
int ipacheck_sha256_lanes_available(void);

/// Runs SHA-256's compression over `firstBlocks` 64-byte blocks at `firstData`, continuing the eight-word state at
/// `firstState`, and likewise for the second message (none when `secondBlocks` is 0). The two are interleaved while
/// both have blocks left, which keeps the CPU's SHA unit busy: one message at a time waits on each round's result.
/// Call only when `ipacheck_sha256_lanes_available()` says so.
void ipacheck_sha256_lanes_compress(uint32_t *firstState, const uint8_t *firstData, size_t firstBlocks,
                                    uint32_t *secondState, const uint8_t *secondData, size_t secondBlocks);

#endif
