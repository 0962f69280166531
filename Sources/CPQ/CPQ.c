// SPDX-License-Identifier: Apache-2.0
#include "CPQ.h"

// Notices (a migration's "relation already exists, skipping") would go to stderr: nothing photomap
// prints comes from the server unasked.
static void photomap_pq_ignore_notice(void *argument, const char *message) {
    (void)argument;
    (void)message;
}

void photomap_pq_quiet(PGconn *connection) {
    PQsetNoticeProcessor(connection, photomap_pq_ignore_notice, NULL);
}
