#ifndef CLIBPQLOADER_H
#define CLIBPQLOADER_H
// libpq, opened at its first use (dlopen of libpq.so.5) instead of linked: see Sources/CLibPQ/shim.h. Each function
// has libpq's signature; call CLibPQLoader_available() first, which opens the library and finds every function.
#include <postgresql/libpq-fe.h>

/// Opens libpq and finds its functions once; 1 when they are all there, else 0 (CLibPQLoader_error says why).
int CLibPQLoader_available(void);
/// Why libpq could not be opened, or NULL.
const char *CLibPQLoader_error(void);

PGconn *ptpq_connectdbParams(const char *const *keywords, const char *const *values, int expand_dbname);
ConnStatusType ptpq_status(const PGconn *conn);
char *ptpq_errorMessage(const PGconn *conn);
void ptpq_finish(PGconn *conn);
PGresult *ptpq_exec(PGconn *conn, const char *query);
PGresult *ptpq_execParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues,
                          const int *paramLengths, const int *paramFormats, int resultFormat);
ExecStatusType ptpq_resultStatus(const PGresult *res);
char *ptpq_resultErrorField(const PGresult *res, int fieldcode);
void ptpq_clear(PGresult *res);
int ptpq_ntuples(const PGresult *res);
int ptpq_getisnull(const PGresult *res, int tup_num, int field_num);
int ptpq_getlength(const PGresult *res, int tup_num, int field_num);
char *ptpq_getvalue(const PGresult *res, int tup_num, int field_num);
int ptpq_backendPID(const PGconn *conn);
int ptpq_socket(const PGconn *conn);
int ptpq_consumeInput(PGconn *conn);
PGnotify *ptpq_notifies(PGconn *conn);
void ptpq_freemem(void *ptr);
int ptpq_putCopyData(PGconn *conn, const char *buffer, int nbytes);
int ptpq_putCopyEnd(PGconn *conn, const char *errormsg);
PGresult *ptpq_getResult(PGconn *conn);

#endif
