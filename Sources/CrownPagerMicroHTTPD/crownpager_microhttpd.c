// The libmicrohttpd loader and server (include/CrownPagerMicroHTTPD.h).
//
// libmicrohttpd's declarations used here are written out below rather than taken from
// <microhttpd.h>: the values are those of the 0.9.x ABI (soname 12), unchanged since 0.9.71, so
// the build needs no libmicrohttpd-dev and the arm64 build root stays as it is.
#include "CrownPagerMicroHTTPD.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/types.h>

// MARK: libmicrohttpd's ABI (<microhttpd.h>, 0.9.75)

struct MHD_Daemon;
struct MHD_Connection;
struct MHD_Response;
enum { mhd_no = 0, mhd_yes = 1 };
/// MHD_USE_IPv6, MHD_USE_EPOLL, MHD_ALLOW_SUSPEND_RESUME (which includes MHD_USE_ITC).
enum { use_ipv6 = 16, use_epoll = 512, allow_suspend_resume = 8192 | 1024 };
/// MHD_OPTION_END, _CONNECTION_MEMORY_LIMIT, _CONNECTION_LIMIT, _CONNECTION_TIMEOUT, _NOTIFY_COMPLETED, _SOCK_ADDR.
enum { option_end = 0, option_memory = 1, option_connections = 2, option_timeout = 3, option_completed = 4 };
enum { option_address = 6 };
/// MHD_DAEMON_INFO_EPOLL_FD; MHD_HEADER_KIND, MHD_GET_ARGUMENT_KIND; MHD_RESPMEM_MUST_COPY.
enum { info_epoll_descriptor = 3, header_kind = 1, argument_kind = 8, memory_must_copy = 2 };
/// MHD_CONNECTION_INFO_CONNECTION_FD (its answer, a union, starts with the socket's int).
enum { info_connection_descriptor = 6 };
/// MHD_CONTENT_READER_END_OF_STREAM, MHD_CONTENT_READER_END_WITH_ERROR; MHD_SIZE_UNKNOWN.
#define END_OF_STREAM ((ssize_t)-1)
#define END_WITH_ERROR ((ssize_t)-2)
#define SIZE_UNKNOWN UINT64_MAX

typedef int (*access_handler)(
    void *cls, struct MHD_Connection *connection, const char *url, const char *method, const char *version,
    const char *upload_data, size_t *upload_data_size, void **con_cls);
typedef ssize_t (*content_reader)(void *cls, uint64_t pos, char *buf, size_t max);
typedef void (*content_reader_free)(void *cls);
typedef void (*request_completed)(void *cls, struct MHD_Connection *connection, void **con_cls, int reason);

