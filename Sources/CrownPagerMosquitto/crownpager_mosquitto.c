// The libmosquitto loader (include/CrownPagerMosquitto.h): the library is opened on first use,
// never linked, so a run without MQTT maps neither it nor libssl and libcrypto.
//
// Each libmosquitto function the client calls is defined here under its own name and jumps
// through the pointer dlsym found, so MQTTClient is written against libmosquitto's documented
// API. dlsym is asked on the library's handle, which finds the library's own definitions (never
// these), and the OpenSSL functions of its dependencies libssl and libcrypto.
#include "CrownPagerMosquitto.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// OpenSSL's few functions the name check needs, declared here rather than from <openssl/ssl.h>:
// their ABI is stable since 1.1.0, and the build then needs no libssl-dev.
typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;
typedef struct ssl_method_st SSL_METHOD;
typedef struct X509_VERIFY_PARAM_st X509_VERIFY_PARAM;
typedef struct x509_store_ctx_st X509_STORE_CTX;
/// X509_V_ERR_HOSTNAME_MISMATCH and X509_V_ERR_IP_ADDRESS_MISMATCH (<openssl/x509_vfy.h>).
enum { name_mismatch = 62, address_mismatch = 64 };
/// SSL_VERIFY_PEER, SSL_FILETYPE_PEM, SSL_CTRL_SET_MIN_PROTO_VERSION and TLS1_2_VERSION (<openssl/ssl.h>).
enum { verify_peer = 1, filetype_pem = 1, set_min_proto_version = 123, tls_1_2 = 0x0303 };

/// libmosquitto's functions the client calls, then OpenSSL's the name check calls.
#define MOSQUITTO_FUNCTIONS(F)                                                                              \
    F(mosquitto_lib_init)                                                                                   \
    F(mosquitto_new)                                                                                        \
    F(mosquitto_destroy)                                                                                    \
    F(mosquitto_user_data_set)                                                                              \
    F(mosquitto_connect_callback_set)                                                                       \
    F(mosquitto_message_callback_set)                                                                       \
    F(mosquitto_username_pw_set)                                                                            \
    F(mosquitto_will_set)                                                                                   \
    F(mosquitto_opts_set)                                                                                   \
    F(mosquitto_int_option)                                                                                 \
    F(mosquitto_ssl_get)                                                                                    \
    F(mosquitto_socket)                                                                                     \
    F(mosquitto_want_write)                                                                                 \
    F(mosquitto_subscribe)                                                                                  \
    F(mosquitto_unsubscribe)                                                                                \
    F(mosquitto_publish)                                                                                    \
    F(mosquitto_loop_read)                                                                                  \
    F(mosquitto_loop_write)                                                                                 \
    F(mosquitto_loop_misc)                                                                                  \
    F(mosquitto_disconnect)                                                                                 \
    F(mosquitto_connect_bind_async)                                                                         \
    F(mosquitto_connack_string)                                                                             \
    F(mosquitto_strerror)

static struct {
#define DECLARE(name) __typeof__(name) *name;
    MOSQUITTO_FUNCTIONS(DECLARE)
#undef DECLARE
    const SSL_METHOD *(*TLS_client_method)(void);
    SSL_CTX *(*SSL_CTX_new)(const SSL_METHOD *method);
    void (*SSL_CTX_free)(SSL_CTX *ctx);
    X509_VERIFY_PARAM *(*SSL_CTX_get0_param)(SSL_CTX *ctx);
    int (*X509_VERIFY_PARAM_set1_host)(X509_VERIFY_PARAM *param, const char *name, size_t length);
    int (*X509_VERIFY_PARAM_set1_ip_asc)(X509_VERIFY_PARAM *param, const char *address);
    void (*SSL_CTX_set_verify)(SSL_CTX *ctx, int mode, void *callback);
    int (*SSL_CTX_load_verify_locations)(SSL_CTX *ctx, const char *cafile, const char *capath);
    int (*SSL_CTX_use_certificate_chain_file)(SSL_CTX *ctx, const char *file);
    int (*SSL_CTX_use_PrivateKey_file)(SSL_CTX *ctx, const char *file, int type);
    int (*SSL_CTX_check_private_key)(const SSL_CTX *ctx);
    long (*SSL_CTX_ctrl)(SSL_CTX *ctx, int command, long larg, void *parg);
    int (*SSL_up_ref)(SSL *ssl);
    void (*SSL_free)(SSL *ssl);
    long (*SSL_get_verify_result)(const SSL *ssl);
    const char *(*X509_verify_cert_error_string)(long code);
    void (*ERR_clear_error)(void);
    int (*X509_STORE_CTX_get_error)(X509_STORE_CTX *store);
} api;

/// The first certificate check that failed in this thread since the last connect started.
static _Thread_local long last_verify_error = 0;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
/// 0 once every function was found; written once, under load_once.
static int load_status = -1;
/// dlerror()'s text when loading failed; written once, under load_once.
static char load_error[1024];
/// A copy of CROWNPAGER_LIBMOSQUITTO when it was set: the environment may change later.
static char *override;

