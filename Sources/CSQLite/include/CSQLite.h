// SPDX-License-Identifier: Apache-2.0
#ifndef PHOTOMAP_CSQLITE_H
#define PHOTOMAP_CSQLITE_H

#include <sqlite3.h>
// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift does not import:
// binding with it makes SQLite copy the bytes before the call returns.
int photomap_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length);

// The same for bytes (SQLite copies them; a NULL pointer with length 0 binds an empty blob).
int photomap_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length);

#endif