/// libmicrohttpd's functions the server calls.
static struct {
    struct MHD_Daemon *(*MHD_start_daemon)(
        unsigned int flags, uint16_t port, void *apc, void *apc_cls, access_handler dh, void *dh_cls, ...);
    void (*MHD_stop_daemon)(struct MHD_Daemon *daemon);
    int (*MHD_run)(struct MHD_Daemon *daemon);
    int (*MHD_get_timeout)(struct MHD_Daemon *daemon, unsigned long long *timeout);
    const void *(*MHD_get_daemon_info)(struct MHD_Daemon *daemon, int info_type, ...);
    const void *(*MHD_get_connection_info)(struct MHD_Connection *connection, int info_type, ...);
    const char *(*MHD_lookup_connection_value)(struct MHD_Connection *connection, int kind, const char *key);
    struct MHD_Response *(*MHD_create_response_from_buffer)(size_t size, void *buffer, int mode);
    struct MHD_Response *(*MHD_create_response_from_callback)(
        uint64_t size, size_t block_size, content_reader crc, void *crc_cls, content_reader_free crfc);
    int (*MHD_add_response_header)(struct MHD_Response *response, const char *header, const char *content);
    int (*MHD_queue_response)(struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response);
    void (*MHD_destroy_response)(struct MHD_Response *response);
    void (*MHD_suspend_connection)(struct MHD_Connection *connection);
    void (*MHD_resume_connection)(struct MHD_Connection *connection);
    const char *(*MHD_get_version)(void);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = -1;
static char load_error[1024];
static char *override;

static void load(void) {
    const char *chosen = getenv(CROWNPAGER_MICROHTTPD_LIBRARY_VARIABLE);
    if (chosen && *chosen) override = strdup(chosen);
    void *library = dlopen(override ? override : CROWNPAGER_MICROHTTPD_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : "unknown error");
        return;
    }
#define RESOLVE(name)                                                                                               \
    dlerror();                                                                                                      \
    *(void **)&api.name = dlsym(library, #name);                                                                    \
    if (!api.name) {                                                                                                \
        const char *reason = dlerror();                                                                             \
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : #name);                                     \
        dlclose(library);                                                                                           \
        return;                                                                                                     \
    }
    RESOLVE(MHD_start_daemon)
    RESOLVE(MHD_stop_daemon)
    RESOLVE(MHD_run)
    RESOLVE(MHD_get_timeout)
    RESOLVE(MHD_get_daemon_info)
    RESOLVE(MHD_get_connection_info)
    RESOLVE(MHD_lookup_connection_value)
    RESOLVE(MHD_create_response_from_buffer)
    RESOLVE(MHD_create_response_from_callback)
    RESOLVE(MHD_add_response_header)
    RESOLVE(MHD_queue_response)
    RESOLVE(MHD_destroy_response)
    RESOLVE(MHD_suspend_connection)
    RESOLVE(MHD_resume_connection)
    RESOLVE(MHD_get_version)
#undef RESOLVE
    // The library stays open for the life of the process: the pointers point into it.
    load_status = 0;
}

int crownpager_httpd_load(void) {
    pthread_once(&load_once, load);
    return load_status;
}

const char *crownpager_httpd_load_error(void) { return crownpager_httpd_load() == 0 ? NULL : load_error; }

const char *crownpager_httpd_library_override(void) {
    crownpager_httpd_load();
    return override;
}

const char *crownpager_httpd_version(void) { return crownpager_httpd_load() == 0 ? api.MHD_get_version() : NULL; }

// MARK: The server

/// A stream being answered; freed by libmicrohttpd's free callback when the response goes.
struct stream {
    crownpager_httpd *server;
    struct MHD_Connection *connection;
    uint64_t id;
    /// Suspended until the glass changes; its socket is then watched for the browser leaving.
    int sleeping;
    /// The socket watched while it sleeps, or -1.
    int watched;
    /// The browser went while it slept: the stream ends at its next read.
    int departed;
    struct stream *next;
};

struct crownpager_httpd {
    struct MHD_Daemon *daemon;
    /// What the run loop polls: an epoll set of libmicrohttpd's own epoll descriptor and the
    /// sockets of the sleeping streams. libmicrohttpd drops a suspended connection's socket from
    /// its set, so without this a browser that leaves a still glass would keep its connection
    /// (one of the limit's) until the glass next changes, which on a static page is never.
    int descriptor;
    int library_descriptor;
    void *context;
    crownpager_httpd_handler handler;
    crownpager_httpd_reader reader;
    crownpager_httpd_closed closed;
    struct stream *streams;
    /// Whether the handler answered the request it was given.
    int answered;
};

/// What a connection's con_cls holds between the calls of its request: NULL before its head, then
/// 1 plus the bytes of body received so far (a count, not a pointer: no allocation to free).
#define RECEIVED(count) ((void *)(uintptr_t)(1 + (count)))
#define RECEIVED_BYTES(state) ((uintptr_t)(state) - 1)
/// The body bytes read (and dropped) before a request is refused by closing its connection.
enum { body_limit = 64 * 1024 };
/// The server whose handler runs now (one thread answers one request at a time): the answer marks it.
static crownpager_httpd *answering;

/// Watches a sleeping stream's socket for the browser's end (its FIN or a reset): nothing else
/// comes on an event stream's socket, so a still glass still wakes nothing.
static void watch_stream(struct stream *stream) {
    const int *socket = api.MHD_get_connection_info(stream->connection, info_connection_descriptor);
    if (!socket) return;
    struct epoll_event event = {.events = EPOLLRDHUP, .data.ptr = stream};
    if (epoll_ctl(stream->server->descriptor, EPOLL_CTL_ADD, *socket, &event) == 0) stream->watched = *socket;
}

/// Resumes a sleeping stream (libmicrohttpd carries it out at its next run).
static void resume_stream(struct stream *stream) {
    if (!stream->sleeping) return;
    stream->sleeping = 0;
    if (stream->watched >= 0) epoll_ctl(stream->server->descriptor, EPOLL_CTL_DEL, stream->watched, NULL);
    stream->watched = -1;
    api.MHD_resume_connection(stream->connection);
}

static ssize_t read_stream(void *cls, uint64_t position, char *buffer, size_t capacity) {
    (void)position;
    struct stream *stream = cls;
    // A browser that went: libmicrohttpd closes the connection and frees the stream.
    if (stream->departed) return END_WITH_ERROR;
    long count = stream->server->reader(stream->server->context, stream->id, buffer, capacity);
    if (count > 0) return count;
    if (count < 0) return END_OF_STREAM;
    // Nothing to send: the socket leaves the epoll set until a wake, so an idle stream costs no wake-ups.
    stream->sleeping = 1;
    api.MHD_suspend_connection(stream->connection);
    watch_stream(stream);
    return 0;
}

static void free_stream(void *cls) {
    struct stream *stream = cls;
    crownpager_httpd *server = stream->server;
    for (struct stream **link = &server->streams; *link; link = &(*link)->next) {
        if (*link == stream) {
            *link = stream->next;
            break;
        }
    }
    server->closed(server->context, stream->id);
    free(stream);
}

static int respond(struct MHD_Connection *connection, unsigned status, const char *type, const void *body,
    size_t length, const char *name, const char *value) {
    struct MHD_Response *response = api.MHD_create_response_from_buffer(length, (void *)body, memory_must_copy);
    if (!response) return -1;
    if (type) api.MHD_add_response_header(response, "Content-Type", type);
    api.MHD_add_response_header(response, "Cache-Control", "no-store");
    if (name && value) api.MHD_add_response_header(response, name, value);
    int queued = api.MHD_queue_response(connection, status, response);
    api.MHD_destroy_response(response);
    return queued == mhd_yes ? 0 : -1;
}

static int handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
    const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls) {
    (void)version;
    (void)upload_data;
    crownpager_httpd *server = cls;
    if (*con_cls == NULL) {
        // The head alone: wait for the end of the request (and see whether a body comes).
        *con_cls = RECEIVED(0);
        return mhd_yes;
    }
    if (*upload_data_size != 0) {
        // The mirror's requests carry everything in the path and the query: a body is dropped
        // unread and the request refused at its end; one too long to wait for closes the connection.
        uintptr_t received = RECEIVED_BYTES(*con_cls) + *upload_data_size;
        *upload_data_size = 0;
        *con_cls = RECEIVED(received);
        return received > body_limit ? mhd_no : mhd_yes;
    }
    if (RECEIVED_BYTES(*con_cls) > 0) {
        static const char message[] = "the mirror takes no request body: the crown's turn goes in the query\n";
        return respond(connection, 413, "text/plain; charset=utf-8", message, sizeof message - 1, NULL, NULL) == 0
                   ? mhd_yes
                   : mhd_no;
    }
    server->answered = 0;
    answering = server;
    server->handler(server->context, (crownpager_httpd_request *)connection, method, url);
    answering = NULL;
    if (server->answered) return mhd_yes;
    static const char message[] = "the mirror did not answer\n";
    return respond(connection, 500, "text/plain; charset=utf-8", message, sizeof message - 1, NULL, NULL) == 0
               ? mhd_yes
               : mhd_no;
}

