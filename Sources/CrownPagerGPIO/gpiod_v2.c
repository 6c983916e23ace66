// libgpiod 2.x (soname libgpiod.so.3: Debian 13, current Raspberry Pi OS), reached through
// dlsym: one request, one ordered event queue, kernel debounce (uAPI v2). crownpager_gpio.c loads it.
#include "gpio_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

// The part of libgpiod 2.x's <gpiod.h> used here, declared instead of included so that the build
// needs no libgpiod headers. The values are those of 2.0 to 2.2, which share the soname and ABI.
// Only the enumerators used are listed; each enum keeps the library's underlying type (unsigned
// int, or int for gpiod_line_value, which has -1).

struct gpiod_chip_info;
struct gpiod_line_settings;
struct gpiod_line_config;
struct gpiod_request_config;
struct gpiod_edge_event;

/// enum gpiod_line_direction: GPIOD_LINE_DIRECTION_INPUT and _OUTPUT.
enum v2_line_direction { V2_LINE_DIRECTION_INPUT = 2, V2_LINE_DIRECTION_OUTPUT = 3 };
/// enum gpiod_line_edge: GPIOD_LINE_EDGE_BOTH.
enum v2_line_edge { V2_LINE_EDGE_BOTH = 4 };
/// enum gpiod_line_bias: GPIOD_LINE_BIAS_PULL_UP.
enum v2_line_bias { V2_LINE_BIAS_PULL_UP = 4 };
/// enum gpiod_line_value: GPIOD_LINE_VALUE_ERROR, _INACTIVE and _ACTIVE.
enum v2_line_value { V2_LINE_VALUE_ERROR = -1, V2_LINE_VALUE_INACTIVE = 0, V2_LINE_VALUE_ACTIVE = 1 };
/// enum gpiod_edge_event_type: GPIOD_EDGE_EVENT_RISING_EDGE and _FALLING_EDGE.
enum v2_edge_event_type { V2_EDGE_EVENT_RISING_EDGE = 1, V2_EDGE_EVENT_FALLING_EDGE = 2 };

/// The functions used, named as in the library. Written once while loading (under pthread_once).
static struct {
    struct gpiod_chip *(*gpiod_chip_open)(const char *path);
    void (*gpiod_chip_close)(struct gpiod_chip *chip);
    struct gpiod_chip_info *(*gpiod_chip_get_info)(struct gpiod_chip *chip);
    size_t (*gpiod_chip_info_get_num_lines)(struct gpiod_chip_info *info);
    void (*gpiod_chip_info_free)(struct gpiod_chip_info *info);
    struct gpiod_line_settings *(*gpiod_line_settings_new)(void);
    void (*gpiod_line_settings_free)(struct gpiod_line_settings *settings);
    int (*gpiod_line_settings_set_direction)(struct gpiod_line_settings *settings, enum v2_line_direction direction);
    int (*gpiod_line_settings_set_output_value)(struct gpiod_line_settings *settings, enum v2_line_value value);
    int (*gpiod_line_settings_set_edge_detection)(struct gpiod_line_settings *settings, enum v2_line_edge edge);
    int (*gpiod_line_settings_set_bias)(struct gpiod_line_settings *settings, enum v2_line_bias bias);
    void (*gpiod_line_settings_set_debounce_period_us)(struct gpiod_line_settings *settings, unsigned long period);
    struct gpiod_line_config *(*gpiod_line_config_new)(void);
    void (*gpiod_line_config_free)(struct gpiod_line_config *config);
    int (*gpiod_line_config_add_line_settings)(
        struct gpiod_line_config *config, const unsigned int *offsets, size_t num_offsets,
        struct gpiod_line_settings *settings);
    struct gpiod_request_config *(*gpiod_request_config_new)(void);
    void (*gpiod_request_config_free)(struct gpiod_request_config *config);
    void (*gpiod_request_config_set_consumer)(struct gpiod_request_config *config, const char *consumer);
    struct gpiod_line_request *(*gpiod_chip_request_lines)(
        struct gpiod_chip *chip, struct gpiod_request_config *req_cfg, struct gpiod_line_config *line_cfg);
    void (*gpiod_line_request_release)(struct gpiod_line_request *request);
    int (*gpiod_line_request_get_fd)(struct gpiod_line_request *request);
    int (*gpiod_line_request_get_values)(struct gpiod_line_request *request, enum v2_line_value *values);
    int (*gpiod_line_request_set_value)(
        struct gpiod_line_request *request, unsigned int offset, enum v2_line_value value);
    int (*gpiod_line_request_read_edge_events)(
        struct gpiod_line_request *request, struct gpiod_edge_event_buffer *buffer, size_t max_events);
    struct gpiod_edge_event_buffer *(*gpiod_edge_event_buffer_new)(size_t capacity);
    void (*gpiod_edge_event_buffer_free)(struct gpiod_edge_event_buffer *buffer);
    struct gpiod_edge_event *(*gpiod_edge_event_buffer_get_event)(
        struct gpiod_edge_event_buffer *buffer, unsigned long index);
    uint64_t (*gpiod_edge_event_get_timestamp_ns)(struct gpiod_edge_event *event);
    unsigned int (*gpiod_edge_event_get_line_offset)(struct gpiod_edge_event *event);
    enum v2_edge_event_type (*gpiod_edge_event_get_event_type)(struct gpiod_edge_event *event);
    const char *(*gpiod_api_version)(void);
} v2;

