// libpq's client API (Debian's libpq-dev): connections, parameterized statements with binary values, results,
// notifications. Its functions are plain C, so Swift calls PQ* directly; this header only selects what we import.
#include <libpq-fe.h>
