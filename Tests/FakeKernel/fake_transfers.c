// What the fake buses (fake_i2c.c, fake_spi.c) share: the log of the writes a device accepted,
// the trace file's i2ctransfer lines, and the plain files (sysfs) they make under the root.
#undef _FORTIFY_SOURCE
#include "fake_kernel_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int fake_transfer_log_append(
    struct fake_transfer_log *log, const uint8_t *head, size_t head_length, const uint8_t *bytes, size_t length,
    uint64_t timestamp_ns) {
    if (log->count == log->capacity) {
        size_t capacity = log->capacity ? log->capacity * 2 : 64;
        struct fake_transfer *grown = realloc(log->items, capacity * sizeof *grown);
        if (!grown) {
            errno = ENOMEM;
            return -1;
        }
        log->items = grown;
        log->capacity = capacity;
    }
    uint8_t *copy = malloc(head_length + length ? head_length + length : 1);
    if (!copy) {
        errno = ENOMEM;
        return -1;
    }
    if (head_length) memcpy(copy, head, head_length);
    if (length) memcpy(copy + head_length, bytes, length);
    log->items[log->count++] = (struct fake_transfer){copy, head_length + length, timestamp_ns};
    return 0;
}

void fake_transfer_log_clear(struct fake_transfer_log *log) {
    for (size_t i = 0; i < log->count; i++) free(log->items[i].bytes);
    log->count = 0;
}

void fake_transfer_log_free(struct fake_transfer_log *log) {
    fake_transfer_log_clear(log);
    free(log->items);
    *log = (struct fake_transfer_log){0};
}

size_t fake_transfer_log_copy(const struct fake_transfer_log *log, size_t index, uint8_t *buffer, size_t capacity) {
    if (!log || index >= log->count) return 0;
    size_t copied = log->items[index].length < capacity ? log->items[index].length : capacity;
    memcpy(buffer, log->items[index].bytes, copied);
    return copied;
}

void fake_append_to_file(const char *path, const char *text, size_t length) {
    if (!path || !path[0]) return;
    int fd = fake_real_open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return;
    fake_real_write(fd, text, length);
    fake_real_close(fd);
}

void fake_append_trace_line(
    const char *path, int address, const uint8_t *head, size_t head_length, const uint8_t *bytes, size_t length) {
    if (!path || !path[0]) return;
    size_t capacity = 32 + (head_length + length) * 5;
    char *line = malloc(capacity);
    if (!line) return;
    size_t used = (size_t)snprintf(line, capacity, "w%zu@0x%02x", head_length + length, address);
    for (size_t i = 0; i < head_length; i++) used += (size_t)snprintf(line + used, capacity - used, " 0x%02x", head[i]);
    for (size_t i = 0; i < length; i++) used += (size_t)snprintf(line + used, capacity - used, " 0x%02x", bytes[i]);
    line[used++] = '\n';
    fake_append_to_file(path, line, used);
    free(line);
}

int fake_write_node(const char *path, const char *contents) {
    char backing[4096];
    if (fake_kernel_create_node(path) != 0 || fake_kernel_backing_path(path, backing, sizeof backing) != 0) return -1;
    int fd = fake_real_open(backing, O_WRONLY | O_TRUNC | O_CLOEXEC, 0);
    if (fd < 0) return -1;
    ssize_t written = fake_real_write(fd, contents, strlen(contents));
    fake_real_close(fd);
    return written == (ssize_t)strlen(contents) ? 0 : -1;
}

// MARK: Timing (the flood benchmark, Scripts/bench/mqtt-flood.sh)
//
// FAKE_I2C_HZ=<hertz> makes each accepted I2C write take its time on a bus of that clock, as
// the repository's bus model counts it (9 bits a byte, control byte included, and 11 for start,
// address and stop): the writing thread sleeps after the kernel lock is released, so the knob's
// edges are still taken meanwhile. FAKE_EVENT_LOG=<file> gets a line per write at its last byte
// ("<ns> i2c <bytes>"), before the first write after a poll(2) a line "<ns> turn" stamped with
// the instant that poll returned, and one per edge the FIFO brings (fake_gpio.c), CLOCK_MONOTONIC.

uint64_t fake_monotonic_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

void fake_log_event(uint64_t timestamp_ns, const char *text) {
    const char *path = getenv("FAKE_EVENT_LOG");
    if (!path || !path[0]) return;
    char line[256];
    int length = snprintf(line, sizeof line, "%llu %s\n", (unsigned long long)timestamp_ns, text);
    if (length > 0) fake_append_to_file(path, line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1);
}

// The last poll(2) return before a write: the loop reads its input after a poll, so a detent
// stamped later cannot be in the frame that turn writes. Written and read by the loop's thread.
static __thread uint64_t polled_ns, turn_logged_ns;

/// Whether FAKE_EVENT_LOG is set, looked up once: poll(2) is called often, by tests too.
static int logging_events(void) {
    static int known = -1;
    if (known < 0) known = getenv("FAKE_EVENT_LOG") != NULL;
    return known;
}

void fake_bus_note_poll(void) {
    if (logging_events()) polled_ns = fake_monotonic_now();
}

static __thread uint64_t owed_ns;
static __thread size_t owed_bytes;

void fake_bus_charge(size_t length) {
    const char *hertz = getenv("FAKE_I2C_HZ");
    long clock = hertz ? strtol(hertz, NULL, 10) : 0;
    if (clock <= 0) return;
    owed_ns += ((uint64_t)length * 9 + 11) * 1000000000ull / (uint64_t)clock;
    owed_bytes += length;
}

void fake_bus_settle(void) {
    if (!owed_bytes) return;
    uint64_t end = fake_monotonic_now() + owed_ns;
    struct timespec until = {(time_t)(end / 1000000000ull), (long)(end % 1000000000ull)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR) {
    }
    char text[64];
    if (polled_ns != turn_logged_ns) {
        turn_logged_ns = polled_ns;
        fake_log_event(polled_ns, "turn");
    }
    snprintf(text, sizeof text, "i2c %zu", owed_bytes);
    fake_log_event(fake_monotonic_now(), text);
    owed_ns = 0;
    owed_bytes = 0;
}