static const char *version(void) { return v2.gpiod_api_version(); }
static int kernel_debounces(const struct crownpager_gpio *lines) { return lines->debounces; }

static void release(struct crownpager_gpio *lines) {
    if (lines->buffer) v2.gpiod_edge_event_buffer_free(lines->buffer);
    if (lines->request) v2.gpiod_line_request_release(lines->request);
    if (lines->chip) v2.gpiod_chip_close(lines->chip);
    free(lines);
}

/// The settings of one line: an input with a pull-up for edges on both edges (debounced for
/// `debounce_us` when nonzero), or, when `output` is nonnegative, an output driven to it.
static int configure(struct gpiod_line_settings *settings, unsigned int debounce_us, int output) {
    if (output >= 0) {
        return v2.gpiod_line_settings_set_direction(settings, V2_LINE_DIRECTION_OUTPUT) == 0
            && v2.gpiod_line_settings_set_output_value(settings, output ? V2_LINE_VALUE_ACTIVE : V2_LINE_VALUE_INACTIVE) == 0;
    }
    int ok = v2.gpiod_line_settings_set_direction(settings, V2_LINE_DIRECTION_INPUT) == 0
        && v2.gpiod_line_settings_set_edge_detection(settings, V2_LINE_EDGE_BOTH) == 0
        && v2.gpiod_line_settings_set_bias(settings, V2_LINE_BIAS_PULL_UP) == 0;
    if (ok && debounce_us) v2.gpiod_line_settings_set_debounce_period_us(settings, debounce_us);
    return ok;
}

/// A request of `count` lines from `offsets`: inputs (`initial` NULL) or outputs driven to
/// `initial[i]`; NULL with errno set.
static struct gpiod_line_request *request_lines(
    struct gpiod_chip *chip, const char *consumer, const unsigned int *offsets, const unsigned int *debounce_us,
    const int *initial, size_t count) {
    struct gpiod_line_config *config = v2.gpiod_line_config_new();
    struct gpiod_request_config *request_config = v2.gpiod_request_config_new();
    struct gpiod_line_request *request = NULL;
    int ok = config && request_config;
    for (size_t i = 0; ok && i < count; i++) {
        struct gpiod_line_settings *settings = v2.gpiod_line_settings_new();
        ok = settings
            && configure(settings, debounce_us ? debounce_us[i] : 0, initial ? (initial[i] ? 1 : 0) : -1);
        ok = ok && v2.gpiod_line_config_add_line_settings(config, &offsets[i], 1, settings) == 0;
        v2.gpiod_line_settings_free(settings);
    }
    if (ok) {
        v2.gpiod_request_config_set_consumer(request_config, consumer);
        request = v2.gpiod_chip_request_lines(chip, request_config, config);
    }
    int error = errno;
    v2.gpiod_request_config_free(request_config);
    v2.gpiod_line_config_free(config);
    errno = error;
    return request;
}

