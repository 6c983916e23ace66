// libgpiod 1.x (soname libgpiod.so.2: 1.6 on Debian 12 and Raspberry Pi OS bookworm), reached
// through dlsym: one request and one event queue per line (uAPI v1). crownpager_gpio.c loads it.
#include "gpio_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

// The part of libgpiod 1.6's <gpiod.h> used here, declared instead of included so that the build
// needs no libgpiod headers. The values and the event's layout are 1.6's and must stay so: the
// library was compiled with them.

/// GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP, GPIOD_BIT(5).
enum { V1_REQUEST_FLAG_BIAS_PULL_UP = 1 << 5 };
/// GPIOD_LINE_EVENT_RISING_EDGE.
enum { V1_EVENT_RISING_EDGE = 1 };

/// struct gpiod_line_event, which libgpiod fills.
struct v1_line_event {
    struct timespec ts;
    int event_type;
};

/// The functions used, named as in the library. Written once while loading (under pthread_once).
static struct {
    struct gpiod_chip *(*gpiod_chip_open)(const char *path);
    void (*gpiod_chip_close)(struct gpiod_chip *chip);
    unsigned int (*gpiod_chip_num_lines)(struct gpiod_chip *chip);
    struct gpiod_line *(*gpiod_chip_get_line)(struct gpiod_chip *chip, unsigned int offset);
    int (*gpiod_line_request_both_edges_events_flags)(struct gpiod_line *line, const char *consumer, int flags);
    int (*gpiod_line_request_output)(struct gpiod_line *line, const char *consumer, int default_val);
    int (*gpiod_line_set_value)(struct gpiod_line *line, int value);
    int (*gpiod_line_event_get_fd)(struct gpiod_line *line);
    int (*gpiod_line_get_value)(struct gpiod_line *line);
    int (*gpiod_line_event_read_fd_multiple)(int fd, struct v1_line_event *events, unsigned int num_events);
    unsigned int (*gpiod_line_offset)(struct gpiod_line *line);
    void (*gpiod_line_release)(struct gpiod_line *line);
    const char *(*gpiod_version_string)(void);
} v1;

static const char *version(void) { return v1.gpiod_version_string(); }
static int kernel_debounces(const struct crownpager_gpio *lines) { (void)lines; return 0; }

static void release(struct crownpager_gpio *lines) {
    for (size_t i = 0; i < lines->count; i++) v1.gpiod_line_release(lines->lines[i]);
    if (lines->chip) v1.gpiod_chip_close(lines->chip);
    free(lines);
}

/// Requests each line alone, as inputs for edge events (`initial` NULL) or as outputs driven to
/// `initial[i]`, so a failure names its line (the bulk call would not say which).
static struct crownpager_gpio *request_each(
    const char *chip_path, const char *consumer, const unsigned int *offsets, const int *initial, size_t count,
    struct crownpager_gpio_failure *failure) {
    struct crownpager_gpio *result = crownpager_gpio_open_chip(v1.gpiod_chip_open, chip_path, count, failure);
    if (!result) return NULL;
    if (failure) failure->chip_lines = v1.gpiod_chip_num_lines(result->chip);
    for (size_t i = 0; i < count; i++) {
        struct gpiod_line *line = v1.gpiod_chip_get_line(result->chip, offsets[i]);
        if (!line) {
            crownpager_gpio_fail(failure, CROWNPAGER_GPIO_STAGE_FIND_LINE, errno, 1, offsets[i]);
            release(result);
            return NULL;
        }
        int status = initial ? v1.gpiod_line_request_output(line, consumer, initial[i] ? 1 : 0)
                             : v1.gpiod_line_request_both_edges_events_flags(line, consumer, V1_REQUEST_FLAG_BIAS_PULL_UP);
        if (status != 0) {
            crownpager_gpio_fail(failure, CROWNPAGER_GPIO_STAGE_REQUEST, errno, 1, offsets[i]);
            release(result);
            return NULL;
        }
        result->offsets[result->count] = offsets[i];
        result->lines[result->count++] = line;
    }
    return result;
}

static struct crownpager_gpio *request(
    const char *chip_path, const char *consumer, const unsigned int *offsets, const unsigned int *debounce_us,
    size_t count, struct crownpager_gpio_failure *failure) {
    (void)debounce_us;  // the v1 uAPI has no debounce: the caller debounces
    return request_each(chip_path, consumer, offsets, NULL, count, failure);
}