/// `name` in `library` into `*slot`; 0, or -1 with the reason noted.
static int resolve(void *library, const char *name, void **slot) {
    dlerror();
    *slot = dlsym(library, name);
    if (*slot) return 0;
    // dlsym's message names the library and the missing function.
    const char *reason = dlerror();
    snprintf(load_error, sizeof load_error, "%s", reason ? reason : name);
    return -1;
}

static void load(void) {
    const char *chosen = getenv(CROWNPAGER_MOSQUITTO_LIBRARY_VARIABLE);
    if (chosen && *chosen) override = strdup(chosen);
    // RTLD_NOW: a library that lacks one of its own dependencies (libssl) fails here, not mid-connect.
    void *library = dlopen(override ? override : CROWNPAGER_MOSQUITTO_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "%s", reason ? reason : "unknown error");
        return;
    }
    int failed = 0;
#define RESOLVE(name) failed = failed || resolve(library, #name, (void **)&api.name);
    MOSQUITTO_FUNCTIONS(RESOLVE)
    RESOLVE(TLS_client_method)
    RESOLVE(SSL_CTX_new)
    RESOLVE(SSL_CTX_free)
    RESOLVE(SSL_CTX_get0_param)
    RESOLVE(X509_VERIFY_PARAM_set1_host)
    RESOLVE(X509_VERIFY_PARAM_set1_ip_asc)
    RESOLVE(SSL_CTX_set_verify)
    RESOLVE(SSL_CTX_load_verify_locations)
    RESOLVE(SSL_CTX_use_certificate_chain_file)
    RESOLVE(SSL_CTX_use_PrivateKey_file)
    RESOLVE(SSL_CTX_check_private_key)
    RESOLVE(SSL_CTX_ctrl)
    RESOLVE(SSL_up_ref)
    RESOLVE(SSL_free)
    RESOLVE(SSL_get_verify_result)
    RESOLVE(X509_verify_cert_error_string)
    RESOLVE(ERR_clear_error)
    RESOLVE(X509_STORE_CTX_get_error)
#undef RESOLVE
    if (failed) {
        dlclose(library);
        return;
    }
    // The library stays open for the life of the process: the pointers point into it.
    api.mosquitto_lib_init();
    load_status = 0;
}

int crownpager_mosquitto_load(void) {
    pthread_once(&load_once, load);
    return load_status;
}

const char *crownpager_mosquitto_load_error(void) { return crownpager_mosquitto_load() == 0 ? NULL : load_error; }

const char *crownpager_mosquitto_library_override(void) {
    crownpager_mosquitto_load();
    return override;
}

// MARK: libmosquitto's functions, through the pointers

int mosquitto_lib_init(void) { return crownpager_mosquitto_load() == 0 ? MOSQ_ERR_SUCCESS : MOSQ_ERR_UNKNOWN; }

struct mosquitto *mosquitto_new(const char *id, bool clean_session, void *obj) {
    return crownpager_mosquitto_load() == 0 ? api.mosquitto_new(id, clean_session, obj) : NULL;
}

void mosquitto_destroy(struct mosquitto *mosq) { api.mosquitto_destroy(mosq); }

void mosquitto_user_data_set(struct mosquitto *mosq, void *obj) { api.mosquitto_user_data_set(mosq, obj); }

void mosquitto_connect_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int)) {
    api.mosquitto_connect_callback_set(mosq, on_connect);
}

void mosquitto_message_callback_set(
    struct mosquitto *mosq, void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)) {
    api.mosquitto_message_callback_set(mosq, on_message);
}

int mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password) {
    return api.mosquitto_username_pw_set(mosq, username, password);
}

int mosquitto_will_set(
    struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos, bool retain) {
    return api.mosquitto_will_set(mosq, topic, payloadlen, payload, qos, retain);
}

int mosquitto_opts_set(struct mosquitto *mosq, enum mosq_opt_t option, void *value) {
    return api.mosquitto_opts_set(mosq, option, value);
}

int mosquitto_int_option(struct mosquitto *mosq, enum mosq_opt_t option, int value) {
    return api.mosquitto_int_option(mosq, option, value);
}

void *mosquitto_ssl_get(struct mosquitto *mosq) { return api.mosquitto_ssl_get(mosq); }

int mosquitto_socket(struct mosquitto *mosq) { return api.mosquitto_socket(mosq); }

bool mosquitto_want_write(struct mosquitto *mosq) { return api.mosquitto_want_write(mosq); }

int mosquitto_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos) {
    return api.mosquitto_subscribe(mosq, mid, sub, qos);
}

int mosquitto_unsubscribe(struct mosquitto *mosq, int *mid, const char *sub) {
    return api.mosquitto_unsubscribe(mosq, mid, sub);
}

int mosquitto_publish(
    struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, int qos, bool retain) {
    return api.mosquitto_publish(mosq, mid, topic, payloadlen, payload, qos, retain);
}

int mosquitto_loop_read(struct mosquitto *mosq, int max_packets) { return api.mosquitto_loop_read(mosq, max_packets); }

int mosquitto_loop_write(struct mosquitto *mosq, int max_packets) {
    return api.mosquitto_loop_write(mosq, max_packets);
}