/// Why a daemon could not start on `address`: libmicrohttpd's cleanup leaves errno as it finds it
/// (EBADF where a cgroup's SocketBindDeny= refused the bind with EPERM), so the bind is tried
/// again on a socket of our own, set as the library sets its own, and that errno told.
static int bind_failure(const struct sockaddr *address, socklen_t length) {
    int failure = errno ? errno : EADDRINUSE;
    int probe = socket(address->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (probe < 0) return errno;
    int on = 1;
    setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (address->sa_family == AF_INET6) setsockopt(probe, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
    if (bind(probe, address, length) != 0) failure = errno;
    close(probe);
    return failure;
}

crownpager_httpd *crownpager_httpd_start(
    const char *address, int port, unsigned connections, unsigned idle_seconds, size_t memory, void *context,
    crownpager_httpd_handler handler, crownpager_httpd_reader reader, crownpager_httpd_closed closed) {
    if (crownpager_httpd_load() != 0) {
        errno = ENOENT;
        return NULL;
    }
    struct sockaddr_storage storage;
    memset(&storage, 0, sizeof storage);
    unsigned flags = use_epoll | allow_suspend_resume;
    struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
    if (port < 1 || port > 65535) {
        errno = EINVAL;
        return NULL;
    }
    if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
    } else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        flags |= use_ipv6;
    } else {
        errno = EINVAL;
        return NULL;
    }
    crownpager_httpd *server = calloc(1, sizeof *server);
    if (!server) return NULL;
    server->context = context;
    server->handler = handler;
    server->reader = reader;
    server->closed = closed;
    errno = 0;
    server->daemon = api.MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, handle, server, option_address,
        (struct sockaddr *)&storage, option_connections, connections, option_timeout, idle_seconds, option_memory,
        memory, option_end);
    if (!server->daemon) {
        int failure = bind_failure((struct sockaddr *)&storage, flags & use_ipv6 ? sizeof *v6 : sizeof *v4);
        free(server);
        errno = failure;
        return NULL;
    }
    const int *descriptor = api.MHD_get_daemon_info(server->daemon, info_epoll_descriptor);
    server->library_descriptor = descriptor ? *descriptor : -1;
    server->descriptor = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event library = {.events = EPOLLIN, .data.ptr = NULL};
    if (server->library_descriptor < 0 || server->descriptor < 0
        || epoll_ctl(server->descriptor, EPOLL_CTL_ADD, server->library_descriptor, &library) != 0) {
        int failure = errno ? errno : EINVAL;
        if (server->descriptor >= 0) close(server->descriptor);
        api.MHD_stop_daemon(server->daemon);
        free(server);
        errno = failure;
        return NULL;
    }
    return server;
}

