// zstd's public API is plain, non-variadic C, so Swift calls ZSTD_* directly; this header only
// selects what we import. ZDICT (dictionary training) is part of the same shared library.
#include <zstd.h>
#include <zstd_errors.h>
// The fast-cover trainer with fixed parameters is declared behind ZDICT_STATIC_LINKING_ONLY; Debian's libzstd
// exports it like the rest of the library.
#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>