/// The request of either direction; `initial` NULL asks for inputs with edge events.
static struct crownpager_gpio *request_any(
    const char *chip_path, const char *consumer, const unsigned int *offsets, const unsigned int *debounce_us,
    const int *initial, size_t count, struct crownpager_gpio_failure *failure) {
    struct crownpager_gpio *result = crownpager_gpio_open_chip(v2.gpiod_chip_open, chip_path, count, failure);
    if (!result) return NULL;
    result->count = count;
    struct gpiod_chip_info *info = v2.gpiod_chip_get_info(result->chip);
    unsigned int chip_lines = info ? (unsigned int)v2.gpiod_chip_info_get_num_lines(info) : 0;
    v2.gpiod_chip_info_free(info);
    if (failure) failure->chip_lines = chip_lines;
    // The kernel answers EINVAL for an offset past the last line without saying which: check first.
    for (size_t i = 0; i < count; i++) {
        if (chip_lines && offsets[i] >= chip_lines) {
            crownpager_gpio_fail(failure, CROWNPAGER_GPIO_STAGE_FIND_LINE, EINVAL, 1, offsets[i]);
            release(result);
            return NULL;
        }
    }
    for (size_t i = 0; i < count; i++) result->offsets[i] = offsets[i];
    result->request = request_lines(result->chip, consumer, offsets, debounce_us, initial, count);
    if (!result->request) {
        int error = errno;
        int found = 0;
        unsigned int culprit = 0;
        // EBUSY names no line either: ask for each alone to find the one in use.
        for (size_t i = 0; error == EBUSY && !found && i < count; i++) {
            struct gpiod_line_request *single = request_lines(result->chip, consumer, &offsets[i], NULL, initial ? &initial[i] : NULL, 1);
            if (single) v2.gpiod_line_request_release(single);
            else if (errno == EBUSY) found = 1, culprit = offsets[i];
        }
        crownpager_gpio_fail(failure, CROWNPAGER_GPIO_STAGE_REQUEST, error, found, culprit);
        release(result);
        return NULL;
    }
    if (initial) return result;  // outputs have no edge events
    for (size_t i = 0; i < count; i++) result->debounces |= debounce_us && debounce_us[i];
    result->buffer = v2.gpiod_edge_event_buffer_new(64);
    if (!result->buffer) {
        crownpager_gpio_fail(failure, CROWNPAGER_GPIO_STAGE_SETUP, ENOMEM, 0, 0);
        release(result);
        return NULL;
    }
    return result;
}

static struct crownpager_gpio *request(
    const char *chip_path, const char *consumer, const unsigned int *offsets, const unsigned int *debounce_us,
    size_t count, struct crownpager_gpio_failure *failure) {
    return request_any(chip_path, consumer, offsets, debounce_us, NULL, count, failure);
}

static struct crownpager_gpio *request_output(
    const char *chip_path, const char *consumer, const unsigned int *offsets, const int *initial, size_t count,
    struct crownpager_gpio_failure *failure) {
    static const int low[CROWNPAGER_GPIO_MAX_LINES];
    return request_any(chip_path, consumer, offsets, NULL, initial ? initial : low, count, failure);
}

static int set_value(struct crownpager_gpio *lines, size_t index, int value) {
    return v2.gpiod_line_request_set_value(
        lines->request, lines->offsets[index], value ? V2_LINE_VALUE_ACTIVE : V2_LINE_VALUE_INACTIVE);
}