int crownpager_httpd_descriptor(const crownpager_httpd *server) { return server->descriptor; }

long long crownpager_httpd_timeout(crownpager_httpd *server) {
    unsigned long long milliseconds = 0;
    if (api.MHD_get_timeout(server->daemon, &milliseconds) != mhd_yes) return -1;
    return milliseconds > (unsigned long long)INT32_MAX ? INT32_MAX : (long long)milliseconds;
}

int crownpager_httpd_run(crownpager_httpd *server) {
    // The sleeping streams whose browsers went are resumed to end; the library's own events wait
    // for its run. Up to 64 a pass: more come at the next, as the set is level-triggered.
    struct epoll_event events[64];
    int count = epoll_wait(server->descriptor, events, 64, 0);
    int departed = 0;
    for (int index = 0; index < count; index++) {
        struct stream *stream = events[index].data.ptr;
        if (!stream) continue;
        stream->departed = 1;
        resume_stream(stream);
        departed = 1;
    }
    if (api.MHD_run(server->daemon) != mhd_yes) return -1;
    // A resume is carried out at the start of a run: this one ends the departed streams.
    if (departed && api.MHD_run(server->daemon) != mhd_yes) return -1;
    return 0;
}

void crownpager_httpd_wake(crownpager_httpd *server) {
    for (struct stream *stream = server->streams; stream; stream = stream->next) resume_stream(stream);
}

void crownpager_httpd_stop(crownpager_httpd *server) {
    if (!server) return;
    // Stopping with a suspended connection is an API violation (it leaks it): all wake first.
    crownpager_httpd_wake(server);
    api.MHD_stop_daemon(server->daemon);
    close(server->descriptor);
    free(server);
}

const char *crownpager_httpd_header(crownpager_httpd_request *request, const char *name) {
    return api.MHD_lookup_connection_value((struct MHD_Connection *)request, header_kind, name);
}

const char *crownpager_httpd_argument(crownpager_httpd_request *request, const char *name) {
    return api.MHD_lookup_connection_value((struct MHD_Connection *)request, argument_kind, name);
}

int crownpager_httpd_respond(
    crownpager_httpd_request *request, unsigned status, const char *content_type, const void *body, size_t length,
    const char *header_name, const char *header_value) {
    int result = respond((struct MHD_Connection *)request, status, content_type, body, length, header_name,
        header_value);
    if (result == 0 && answering) answering->answered = 1;
    return result;
}

int crownpager_httpd_stream(crownpager_httpd_request *request, uint64_t id, const char *content_type) {
    if (!answering) return -1;
    struct stream *stream = calloc(1, sizeof *stream);
    if (!stream) return -1;
    stream->server = answering;
    stream->connection = (struct MHD_Connection *)request;
    stream->id = id;
    stream->watched = -1;
    // 4 KiB blocks: a frame's event (1.4 KB for 128x64) goes in one write. The response's free
    // callback unlinks and frees the stream, whether it ends or is never queued.
    struct MHD_Response *response =
        api.MHD_create_response_from_callback(SIZE_UNKNOWN, 4096, read_stream, stream, free_stream);
    if (!response) {
        free(stream);
        return -1;
    }
    stream->next = answering->streams;
    answering->streams = stream;
    api.MHD_add_response_header(response, "Content-Type", content_type);
    api.MHD_add_response_header(response, "Cache-Control", "no-store");
    int queued = api.MHD_queue_response(stream->connection, 200, response);
    api.MHD_destroy_response(response);
    if (queued != mhd_yes) return -1;
    answering->answered = 1;
    return 0;
}