static struct crownpager_gpio *request_output(
    const char *chip_path, const char *consumer, const unsigned int *offsets, const int *initial, size_t count,
    struct crownpager_gpio_failure *failure) {
    static const int low[CROWNPAGER_GPIO_MAX_LINES];
    return request_each(chip_path, consumer, offsets, initial ? initial : low, count, failure);
}

static int set_value(struct crownpager_gpio *lines, size_t index, int value) {
    return v1.gpiod_line_set_value(lines->lines[index], value ? 1 : 0);
}

static size_t descriptors(const struct crownpager_gpio *lines, int *descriptors, size_t capacity) {
    size_t count = 0;
    for (size_t i = 0; i < lines->count && count < capacity; i++) {
        int fd = v1.gpiod_line_event_get_fd(lines->lines[i]);
        if (fd >= 0) descriptors[count++] = fd;
    }
    return count;
}

static int values(struct crownpager_gpio *lines, int *values) {
    for (size_t i = 0; i < lines->count; i++) {
        int value = v1.gpiod_line_get_value(lines->lines[i]);
        if (value < 0) return -1;
        values[i] = value;
    }
    return 0;
}

static int read_edges(struct crownpager_gpio *lines, struct crownpager_gpio_edge *edges, size_t capacity) {
    // Each line has its own queue, so an A edge and the B edge after it arrive on two
    // descriptors. Drain every ready queue (again, until none is ready), then merge by the
    // kernel's timestamps: reading them line by line would scramble the quadrature sequence.
    size_t count = 0;
    int progress = 1;
    while (progress && count < capacity) {
        progress = 0;
        for (size_t i = 0; i < lines->count && count < capacity; i++) {
            int fd = v1.gpiod_line_event_get_fd(lines->lines[i]);
            if (fd < 0 || !crownpager_gpio_is_readable(fd)) continue;
            struct v1_line_event events[16];
            size_t room = capacity - count < 16 ? capacity - count : 16;
            int read = v1.gpiod_line_event_read_fd_multiple(fd, events, (unsigned int)room);
            if (read < 0) {
                if (errno == EAGAIN || errno == EINTR) continue;
                return -1;
            }
            for (int j = 0; j < read; j++) {
                uint64_t stamp = (uint64_t)events[j].ts.tv_sec * 1000000000ull + (uint64_t)events[j].ts.tv_nsec;
                struct crownpager_gpio_edge edge = {
                    .timestamp_ns = stamp, .offset = v1.gpiod_line_offset(lines->lines[i]),
                    .rising = events[j].event_type == V1_EVENT_RISING_EDGE};
                // Insertion keeps the merge stable: equal stamps stay in reading order.
                size_t at = count;
                while (at > 0 && edges[at - 1].timestamp_ns > stamp) {
                    edges[at] = edges[at - 1];
                    at--;
                }
                edges[at] = edge;
                count++;
            }
            if (read > 0) progress = 1;
        }
    }
    return (int)count;
}

#define BIND(symbol) \
    if (!(v1.symbol = (__typeof__(v1.symbol))dlsym(library, #symbol))) return NULL

const struct crownpager_gpio_backend *crownpager_gpio_bind_v1(void *library) {
    static const struct crownpager_gpio_backend backend = {
        .major = 1, .version = version, .request = request, .request_output = request_output,
        .set_value = set_value, .kernel_debounces = kernel_debounces,
        .descriptors = descriptors, .values = values, .read_edges = read_edges, .release = release};
    BIND(gpiod_chip_open);
    BIND(gpiod_chip_close);
    BIND(gpiod_chip_num_lines);
    BIND(gpiod_chip_get_line);
    BIND(gpiod_line_request_both_edges_events_flags);
    BIND(gpiod_line_request_output);
    BIND(gpiod_line_set_value);
    BIND(gpiod_line_event_get_fd);
    BIND(gpiod_line_get_value);
    BIND(gpiod_line_event_read_fd_multiple);
    BIND(gpiod_line_offset);
    BIND(gpiod_line_release);
    BIND(gpiod_version_string);
    return &backend;
}
