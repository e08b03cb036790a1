#ifndef C_PAWTRAIL_SUPPORT_H
#define C_PAWTRAIL_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <malloc.h>

/// Whether this CPU computes CRC-32C in hardware (x86-64 SSE4.2); checked once.
int CPawtrailSupport_crc32c_hardware_available(void);

/// Continues a CRC-32C in hardware. `crc` is the running value in its internal (inverted) form.
/// Call only when CPawtrailSupport_crc32c_hardware_available() returned 1.
uint32_t CPawtrailSupport_crc32c_hardware(uint32_t crc, const void *bytes, size_t count);

/// Sets the calling thread's nice value (Linux: nice is per thread). Returns 0, or -1 with errno set.
int CPawtrailSupport_set_thread_nice(int nice);

/// Loads a 64-bit word with acquire ordering: a page's "checked" bit, set by any thread.
static inline uint64_t CPawtrailSupport_load_acquire(const uint64_t *word) { return __atomic_load_n(word, __ATOMIC_ACQUIRE); }

/// Sets bits of a 64-bit word with release ordering, whatever other threads set meanwhile.
static inline void CPawtrailSupport_or_release(uint64_t *word, uint64_t bits) { __atomic_fetch_or(word, bits, __ATOMIC_RELEASE); }

/// Asks the CPU to bring the cache line at `address` in ahead of its use (a hint: no fault, no effect on results).
static inline void CPawtrailSupport_prefetch(const void *address) { __builtin_prefetch(address, 0, 0); }

/// Has glibc's allocator grow its heaps `top_pad` bytes at a time and serve blocks below `mmap_threshold` from them.
static inline void CPawtrailSupport_tune_malloc(size_t top_pad, size_t mmap_threshold) {
    mallopt(M_TOP_PAD, (int)top_pad);
    mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold);
}

#endif
