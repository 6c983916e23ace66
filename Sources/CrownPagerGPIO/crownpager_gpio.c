// The libgpiod shim's loader: finds libgpiod at run time and hands each call of
// include/CrownPagerGPIO.h to the API the loaded library has (gpiod_v1.c or gpiod_v2.c).
//
// One binary serves Debian 12 (libgpiod 1.6, libgpiod.so.2) and Debian 13 (libgpiod 2.x,
// libgpiod.so.3): linking either soname would tie it to one release, so the library is opened
// with dlopen on first use, the newer soname first. CROWNPAGER_LIBGPIOD names a library to open
// instead (a path or a soname), for tests and unusual systems; which API that library has is
// told by its symbols (only 2.x has gpiod_api_version).
#include "gpio_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
/// The bound API, NULL when no library could be loaded. Written once, under load_once.
static const struct crownpager_gpio_backend *backend;
/// dlerror()'s text for each library tried, "; "-separated. Written once, under load_once.
static char load_error[1024];
/// A copy of CROWNPAGER_LIBGPIOD when it was set: the environment may change later.
static char *override;

static void note_error(const char *text) {
    size_t used = strlen(load_error);
    snprintf(load_error + used, sizeof load_error - used, "%s%s", used ? "; " : "", text ? text : "unknown error");
}

/// The API in `name`, bound; NULL with the reason noted.
static const struct crownpager_gpio_backend *try_load(const char *name) {
    // RTLD_NOW: a library that lacks one of its own dependencies fails here, not mid-request.
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        note_error(dlerror());
        return NULL;
    }
    int is_v2 = dlsym(library, "gpiod_api_version") != NULL;
    dlerror();
    const struct crownpager_gpio_backend *bound =
        is_v2 ? crownpager_gpio_bind_v2(library) : crownpager_gpio_bind_v1(library);
    if (!bound) {
        // dlsym's message names the library and the missing function.
        note_error(dlerror());
        dlclose(library);
    }
    // On success the library stays open for the life of the process: the backend points into it.
    return bound;
}

static void load(void) {
    const char *chosen = getenv(CROWNPAGER_GPIO_LIBRARY_VARIABLE);
    if (chosen && *chosen) {
        override = strdup(chosen);
        backend = try_load(chosen);
        return;
    }
    backend = try_load(CROWNPAGER_GPIO_LIBRARY_V2);
    if (!backend) backend = try_load(CROWNPAGER_GPIO_LIBRARY_V1);
}

static const struct crownpager_gpio_backend *loaded(void) {
    pthread_once(&load_once, load);
    return backend;
}

// MARK: The interface

/// The loaded API; NULL with `failure` filled (ELIBACC) when no library could be loaded.
static const struct crownpager_gpio_backend *loaded_or_fail(struct crownpager_gpio_failure *failure) {
    const struct crownpager_gpio_backend *api = loaded();
    if (!api) {
        if (failure) memset(failure, 0, sizeof *failure);
        crownpager_gpio_fail(failure, CROWNPAGER_GPIO_STAGE_LOAD_LIBRARY, ELIBACC, 0, 0);
    }
    return api;
}

int crownpager_gpio_api_major(void) {
    const struct crownpager_gpio_backend *api = loaded();
    return api ? api->major : 0;
}

const char *crownpager_gpio_library_version(void) {
    const struct crownpager_gpio_backend *api = loaded();
    return api ? api->version() : NULL;
}

const char *crownpager_gpio_load_error(void) { return loaded() ? NULL : load_error; }

const char *crownpager_gpio_library_override(void) {
    loaded();
    return override;
}

struct crownpager_gpio *crownpager_gpio_request(
    const char *chip_path, const char *consumer, const unsigned int *offsets, const unsigned int *debounce_us,
    size_t count, struct crownpager_gpio_failure *failure) {
    const struct crownpager_gpio_backend *api = loaded_or_fail(failure);
    if (!api) return NULL;
    return api->request(chip_path, consumer, offsets, debounce_us, count, failure);
}

struct crownpager_gpio *crownpager_gpio_request_output(
    const char *chip_path, const char *consumer, const unsigned int *offsets, const int *initial, size_t count,
    struct crownpager_gpio_failure *failure) {
    const struct crownpager_gpio_backend *api = loaded_or_fail(failure);
    if (!api) return NULL;
    return api->request_output(chip_path, consumer, offsets, initial, count, failure);
}

// Lines exist only once a library is loaded, so the calls below always find a backend.

int crownpager_gpio_kernel_debounces(const struct crownpager_gpio *lines) { return loaded()->kernel_debounces(lines); }

size_t crownpager_gpio_descriptors(const struct crownpager_gpio *lines, int *descriptors, size_t capacity) {
    return loaded()->descriptors(lines, descriptors, capacity);
}

int crownpager_gpio_values(struct crownpager_gpio *lines, int *values) { return loaded()->values(lines, values); }

int crownpager_gpio_read_edges(struct crownpager_gpio *lines, struct crownpager_gpio_edge *edges, size_t capacity) {
    return loaded()->read_edges(lines, edges, capacity);
}

int crownpager_gpio_set_value(struct crownpager_gpio *lines, size_t index, int value) {
    if (index >= lines->count) {
        errno = EINVAL;
        return -1;
    }
    return loaded()->set_value(lines, index, value);
}

void crownpager_gpio_release(struct crownpager_gpio *lines) {
    if (lines) loaded()->release(lines);
}

// MARK: Shared by both APIs

void crownpager_gpio_fail(
    struct crownpager_gpio_failure *failure, int stage, int error, int has_offset, unsigned int offset) {
    if (!failure) return;
    failure->stage = stage;
    failure->error = error ? error : EIO;
    failure->has_offset = has_offset;
    failure->offset = offset;
}

int crownpager_gpio_is_readable(int fd) {
    struct pollfd request = {.fd = fd, .events = POLLIN};
    int ready;
    do ready = poll(&request, 1, 0);
    while (ready < 0 && errno == EINTR);
    return ready > 0 && (request.revents & (POLLIN | POLLERR | POLLHUP));
}

struct crownpager_gpio *crownpager_gpio_open_chip(
    struct gpiod_chip *(*chip_open)(const char *path), const char *chip_path, size_t count,
    struct crownpager_gpio_failure *failure) {
    if (failure) memset(failure, 0, sizeof *failure);
    if (count == 0 || count > CROWNPAGER_GPIO_MAX_LINES) {
        crownpager_gpio_fail(failure, CROWNPAGER_GPIO_STAGE_SETUP, EINVAL, 0, 0);
        return NULL;
    }
    struct crownpager_gpio *result = calloc(1, sizeof *result);
    if (!result) {
        crownpager_gpio_fail(failure, CROWNPAGER_GPIO_STAGE_SETUP, ENOMEM, 0, 0);
        return NULL;
    }
    result->chip = chip_open(chip_path);
    if (!result->chip) {
        crownpager_gpio_fail(failure, CROWNPAGER_GPIO_STAGE_OPEN_CHIP, errno, 0, 0);
        free(result);
        return NULL;
    }
    return result;
}
