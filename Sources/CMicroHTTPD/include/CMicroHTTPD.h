// SPDX-License-Identifier: Apache-2.0
#ifndef PHOTOMAP_CMICROHTTPD_H
#define PHOTOMAP_CMICROHTTPD_H

#include <arpa/inet.h>
#include <ctype.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>
typedef enum MHD_Result (*photomap_mhd_handler)(void *context, struct MHD_Connection *connection, const char *url,
                                                const char *method, const char *version, const char *upload_data,
                                                size_t *upload_data_size, void **request_context);

typedef void (*photomap_mhd_completed)(void *context, struct MHD_Connection *connection, void **request_context,
                                       enum MHD_RequestTerminationCode code);

typedef void (*photomap_mhd_connected)(void *context, struct MHD_Connection *connection, void **socket_context,
                                       enum MHD_ConnectionNotificationCode code);

typedef void *(*photomap_mhd_request_line)(void *context, const char *uri, struct MHD_Connection *connection);

// Whether the raw request target `uri` (as MHD's URI log callback sees it, before MHD parses its query)
// has more than `limit` query arguments. If so, its query is emptied in place, so that MHD parses none:
// MHD 0.9.75 keeps each argument in the connection's memory, and when they do not fit it stops reading
// the request without answering, holding the connection until it times out. The text is the
// connection's own read buffer, which MHD itself cuts up right after the callback.
bool photomap_mhd_drop_query_over(const char *uri, unsigned int limit);

// Starts a daemon listening on `address` (an IPv4 or IPv6 literal) and `port` (0: any free port),
// its connections served by `threads` polling threads (epoll), suspendable, paths and arguments
// unescaped by photomap_mhd_unescape. Bounds: at most `connection_limit` connections,
// `per_client_limit` of them from one client address, each idle at most `timeout` seconds, each with
// `memory_limit` bytes for its request line and headers (larger requests get 414 or 431 from MHD
// itself). `connected` hears of each connection opened and closed, `request_line` sees each request's
// raw target before MHD parses it.
// Returns NULL when the address does not parse or the daemon cannot start (errno tells).
struct MHD_Daemon *photomap_mhd_start(const char *address, unsigned short port, unsigned int threads,
        unsigned int connection_limit, unsigned int per_client_limit,
        unsigned int timeout, size_t memory_limit,
        photomap_mhd_handler handler, photomap_mhd_completed completed,
        photomap_mhd_connected connected,
        photomap_mhd_request_line request_line, void *context);

// The port the daemon listens on (the one the kernel chose for port 0).
unsigned short photomap_mhd_port(struct MHD_Daemon *daemon);

// Whether a connection notification tells of its opening (rather than its closing).
bool photomap_mhd_is_opening(enum MHD_ConnectionNotificationCode code);

// The socket of a connection (MHD's until it is closed).
int photomap_mhd_socket(struct MHD_Connection *connection);

// The client's address as text (IPv4 or IPv6) into `text` (INET6_ADDRSTRLEN bytes); "" when MHD has none.
void photomap_mhd_client_address(struct MHD_Connection *connection, char *text, size_t size);

#endif
