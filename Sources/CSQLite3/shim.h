// SQLite's C API, used by the benchmark peer (tools/bench) and, later, the projection export.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline void (*CSQLite3_transient(void))(void *) { return (void (*)(void *))-1; }
