// libpq opened at its first use; see include/CLibPQLoader.h.
#include "CLibPQLoader.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

static struct {
    PGconn *(*connectdbParams)(const char *const *, const char *const *, int);
    ConnStatusType (*status)(const PGconn *);
    char *(*errorMessage)(const PGconn *);
    void (*finish)(PGconn *);
    PGresult *(*exec)(PGconn *, const char *);
    PGresult *(*execParams)(PGconn *, const char *, int, const Oid *, const char *const *, const int *, const int *, int);
    ExecStatusType (*resultStatus)(const PGresult *);
    char *(*resultErrorField)(const PGresult *, int);
    void (*clear)(PGresult *);
    int (*ntuples)(const PGresult *);
    int (*getisnull)(const PGresult *, int, int);
    int (*getlength)(const PGresult *, int, int);
    char *(*getvalue)(const PGresult *, int, int);
    int (*backendPID)(const PGconn *);
    int (*socket)(const PGconn *);
    int (*consumeInput)(PGconn *);
    PGnotify *(*notifies)(PGconn *);
    void (*freemem)(void *);
    int (*putCopyData)(PGconn *, const char *, int);
    int (*putCopyEnd)(PGconn *, const char *);
    PGresult *(*getResult)(PGconn *);
} pq;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static const char *failure = NULL;

#define FIND(field, name)                                   \
    do {                                                    \
        *(void **)(&pq.field) = dlsym(handle, name);        \
        if (pq.field == NULL) { failure = "libpq.so.5 lacks " name; return; } \
    } while (0)

static void load(void) {
    void *handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        failure = dlerror();
        return;
    }
    FIND(connectdbParams, "PQconnectdbParams");
    FIND(status, "PQstatus");
    FIND(errorMessage, "PQerrorMessage");
    FIND(finish, "PQfinish");
    FIND(exec, "PQexec");
    FIND(execParams, "PQexecParams");
    FIND(resultStatus, "PQresultStatus");
    FIND(resultErrorField, "PQresultErrorField");
    FIND(clear, "PQclear");
    FIND(ntuples, "PQntuples");
    FIND(getisnull, "PQgetisnull");
    FIND(getlength, "PQgetlength");
    FIND(getvalue, "PQgetvalue");
    FIND(backendPID, "PQbackendPID");
    FIND(socket, "PQsocket");
    FIND(consumeInput, "PQconsumeInput");
    FIND(notifies, "PQnotifies");
    FIND(freemem, "PQfreemem");
    FIND(putCopyData, "PQputCopyData");
    FIND(putCopyEnd, "PQputCopyEnd");
    FIND(getResult, "PQgetResult");
    loaded = 1;
}

int CLibPQLoader_available(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *CLibPQLoader_error(void) {
    pthread_once(&once, load);
    return failure;
}

PGconn *ptpq_connectdbParams(const char *const *k, const char *const *v, int e) { return pq.connectdbParams(k, v, e); }
ConnStatusType ptpq_status(const PGconn *c) { return pq.status(c); }
char *ptpq_errorMessage(const PGconn *c) { return pq.errorMessage(c); }
void ptpq_finish(PGconn *c) { pq.finish(c); }
PGresult *ptpq_exec(PGconn *c, const char *q) { return pq.exec(c, q); }
PGresult *ptpq_execParams(PGconn *c, const char *q, int n, const Oid *t, const char *const *v, const int *l, const int *f, int r) {
    return pq.execParams(c, q, n, t, v, l, f, r);
}
ExecStatusType ptpq_resultStatus(const PGresult *r) { return pq.resultStatus(r); }
char *ptpq_resultErrorField(const PGresult *r, int f) { return pq.resultErrorField(r, f); }
void ptpq_clear(PGresult *r) { pq.clear(r); }
int ptpq_ntuples(const PGresult *r) { return pq.ntuples(r); }
int ptpq_getisnull(const PGresult *r, int t, int f) { return pq.getisnull(r, t, f); }
int ptpq_getlength(const PGresult *r, int t, int f) { return pq.getlength(r, t, f); }
char *ptpq_getvalue(const PGresult *r, int t, int f) { return pq.getvalue(r, t, f); }
int ptpq_backendPID(const PGconn *c) { return pq.backendPID(c); }
int ptpq_socket(const PGconn *c) { return pq.socket(c); }
int ptpq_consumeInput(PGconn *c) { return pq.consumeInput(c); }
PGnotify *ptpq_notifies(PGconn *c) { return pq.notifies(c); }
void ptpq_freemem(void *p) { pq.freemem(p); }
int ptpq_putCopyData(PGconn *c, const char *b, int n) { return pq.putCopyData(c, b, n); }
int ptpq_putCopyEnd(PGconn *c, const char *e) { return pq.putCopyEnd(c, e); }
PGresult *ptpq_getResult(PGconn *c) { return pq.getResult(c); }
