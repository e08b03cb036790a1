#ifndef C_PAWTRAIL_SUPPORT_H
#define C_PAWTRAIL_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU computes CRC-32C in hardware (x86-64 SSE4.2); checked once.
int CPawtrailSupport_crc32c_hardware_available(void);

/// Continues a CRC-32C in hardware. `crc` is the running value in its internal (inverted) form.
/// Call only when CPawtrailSupport_crc32c_hardware_available() returned 1.
uint32_t CPawtrailSupport_crc32c_hardware(uint32_t crc, const void *bytes, size_t count);

/// Sets the calling thread's nice value (Linux: nice is per thread). Returns 0, or -1 with errno set.
int CPawtrailSupport_set_thread_nice(int nice);

#endif
