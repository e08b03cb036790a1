// CRC-32C with the SSE4.2 crc32 instruction, 8 bytes at a time. Swift cannot emit this instruction, so it
// lives in this small C target; the function is compiled for SSE4.2 alone and used only after a CPU check.
#include "CPawtrailSupport.h"
#include <string.h>

#if defined(__x86_64__)
#include <nmmintrin.h>

int CPawtrailSupport_crc32c_hardware_available(void) {
    static int available = -1;
    if (available < 0) {
        __builtin_cpu_init();
        available = __builtin_cpu_supports("sse4.2") ? 1 : 0;
    }
    return available;
}

__attribute__((target("sse4.2")))
uint32_t CPawtrailSupport_crc32c_hardware(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *p = (const unsigned char *)bytes;
    uint64_t c = crc;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = _mm_crc32_u64(c, word);
        p += 8;
        count -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (count > 0) {
        c32 = _mm_crc32_u8(c32, *p);
        p += 1;
        count -= 1;
    }
    return c32;
}
#else
int CPawtrailSupport_crc32c_hardware_available(void) { return 0; }
uint32_t CPawtrailSupport_crc32c_hardware(uint32_t crc, const void *bytes, size_t count) {
    (void)bytes; (void)count;
    return crc;
}
#endif