static size_t descriptors(const struct crownpager_gpio *lines, int *descriptors, size_t capacity) {
    if (capacity == 0) return 0;
    descriptors[0] = v2.gpiod_line_request_get_fd(lines->request);
    return 1;
}

static int values(struct crownpager_gpio *lines, int *values) {
    enum v2_line_value levels[CROWNPAGER_GPIO_MAX_LINES];
    if (v2.gpiod_line_request_get_values(lines->request, levels) != 0) return -1;
    for (size_t i = 0; i < lines->count; i++) values[i] = levels[i] == V2_LINE_VALUE_ACTIVE;
    return 0;
}

static int read_edges(struct crownpager_gpio *lines, struct crownpager_gpio_edge *edges, size_t capacity) {
    // One queue, already in the kernel's order (it carries sequence numbers).
    size_t count = 0;
    int fd = v2.gpiod_line_request_get_fd(lines->request);
    while (count < capacity && crownpager_gpio_is_readable(fd)) {
        size_t room = capacity - count < 64 ? capacity - count : 64;
        int read = v2.gpiod_line_request_read_edge_events(lines->request, lines->buffer, room);
        if (read < 0) {
            if (errno == EAGAIN || errno == EINTR) break;
            return -1;
        }
        if (read == 0) break;
        for (int i = 0; i < read; i++) {
            struct gpiod_edge_event *event = v2.gpiod_edge_event_buffer_get_event(lines->buffer, (unsigned long)i);
            edges[count++] = (struct crownpager_gpio_edge){
                .timestamp_ns = v2.gpiod_edge_event_get_timestamp_ns(event),
                .offset = v2.gpiod_edge_event_get_line_offset(event),
                .rising = v2.gpiod_edge_event_get_event_type(event) == V2_EDGE_EVENT_RISING_EDGE};
        }
    }
    return (int)count;
}

#define BIND(symbol) \
    if (!(v2.symbol = (__typeof__(v2.symbol))dlsym(library, #symbol))) return NULL

const struct crownpager_gpio_backend *crownpager_gpio_bind_v2(void *library) {
    static const struct crownpager_gpio_backend backend = {
        .major = 2, .version = version, .request = request, .request_output = request_output,
        .set_value = set_value, .kernel_debounces = kernel_debounces,
        .descriptors = descriptors, .values = values, .read_edges = read_edges, .release = release};
    BIND(gpiod_chip_open);
    BIND(gpiod_chip_close);
    BIND(gpiod_chip_get_info);
    BIND(gpiod_chip_info_get_num_lines);
    BIND(gpiod_chip_info_free);
    BIND(gpiod_line_settings_new);
    BIND(gpiod_line_settings_free);
    BIND(gpiod_line_settings_set_direction);
    BIND(gpiod_line_settings_set_output_value);
    BIND(gpiod_line_settings_set_edge_detection);
    BIND(gpiod_line_settings_set_bias);
    BIND(gpiod_line_settings_set_debounce_period_us);
    BIND(gpiod_line_config_new);
    BIND(gpiod_line_config_free);
    BIND(gpiod_line_config_add_line_settings);
    BIND(gpiod_request_config_new);
    BIND(gpiod_request_config_free);
    BIND(gpiod_request_config_set_consumer);
    BIND(gpiod_chip_request_lines);
    BIND(gpiod_line_request_release);
    BIND(gpiod_line_request_get_fd);
    BIND(gpiod_line_request_get_values);
    BIND(gpiod_line_request_set_value);
    BIND(gpiod_line_request_read_edge_events);
    BIND(gpiod_edge_event_buffer_new);
    BIND(gpiod_edge_event_buffer_free);
    BIND(gpiod_edge_event_buffer_get_event);
    BIND(gpiod_edge_event_get_timestamp_ns);
    BIND(gpiod_edge_event_get_line_offset);
    BIND(gpiod_edge_event_get_event_type);
    BIND(gpiod_api_version);
    return &backend;
}
