// SPDX-License-Identifier: Apache-2.0
#include "CMicroHTTPD.h"

// MHD_start_daemon, MHD_get_daemon_info and MHD_get_connection_info are variadic, which Swift
// cannot call: these typed wrappers give photomap's uses their own entry points.

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

bool photomap_mhd_drop_query_over(const char *uri, unsigned int limit) {
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

struct MHD_Daemon *photomap_mhd_start(const char *address, unsigned short port, unsigned int threads,
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

unsigned short photomap_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

bool photomap_mhd_is_opening(enum MHD_ConnectionNotificationCode code) {
    return code == MHD_CONNECTION_NOTIFY_STARTED;
}

int photomap_mhd_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

void photomap_mhd_client_address(struct MHD_Connection *connection, char *text, size_t size) {
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
