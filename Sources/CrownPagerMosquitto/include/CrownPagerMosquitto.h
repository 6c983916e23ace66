// libmosquitto, loaded at run time on first use.
//
// Linking libmosquitto.so.1 maps it, libssl and libcrypto into every run of crownpager, MQTT on or
// off: a few MiB of resident memory and a slower start for a feature most pagers do not use. So the
// program links no libmosquitto: <mosquitto.h> (Debian's libmosquitto-dev) gives the types and
// constants, and this shim defines the libmosquitto functions the client calls, each a jump
// through a pointer that dlopen("libmosquitto.so.1") and dlsym filled. The Swift side calls
// libmosquitto's API as written, after crownpager_mosquitto_load has said the library is there.
// The environment variable CROWNPAGER_LIBMOSQUITTO names a library to open instead (a path or a
// soname), for tests and unusual systems.
#ifndef CROWNPAGER_MOSQUITTO_H
#define CROWNPAGER_MOSQUITTO_H

#include <mosquitto.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The soname opened on first use.
#define CROWNPAGER_MOSQUITTO_LIBRARY "libmosquitto.so.1"
/// The environment variable naming a library to open instead.
#define CROWNPAGER_MOSQUITTO_LIBRARY_VARIABLE "CROWNPAGER_LIBMOSQUITTO"

/// Loads libmosquitto (once) and initialises it: 0 when every function the client uses was found,
/// -1 otherwise (crownpager_mosquitto_load_error says why). No other function of the shim may be
/// called before this returned 0.
int crownpager_mosquitto_load(void);
/// Why the library could not be loaded: dlerror()'s text, which names the file or the missing
/// function; NULL when it is loaded.
const char *crownpager_mosquitto_load_error(void);
/// The CROWNPAGER_LIBMOSQUITTO value tried instead of the soname; NULL when it was unset or empty.
const char *crownpager_mosquitto_library_override(void);

/// Gives `mosq` the TLS context its connections use, made here rather than by libmosquitto: the
/// broker's certificate is checked against `cafile` (or the CAs in `capath`) and against
/// `expected` (a name, or a numeric address) by OpenSSL's own check, so the client may connect
/// to the address a lookup found without libmosquitto looking the name up again (its connect
/// calls getaddrinfo(3), which blocks) and comparing the certificate with the address. With
/// `certfile` and `keyfile` (PEM, the key unencrypted), the client shows its certificate.
/// libmosquitto's own TLS settings are left unused. Returns NULL, or what failed.
const char *crownpager_mosquitto_tls_context(
    struct mosquitto *mosq, const char *expected, const char *cafile, const char *capath, const char *certfile,
    const char *keyfile);
/// The TLS session of the connection under way, held (a reference of its own) so that its
/// verification result can be read after libmosquitto has dropped a failed handshake; NULL
/// without TLS or before a connect. Release it with crownpager_mosquitto_tls_release.
void *crownpager_mosquitto_tls_hold(struct mosquitto *mosq);
/// The X509_V_ code of the held session's certificate check (0: passed, or not checked yet).
long crownpager_mosquitto_tls_verify_result(void *session);
/// OpenSSL's words for an X509_V_ code, e.g. "hostname mismatch".
const char *crownpager_mosquitto_tls_verify_string(long code);
/// Whether an X509_V_ code says the certificate is not for the name (or address) expected.
int crownpager_mosquitto_tls_is_name_mismatch(long code);
/// The X509_V_ code of the first certificate check that failed in this thread since the last
/// connect started, then 0 until the next: for a handshake that failed inside
/// mosquitto_connect_bind_async itself (a broker on this machine answers at once), whose
/// session libmosquitto freed before it returned.
long crownpager_mosquitto_tls_take_verify_error(void);
/// Drops the reference crownpager_mosquitto_tls_hold took.
void crownpager_mosquitto_tls_release(void *session);

#ifdef __cplusplus
}
#endif

#endif