int mosquitto_loop_misc(struct mosquitto *mosq) { return api.mosquitto_loop_misc(mosq); }

int mosquitto_disconnect(struct mosquitto *mosq) { return api.mosquitto_disconnect(mosq); }

int mosquitto_connect_bind_async(
    struct mosquitto *mosq, const char *host, int port, int keepalive, const char *bind_address) {
    // OpenSSL's error queue is the thread's: a handshake that failed on the last address (::1,
    // where nothing listens) leaves its error there, and libmosquitto's SSL_connect on the next
    // address read it as its own, so the connect failed at once as "A TLS error occurred" and the
    // name check never ran (MQTTFaultTests, in the fresh root whose localhost is ::1 first).
    api.ERR_clear_error();
    last_verify_error = 0;
    return api.mosquitto_connect_bind_async(mosq, host, port, keepalive, bind_address);
}

const char *mosquitto_connack_string(int connack_code) {
    return crownpager_mosquitto_load() == 0 ? api.mosquitto_connack_string(connack_code) : "libmosquitto is not loaded";
}

const char *mosquitto_strerror(int mosq_errno) {
    return crownpager_mosquitto_load() == 0 ? api.mosquitto_strerror(mosq_errno) : "libmosquitto is not loaded";
}

// MARK: The certificate checked against the name, not the address connected to

/// OpenSSL's verdict, kept as it is (the name check included), and the first failure remembered:
/// a handshake that fails inside the connect call leaves no session to ask afterwards.
static int remember_verify_error(int passed, X509_STORE_CTX *store) {
    if (!passed && last_verify_error == 0) last_verify_error = api.X509_STORE_CTX_get_error(store);
    return passed;
}

long crownpager_mosquitto_tls_take_verify_error(void) {
    long code = last_verify_error;
    last_verify_error = 0;
    return code;
}

const char *crownpager_mosquitto_tls_context(
    struct mosquitto *mosq, const char *expected, const char *cafile, const char *capath, const char *certfile,
    const char *keyfile) {
    SSL_CTX *context = api.SSL_CTX_new(api.TLS_client_method());
    if (!context) return "a TLS context could not be made (out of memory?)";
    const char *failure = NULL;
    unsigned char address[16];
    int numeric = inet_pton(AF_INET, expected, address) == 1 || inet_pton(AF_INET6, expected, address) == 1;
    X509_VERIFY_PARAM *parameters = api.SSL_CTX_get0_param(context);
    // OpenSSL's own verdict, the name check included, decides the handshake; the callback only
    // remembers why it failed.
    api.SSL_CTX_set_verify(context, verify_peer, (void *)remember_verify_error);
    if (api.SSL_CTX_ctrl(context, set_min_proto_version, tls_1_2, NULL) != 1) failure = "TLS 1.2 could not be required";
    else if ((numeric ? api.X509_VERIFY_PARAM_set1_ip_asc(parameters, expected)
                      : api.X509_VERIFY_PARAM_set1_host(parameters, expected, 0)) != 1)
        failure = "the host could not be set for the certificate check";
    else if (api.SSL_CTX_load_verify_locations(context, cafile, capath) != 1)
        failure = "cafile (or /etc/ssl/certs) holds no CA certificate OpenSSL could read";
    else if (certfile && api.SSL_CTX_use_certificate_chain_file(context, certfile) != 1)
        failure = "certfile holds no certificate OpenSSL could read (PEM)";
    else if (keyfile && api.SSL_CTX_use_PrivateKey_file(context, keyfile, filetype_pem) != 1)
        failure = "keyfile holds no unencrypted private key OpenSSL could read (PEM)";
    else if (keyfile && api.SSL_CTX_check_private_key(context) != 1)
        failure = "keyfile is not the private key of certfile";
    // libmosquitto takes a reference of its own, and uses the context as it is: without the
    // defaults option (on unless turned off), which would set its own verify callback.
    else if (api.mosquitto_opts_set(mosq, MOSQ_OPT_SSL_CTX, context) != MOSQ_ERR_SUCCESS ||
             api.mosquitto_int_option(mosq, MOSQ_OPT_SSL_CTX_WITH_DEFAULTS, 0) != MOSQ_ERR_SUCCESS)
        failure = "libmosquitto refused the TLS context (built without TLS?)";
    api.SSL_CTX_free(context);
    return failure;
}

void *crownpager_mosquitto_tls_hold(struct mosquitto *mosq) {
    SSL *session = api.mosquitto_ssl_get(mosq);
    if (session && api.SSL_up_ref(session) != 1) return NULL;
    return session;
}

long crownpager_mosquitto_tls_verify_result(void *session) {
    return session ? api.SSL_get_verify_result(session) : 0;
}

const char *crownpager_mosquitto_tls_verify_string(long code) { return api.X509_verify_cert_error_string(code); }

int crownpager_mosquitto_tls_is_name_mismatch(long code) { return code == name_mismatch || code == address_mismatch; }

void crownpager_mosquitto_tls_release(void *session) {
    if (session) api.SSL_free(session);
}
