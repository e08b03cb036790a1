// zstd's public API is plain, non-variadic C, so Swift calls ZSTD_* directly; this header only
// selects what we import. ZDICT (dictionary training) is part of the same shared library.
#include <zstd.h>
#include <zstd_errors.h>
#include <zdict.h>
