// SQLite's C API: the snapshot store of the file log, the projection export, and the benchmarks' peer.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline void (*CSQLite3_transient(void))(void *) { return (void (*)(void *))-1; }
