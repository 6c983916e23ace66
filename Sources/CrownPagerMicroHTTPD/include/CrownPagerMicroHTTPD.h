// GNU libmicrohttpd, loaded at run time when [web] listens: the live mirror's HTTP side.
//
// Like CrownPagerMosquitto, the program links no libmicrohttpd: a run without [web] maps nothing
// of it, and a system without Debian's libmicrohttpd12 runs the pager without the mirror. The few
// declarations of <microhttpd.h> the shim needs are its own (libmicrohttpd's ABI, soname 12, is
// stable since 0.9.x), so the build needs no libmicrohttpd-dev. The environment variable
// CROWNPAGER_LIBMICROHTTPD names a library to open instead (a path or a soname), for tests.
//
// The daemon runs in libmicrohttpd's external mode with epoll: one descriptor for the whole
// server, which the run loop adds to its poll(2), and MHD_get_timeout for its deadline. A stream
// (Server-Sent Events) that has nothing to send is suspended: its socket leaves the epoll set
// until crownpager_httpd_wake, so an idle mirror with clients connected wakes nothing.
#ifndef CROWNPAGER_MICROHTTPD_H
#define CROWNPAGER_MICROHTTPD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The soname opened on first use (Debian's libmicrohttpd12, libmicrohttpd12t64 from Debian 13).
#define CROWNPAGER_MICROHTTPD_LIBRARY "libmicrohttpd.so.12"
/// The environment variable naming a library to open instead.
#define CROWNPAGER_MICROHTTPD_LIBRARY_VARIABLE "CROWNPAGER_LIBMICROHTTPD"

/// Loads libmicrohttpd (once): 0 when every function the server uses was found, -1 otherwise
/// (crownpager_httpd_load_error says why).
int crownpager_httpd_load(void);
/// Why the library could not be loaded: dlerror()'s text; NULL when it is loaded.
const char *crownpager_httpd_load_error(void);
/// The CROWNPAGER_LIBMICROHTTPD value tried instead of the soname; NULL when unset or empty.
const char *crownpager_httpd_library_override(void);
/// The loaded library's version, e.g. "0.9.75"; NULL when not loaded.
const char *crownpager_httpd_version(void);

/// A running server.
typedef struct crownpager_httpd crownpager_httpd;
/// A request being answered (libmicrohttpd's connection), valid during the handler only.
typedef struct crownpager_httpd_request crownpager_httpd_request;

/// Called once a request's head has come (a body is refused with 413 before): answer it with
/// crownpager_httpd_respond or crownpager_httpd_stream before returning (else 500).
/// `path` has no query string; `method` is as sent ("GET", "POST", ...).
typedef void (*crownpager_httpd_handler)(
    void *context, crownpager_httpd_request *request, const char *method, const char *path);
/// Fills at most `capacity` bytes of stream `stream` into `buffer`: the count; 0 when it has
/// nothing now (the stream sleeps until crownpager_httpd_wake); -1 to end it.
typedef long (*crownpager_httpd_reader)(void *context, uint64_t stream, char *buffer, size_t capacity);
/// Stream `stream` ended: the client went, or the server stops.
typedef void (*crownpager_httpd_closed)(void *context, uint64_t stream);

/// Listens on `address` (numeric IPv4 or IPv6, as inet_pton(3) reads it) at `port`, with at most
/// `connections` at once, each closed after `idle_seconds` without traffic (not while its stream
/// sleeps) and `memory` bytes for its request's head (a longer head gets 431). NULL on failure,
/// with errno (EADDRINUSE, EACCES, EADDRNOTAVAIL, EINVAL for an address that does not parse).
crownpager_httpd *crownpager_httpd_start(
    const char *address, int port, unsigned connections, unsigned idle_seconds, size_t memory, void *context,
    crownpager_httpd_handler handler, crownpager_httpd_reader reader, crownpager_httpd_closed closed);
/// The one descriptor to poll for reading: an epoll set of libmicrohttpd's own and the sleeping
/// event streams' sockets (whose browsers' leaving is an event too).
int crownpager_httpd_descriptor(const crownpager_httpd *server);
/// Milliseconds until the server must run again without input (a connection's timeout); -1: none.
long long crownpager_httpd_timeout(crownpager_httpd *server);
/// Does what is ready: accepts, reads, answers, writes streams, closes. 0, or -1 on an internal error.
int crownpager_httpd_run(crownpager_httpd *server);
/// Resumes every sleeping stream: their readers are asked again at the next run.
void crownpager_httpd_wake(crownpager_httpd *server);
/// Ends every stream and connection and closes the socket.
void crownpager_httpd_stop(crownpager_httpd *server);

/// The request's header `name` (case-insensitive); NULL when absent.
const char *crownpager_httpd_header(crownpager_httpd_request *request, const char *name);
/// The query-string argument `name`, decoded by libmicrohttpd; NULL when absent.
const char *crownpager_httpd_argument(crownpager_httpd_request *request, const char *name);
/// Answers with `status`, `content_type` and `length` bytes of `body` (copied), plus one more
/// header when `header_name` is not NULL. 0, or -1 when the library refused.
int crownpager_httpd_respond(
    crownpager_httpd_request *request, unsigned status, const char *content_type, const void *body, size_t length,
    const char *header_name, const char *header_value);
/// Answers 200 with a stream of unknown length, read through the server's reader as `stream`.
int crownpager_httpd_stream(crownpager_httpd_request *request, uint64_t stream, const char *content_type);

#ifdef __cplusplus
}
#endif

#endif
