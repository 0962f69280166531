// SPDX-License-Identifier: Apache-2.0
#ifndef PHOTOMAP_CPQ_H
#define PHOTOMAP_CPQ_H

#include <libpq-fe.h>
void photomap_pq_quiet(PGconn *connection);

#endif
