#ifndef PHOTOMAP_CMICROHTTPD_SHIM_H
#define PHOTOMAP_CMICROHTTPD_SHIM_H

#include <arpa/inet.h>
#include <ctype.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>

// MHD_start_daemon, MHD_get_daemon_info and MHD_get_connection_info are variadic, which Swift
// cannot call: these typed wrappers give photomap's uses their own entry points.

typedef enum MHD_Result (*photomap_mhd_handler)(void *context, struct MHD_Connection *connection, const char *url,
                                                const char *method, const char *version, const char *upload_data,
                                                size_t *upload_data_size, void **request_context);
typedef void (*photomap_mhd_completed)(void *context, struct MHD_Connection *connection, void **request_context,
                                       enum MHD_RequestTerminationCode code);
typedef void (*photomap_mhd_connected)(void *context, struct MHD_Connection *connection, void **socket_context,
                                       enum MHD_ConnectionNotificationCode code);
typedef void *(*photomap_mhd_request_line)(void *context, const char *uri, struct MHD_Connection *connection);

static inline int photomap_mhd_hex(char digit) {
    return digit <= '9' ? digit - '0' : (digit | 0x20) - 'a' + 10;
}

// Percent-decodes a request's path, or a query argument, in place, as MHD's own unescaper does, except
// that %00 becomes 0xFF: MHD hands the path on as C text, so a NUL would end it there and
// "/assets/photomap.css%00.png" would be answered as "/assets/photomap.css". 0xFF is no UTF-8: it
// reads as U+FFFD, as any invalid byte does. Returns the decoded length.
static size_t photomap_mhd_unescape(void *context, struct MHD_Connection *connection, char *text) {
    (void)context;
    (void)connection;
    char *read = text, *write = text;
    while (*read) {
        if (read[0] == '%' && isxdigit((unsigned char)read[1]) && isxdigit((unsigned char)read[2])) {
            int value = photomap_mhd_hex(read[1]) * 16 + photomap_mhd_hex(read[2]);
            *write++ = (char)(value == 0 ? 0xFF : value);
            read += 3;
        } else {
            *write++ = *read++;
        }
    }
    *write = 0;
    return (size_t)(write - text);
}

// Whether the raw request target `uri` (as MHD's URI log callback sees it, before MHD parses its query)
// has more than `limit` query arguments. If so, its query is emptied in place, so that MHD parses none:
// MHD 0.9.75 keeps each argument in the connection's memory, and when they do not fit it stops reading
// the request without answering, holding the connection until it times out. The text is the
// connection's own read buffer, which MHD itself cuts up right after the callback.
static inline bool photomap_mhd_drop_query_over(const char *uri, unsigned int limit) {
    char *query = strchr(uri, '?');
    if (query == NULL) return false;
    unsigned int arguments = 1;
    for (const char *at = strchr(query, '&'); at != NULL; at = strchr(at + 1, '&')) {
        if (++arguments > limit) {
            query[1] = 0;
            return true;
        }
    }
    return false;
}

// Starts a daemon listening on `address` (an IPv4 or IPv6 literal) and `port` (0: any free port),
// its connections served by `threads` polling threads (epoll), suspendable, paths and arguments
// unescaped by photomap_mhd_unescape. Bounds: at most `connection_limit` connections,
// `per_client_limit` of them from one client address, each idle at most `timeout` seconds, each with
// `memory_limit` bytes for its request line and headers (larger requests get 414 or 431 from MHD
// itself). `connected` hears of each connection opened and closed, `request_line` sees each request's
// raw target before MHD parses it.
// Returns NULL when the address does not parse or the daemon cannot start (errno tells).
static inline struct MHD_Daemon *photomap_mhd_start(const char *address, unsigned short port, unsigned int threads,
                                                    unsigned int connection_limit, unsigned int per_client_limit,
                                                    unsigned int timeout, size_t memory_limit,
                                                    photomap_mhd_handler handler, photomap_mhd_completed completed,
                                                    photomap_mhd_connected connected,
                                                    photomap_mhd_request_line request_line, void *context) {
    struct sockaddr_storage storage;
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
    memset(&storage, 0, sizeof storage);
    struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
    if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
    } else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        flags |= MHD_USE_IPv6;
    } else {
        return NULL;
    }
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_SOCK_ADDR, 0, &storage },
        { MHD_OPTION_THREAD_POOL_SIZE, threads, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, connection_limit, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_client_limit, NULL },
        { MHD_OPTION_CONNECTION_TIMEOUT, timeout, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)memory_limit, NULL },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, context },
        { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)connected, context },
        { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)request_line, context },
        { MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)photomap_mhd_unescape, NULL },
        { MHD_OPTION_END, 0, NULL },
    };
    return MHD_start_daemon(flags, port, NULL, NULL, handler, context, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

// The port the daemon listens on (the one the kernel chose for port 0).
static inline unsigned short photomap_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

// Whether a connection notification tells of its opening (rather than its closing).
static inline bool photomap_mhd_is_opening(enum MHD_ConnectionNotificationCode code) {
    return code == MHD_CONNECTION_NOTIFY_STARTED;
}

// The socket of a connection (MHD's until it is closed).
static inline int photomap_mhd_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

// The client's address as text (IPv4 or IPv6) into `text` (INET6_ADDRSTRLEN bytes); "" when MHD has none.
static inline void photomap_mhd_client_address(struct MHD_Connection *connection, char *text, size_t size) {
    text[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, text, (socklen_t)size);
    } else if (address->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, text, (socklen_t)size);
    }
}

#endif
