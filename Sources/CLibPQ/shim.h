// libpq's client API (Debian's libpq-dev): the types and constants only. The binary does not link libpq: it pulls
// in about twenty more shared libraries (TLS, Kerberos, LDAP) that every process would load and relocate at start,
// 7 ms of each CLI call. CLibPQLoader opens libpq when a PostgreSQL store is first used and calls it through that.
#include <postgresql/libpq-fe.h>
