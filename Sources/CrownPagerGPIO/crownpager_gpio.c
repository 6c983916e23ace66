// The libgpiod shim: one interface (include/CrownPagerGPIO.h) over the 1.x and 2.x APIs.
#include "CrownPagerGPIO.h"

#include <errno.h>
#include <gpiod.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

static void fail(struct crownpager_gpio_failure *failure, int stage, int error, int has_offset, unsigned int offset) {
    if (!failure) return;
    failure->stage = stage;
    failure->error = error ? error : EIO;
    failure->has_offset = has_offset;
    failure->offset = offset;
}

/// Whether `fd` has something to read now.
static int is_readable(int fd) {
    struct pollfd request = {.fd = fd, .events = POLLIN};
    int ready;
    do ready = poll(&request, 1, 0);
    while (ready < 0 && errno == EINTR);
    return ready > 0 && (request.revents & (POLLIN | POLLERR | POLLHUP));
}

// The requested lines: one line object per offset with 1.x, one request with 2.x.
#ifdef GPIOD_LINE_BULK_MAX_LINES
struct crownpager_gpio {
    struct gpiod_chip *chip;
    struct gpiod_line *lines[CROWNPAGER_GPIO_MAX_LINES];
    size_t count;
};
#else
struct crownpager_gpio {
    struct gpiod_chip *chip;
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *buffer;
    size_t count;
    int debounces;
};
#endif

/// The shared start of a request: check the count, allocate, open the chip; NULL with `failure` filled.
static struct crownpager_gpio *open_chip(const char *chip_path, size_t count, struct crownpager_gpio_failure *failure) {
    if (failure) memset(failure, 0, sizeof *failure);
    if (count == 0 || count > CROWNPAGER_GPIO_MAX_LINES) {
        fail(failure, CROWNPAGER_GPIO_STAGE_SETUP, EINVAL, 0, 0);
        return NULL;
    }
    struct crownpager_gpio *result = calloc(1, sizeof *result);
    if (!result) {
        fail(failure, CROWNPAGER_GPIO_STAGE_SETUP, ENOMEM, 0, 0);
        return NULL;
    }
    result->chip = gpiod_chip_open(chip_path);
    if (!result->chip) {
        fail(failure, CROWNPAGER_GPIO_STAGE_OPEN_CHIP, errno, 0, 0);
        free(result);
        return NULL;
    }
    return result;
}

#ifdef GPIOD_LINE_BULK_MAX_LINES
// MARK: libgpiod 1.x: one request and one event queue per line (uAPI v1).

int crownpager_gpio_api_major(void) { return 1; }
const char *crownpager_gpio_library_version(void) { return gpiod_version_string(); }
int crownpager_gpio_kernel_debounces(const struct crownpager_gpio *lines) { (void)lines; return 0; }

struct crownpager_gpio *crownpager_gpio_request(
    const char *chip_path, const char *consumer, const unsigned int *offsets, const unsigned int *debounce_us,
    size_t count, struct crownpager_gpio_failure *failure) {
    (void)debounce_us;  // the v1 uAPI has no debounce: the caller debounces
    struct crownpager_gpio *result = open_chip(chip_path, count, failure);
    if (!result) return NULL;
    if (failure) failure->chip_lines = gpiod_chip_num_lines(result->chip);
    for (size_t i = 0; i < count; i++) {
        struct gpiod_line *line = gpiod_chip_get_line(result->chip, offsets[i]);
        if (!line) {
            fail(failure, CROWNPAGER_GPIO_STAGE_FIND_LINE, errno, 1, offsets[i]);
            crownpager_gpio_release(result);
            return NULL;
        }
        // One line at a time, so a failure names its line (the bulk call would not say which).
        if (gpiod_line_request_both_edges_events_flags(line, consumer, GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP) != 0) {
            fail(failure, CROWNPAGER_GPIO_STAGE_REQUEST, errno, 1, offsets[i]);
            crownpager_gpio_release(result);
            return NULL;
        }
        result->lines[result->count++] = line;
    }
    return result;
}

