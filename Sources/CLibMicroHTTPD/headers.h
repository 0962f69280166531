// SPDX-License-Identifier: Apache-2.0
// The headers of the C library photomap's CMicroHTTPD (Sources/CMicroHTTPD) wraps: through pkg-config's flags.
#include <arpa/inet.h>
#include <ctype.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>
