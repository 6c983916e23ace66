// getaddrinfo_a(3) is a GNU extension: _GNU_SOURCE before any header, in a file of its own, so
// the Swift side needs no feature macro in its module maps.
#define _GNU_SOURCE
#include "crownpager_lookup.h"

#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

struct crownpager_lookup {
    struct gaicb request;
    struct addrinfo hints;
    char host[256];
};

struct crownpager_lookup *crownpager_lookup_start(const char *host) {
    size_t length = strlen(host);
    if (length >= sizeof(((struct crownpager_lookup *)0)->host)) return NULL;
    struct crownpager_lookup *lookup = calloc(1, sizeof *lookup);
    if (lookup == NULL) return NULL;
    memcpy(lookup->host, host, length + 1);
    lookup->hints.ai_family = AF_UNSPEC;
    lookup->hints.ai_socktype = SOCK_STREAM;
    lookup->request.ar_name = lookup->host;
    lookup->request.ar_request = &lookup->hints;
    struct gaicb *list[1] = {&lookup->request};
    if (getaddrinfo_a(GAI_NOWAIT, list, 1, NULL) != 0) {
        free(lookup);
        return NULL;
    }
    return lookup;
}

int crownpager_lookup_status(struct crownpager_lookup *lookup) { return gai_error(&lookup->request); }

int crownpager_lookup_in_progress(void) { return EAI_INPROGRESS; }

int crownpager_lookup_address(struct crownpager_lookup *lookup, size_t index, char *buffer, size_t length) {
    struct addrinfo *found = lookup->request.ar_result;
    for (; found != NULL && index > 0; index--) found = found->ai_next;
    if (found == NULL) return EAI_NONAME;
    return getnameinfo(found->ai_addr, found->ai_addrlen, buffer, length, NULL, 0, NI_NUMERICHOST);
}

const char *crownpager_lookup_error(int status) { return gai_strerror(status); }

void crownpager_lookup_free(struct crownpager_lookup *lookup) {
    if (lookup == NULL) return;
    if (gai_error(&lookup->request) == EAI_INPROGRESS && gai_cancel(&lookup->request) == EAI_NOTCANCELED) return;
    if (lookup->request.ar_result != NULL) freeaddrinfo(lookup->request.ar_result);
    free(lookup);
}