size_t crownpager_gpio_descriptors(const struct crownpager_gpio *lines, int *descriptors, size_t capacity) {
    size_t count = 0;
    for (size_t i = 0; i < lines->count && count < capacity; i++) {
        int fd = gpiod_line_event_get_fd(lines->lines[i]);
        if (fd >= 0) descriptors[count++] = fd;
    }
    return count;
}

int crownpager_gpio_values(struct crownpager_gpio *lines, int *values) {
    for (size_t i = 0; i < lines->count; i++) {
        int value = gpiod_line_get_value(lines->lines[i]);
        if (value < 0) return -1;
        values[i] = value;
    }
    return 0;
}

int crownpager_gpio_read_edges(struct crownpager_gpio *lines, struct crownpager_gpio_edge *edges, size_t capacity) {
    // Each line has its own queue, so an A edge and the B edge after it arrive on two
    // descriptors. Drain every ready queue (again, until none is ready), then merge by the
    // kernel's timestamps: reading them line by line would scramble the quadrature sequence.
    size_t count = 0;
    int progress = 1;
    while (progress && count < capacity) {
        progress = 0;
        for (size_t i = 0; i < lines->count && count < capacity; i++) {
            int fd = gpiod_line_event_get_fd(lines->lines[i]);
            if (fd < 0 || !is_readable(fd)) continue;
            struct gpiod_line_event events[16];
            size_t room = capacity - count < 16 ? capacity - count : 16;
            int read = gpiod_line_event_read_fd_multiple(fd, events, (unsigned int)room);
            if (read < 0) {
                if (errno == EAGAIN || errno == EINTR) continue;
                return -1;
            }
            for (int j = 0; j < read; j++) {
                uint64_t stamp = (uint64_t)events[j].ts.tv_sec * 1000000000ull + (uint64_t)events[j].ts.tv_nsec;
                struct crownpager_gpio_edge edge = {
                    .timestamp_ns = stamp, .offset = gpiod_line_offset(lines->lines[i]),
                    .rising = events[j].event_type == GPIOD_LINE_EVENT_RISING_EDGE};
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

void crownpager_gpio_release(struct crownpager_gpio *lines) {
    if (!lines) return;
    for (size_t i = 0; i < lines->count; i++) gpiod_line_release(lines->lines[i]);
    if (lines->chip) gpiod_chip_close(lines->chip);
    free(lines);
}

#else
// MARK: libgpiod 2.x: one request, one ordered event queue, kernel debounce (uAPI v2).

int crownpager_gpio_api_major(void) { return 2; }
const char *crownpager_gpio_library_version(void) { return gpiod_api_version(); }
int crownpager_gpio_kernel_debounces(const struct crownpager_gpio *lines) { return lines->debounces; }

/// A request of `count` lines from `offsets`; NULL with errno set.
static struct gpiod_line_request *request_lines(
    struct gpiod_chip *chip, const char *consumer, const unsigned int *offsets, const unsigned int *debounce_us,
    size_t count) {
    struct gpiod_line_config *config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    struct gpiod_line_request *request = NULL;
    int ok = config && request_config;
    for (size_t i = 0; ok && i < count; i++) {
        struct gpiod_line_settings *settings = gpiod_line_settings_new();
        ok = settings && gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT) == 0
            && gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH) == 0
            && gpiod_line_settings_set_bias(settings, GPIOD_LINE_BIAS_PULL_UP) == 0;
        if (ok && debounce_us && debounce_us[i]) gpiod_line_settings_set_debounce_period_us(settings, debounce_us[i]);
        ok = ok && gpiod_line_config_add_line_settings(config, &offsets[i], 1, settings) == 0;
        gpiod_line_settings_free(settings);
    }
    if (ok) {
        gpiod_request_config_set_consumer(request_config, consumer);
        request = gpiod_chip_request_lines(chip, request_config, config);
    }
    int error = errno;
    gpiod_request_config_free(request_config);
    gpiod_line_config_free(config);
    errno = error;
    return request;
}

struct crownpager_gpio *crownpager_gpio_request(
    const char *chip_path, const char *consumer, const unsigned int *offsets, const unsigned int *debounce_us,
    size_t count, struct crownpager_gpio_failure *failure) {
    struct crownpager_gpio *result = open_chip(chip_path, count, failure);
    if (!result) return NULL;
    result->count = count;
    struct gpiod_chip_info *info = gpiod_chip_get_info(result->chip);
    unsigned int chip_lines = info ? (unsigned int)gpiod_chip_info_get_num_lines(info) : 0;
    gpiod_chip_info_free(info);
    if (failure) failure->chip_lines = chip_lines;
    // The kernel answers EINVAL for an offset past the last line without saying which: check first.
    for (size_t i = 0; i < count; i++) {
        if (chip_lines && offsets[i] >= chip_lines) {
            fail(failure, CROWNPAGER_GPIO_STAGE_FIND_LINE, EINVAL, 1, offsets[i]);
            crownpager_gpio_release(result);
            return NULL;
        }
    }
    result->request = request_lines(result->chip, consumer, offsets, debounce_us, count);
    if (!result->request) {
        int error = errno;
        int found = 0;
        unsigned int culprit = 0;
        // EBUSY names no line either: ask for each alone to find the one in use.
        for (size_t i = 0; error == EBUSY && !found && i < count; i++) {
            struct gpiod_line_request *single = request_lines(result->chip, consumer, &offsets[i], NULL, 1);
            if (single) gpiod_line_request_release(single);
            else if (errno == EBUSY) found = 1, culprit = offsets[i];
        }
        fail(failure, CROWNPAGER_GPIO_STAGE_REQUEST, error, found, culprit);
        crownpager_gpio_release(result);
        return NULL;
    }
    for (size_t i = 0; i < count; i++) result->debounces |= debounce_us && debounce_us[i];
    result->buffer = gpiod_edge_event_buffer_new(64);
    if (!result->buffer) {
        fail(failure, CROWNPAGER_GPIO_STAGE_SETUP, ENOMEM, 0, 0);
        crownpager_gpio_release(result);
        return NULL;
    }
    return result;
}

size_t crownpager_gpio_descriptors(const struct crownpager_gpio *lines, int *descriptors, size_t capacity) {
    if (capacity == 0) return 0;
    descriptors[0] = gpiod_line_request_get_fd(lines->request);
    return 1;
}

int crownpager_gpio_values(struct crownpager_gpio *lines, int *values) {
    enum gpiod_line_value levels[CROWNPAGER_GPIO_MAX_LINES];
    if (gpiod_line_request_get_values(lines->request, levels) != 0) return -1;
    for (size_t i = 0; i < lines->count; i++) values[i] = levels[i] == GPIOD_LINE_VALUE_ACTIVE;
    return 0;
}

int crownpager_gpio_read_edges(struct crownpager_gpio *lines, struct crownpager_gpio_edge *edges, size_t capacity) {
    // One queue, already in the kernel's order (it carries sequence numbers).
    size_t count = 0;
    int fd = gpiod_line_request_get_fd(lines->request);
    while (count < capacity && is_readable(fd)) {
        size_t room = capacity - count < 64 ? capacity - count : 64;
        int read = gpiod_line_request_read_edge_events(lines->request, lines->buffer, room);
        if (read < 0) {
            if (errno == EAGAIN || errno == EINTR) break;
            return -1;
        }
        if (read == 0) break;
        for (int i = 0; i < read; i++) {
            struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(lines->buffer, (unsigned long)i);
            edges[count++] = (struct crownpager_gpio_edge){
                .timestamp_ns = gpiod_edge_event_get_timestamp_ns(event), .offset = gpiod_edge_event_get_line_offset(event),
                .rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE};
        }
    }
    return (int)count;
}

void crownpager_gpio_release(struct crownpager_gpio *lines) {
    if (!lines) return;
    if (lines->buffer) gpiod_edge_event_buffer_free(lines->buffer);
    if (lines->request) gpiod_line_request_release(lines->request);
    if (lines->chip) gpiod_chip_close(lines->chip);
    free(lines);
}
#endif
