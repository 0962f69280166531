#ifndef PHOTOMAP_CSQLITE_SHIM_H
#define PHOTOMAP_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift does not import:
// binding with it makes SQLite copy the bytes before the call returns.
static inline int photomap_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

// The same for bytes (SQLite copies them; a NULL pointer with length 0 binds an empty blob).
static inline int photomap_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes ? bytes : "", length, SQLITE_TRANSIENT);
}

#endif
