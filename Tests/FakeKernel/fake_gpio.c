// The fake GPIO chips: /dev/gpiochip<N> as drivers/gpio/gpiolib-cdev.c presents them, for
// libgpiod 1.6 (uAPI v1) and 2.x (uAPI v2) alike.
//
// What libgpiod checks before it talks to a chip is there: stat() reports a character device
// 254:N, sysfs /sys/bus/gpio/devices/gpiochipN/dev reads "254:N\n" (1.6), and
// /sys/dev/char/254:N/subsystem resolves to /sys/bus/gpio (2.x). The chip answers
// GPIO_GET_CHIPINFO_IOCTL, GPIO_GET_LINEINFO_IOCTL, GPIO_GET_LINEEVENT_IOCTL (v1) and
// GPIO_V2_GET_LINE_IOCTL (v2): EINVAL for an offset past the last line or a bad flag mix,
// EBUSY for a line already requested. A request's descriptor is a real FIFO opened read-write,
// so poll() and read() need no faking: an edge (fake_gpio_set_line) writes a gpioevent_data
// (v1) or gpio_v2_line_event (v2) record into it, only if the request asked for that edge.
// GPIOHANDLE_GET_LINE_VALUES_IOCTL and GPIO_V2_LINE_GET_VALUES_IOCTL read the levels; a line
// nobody drives reads its bias (high with a pull-up). The kernel debounce period is recorded
// (fake_gpio_debounce_us), not simulated. Output lines (GPIO_GET_LINEHANDLE_IOCTL with
// GPIOHANDLE_REQUEST_OUTPUT in v1, GPIO_V2_LINE_FLAG_OUTPUT in v2) start at the request's default
// or output values and change with GPIOHANDLE_SET_LINE_VALUES_IOCTL or GPIO_V2_LINE_SET_VALUES_IOCTL;
// each level driven is recorded with its CLOCK_MONOTONIC time (fake_gpio_output_change), and
// written to the SPI trace when there is one (fake_spi.c), so a test can time a reset pulse.
//
// A chip that goes away (fake_gpio_remove_chip: its driver unbound, a USB expander unplugged)
// loses its node (open fails with ENOENT), and its descriptors fail with ENODEV, as gpiolib-cdev
// answers once the chip is gone; its requests' descriptors become readable (poll wakes) and
// their reads fail with ENODEV. fake_gpio_add_chip brings it back, its lines free.
//
// Environment (LD_PRELOAD runs): FAKE_GPIO_CHIPS=<N>:<lines>[,...] adds chips, e.g. "0:54";
// FAKE_GPIO_HELD=<N>:<offset>:<consumer>[,...] marks lines held by another program (fake_gpio_hold_line);
// FAKE_GPIO_INPUT=<fifo> makes a thread read edges from that FIFO, one per line:
// "<chip> <offset> <level> [<timestamp_ns>]", stamped with CLOCK_MONOTONIC now when no
// timestamp is given, as the kernel stamps them; "remove <chip>" and "add <chip> <lines>"
// remove and add a chip; "i2c-fail <bus> <address> <count> <errno>" NACKs the next transfers
// (fake_i2c_fail_next), "i2c-nack <bus> <address> <errno>" NACKs every transfer until the same
// line with 0 (fake_i2c_set_nack), "i2c-remove <bus>" and "i2c-add <bus>" unplug and replug an adapter;
// the input devices' lines are in fake_input.c. With FAKE_EVENT_LOG each edge read is logged
// there with its stamp (fake_transfers.c), and a line "mark <words>" is logged as it is, stamped now.
#undef _FORTIFY_SOURCE
#include "fake_kernel_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <linux/gpio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "FakeKernel.h"

#define MAX_CHIPS 4
#define MAX_LINES 64
#define MAX_REQUESTS 64
#define MAX_FDS 4096
#define GPIO_MAJOR 254
#define MAX_CHANGES 256

/// One level an output line was driven to, and when (CLOCK_MONOTONIC).
struct change {
    uint64_t timestamp_ns;
    int level;
};

struct line {
    int requested, driven, level, request;
    /// The first MAX_CHANGES levels requests drove the line to (request and set values), and how many there were.
    struct change changes[MAX_CHANGES];
    size_t change_count;
    uint64_t flags;  // GPIO_V2_LINE_FLAG_* as requested (v1 flags translated)
    unsigned int debounce_us, line_seqno;
    char consumer[GPIO_MAX_NAME_SIZE];
};

struct chip {
    int exists;
    unsigned int lines;
    struct line line[MAX_LINES];
};

struct request {
    int used, chip, version, fd, gone;
    unsigned int count, offsets[MAX_LINES], seqno;
};

static const struct fake_device_kind gpio_kind;
static struct chip chips[MAX_CHIPS];
static struct request requests[MAX_REQUESTS];
static int fd_chip[MAX_FDS];     // chip index + 1 for a chip descriptor
static int fd_request[MAX_FDS];  // request index + 1 for a request descriptor

static struct line *line_at(int chip, unsigned int offset) {
    if (chip < 0 || chip >= MAX_CHIPS || !chips[chip].exists || offset >= chips[chip].lines) return NULL;
    return &chips[chip].line[offset];
}

/// The level a line reads: what drives it, else its bias (floating reads low).
static int level_of(const struct line *line) {
    if (line->driven) return line->level;
    return (line->flags & GPIO_V2_LINE_FLAG_BIAS_PULL_UP) ? 1 : 0;
}

static uint64_t monotonic_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

/// A request drives output line `offset` of `chip` to `level` now: recorded, and noted in the SPI trace.
static void drive_output(int chip, unsigned int offset, int level) {
    struct line *line = &chips[chip].line[offset];
    uint64_t now = monotonic_now();
    line->driven = 1;
    line->level = level ? 1 : 0;
    if (line->change_count < MAX_CHANGES) line->changes[line->change_count] = (struct change){now, line->level};
    line->change_count++;
    fake_spi_note_output(chip, offset, line->level, now);
}

static int chip_number(const char *path) {
    const char *digits = path + strlen("/dev/gpiochip");
    char *end;
    long chip = strtol(digits, &end, 10);
    return (*digits && !*end && chip >= 0 && chip < MAX_CHIPS) ? (int)chip : -1;
}

// MARK: Requests

/// A request of `count` lines whose flags are already stored; its FIFO becomes the descriptor.
static int make_request(int chip, int version, const unsigned int *offsets, unsigned int count) {
    int index = -1;
    for (int i = 0; i < MAX_REQUESTS && index < 0; i++) {
        if (!requests[i].used) index = i;
    }
    const char *root = fake_kernel_root_path();
    if (index < 0 || !root) return -EMFILE;
    char fifo[4096];
    snprintf(fifo, sizeof fifo, "%s/dev/.gpio-request-%d-%d", root, getpid(), index);
    unlink(fifo);
    if (mkfifo(fifo, 0600) != 0) return -errno;
    int fd = fake_real_open(fifo, O_RDWR | O_CLOEXEC, 0);
    unlink(fifo);  // the open FIFO lives on, and leaves nothing behind
    if (fd < 0) return -errno;
    if (fd >= MAX_FDS || fake_kernel_adopt_descriptor(fd, &gpio_kind) != 0) {
        fake_real_close(fd);
        return -EMFILE;
    }
    struct request *request = &requests[index];
    *request = (struct request){.used = 1, .chip = chip, .version = version, .fd = fd, .count = count};
    memcpy(request->offsets, offsets, count * sizeof *offsets);
    for (unsigned int i = 0; i < count; i++) {
        struct line *line = &chips[chip].line[offsets[i]];
        line->requested = 1;
        line->request = index;
        line->line_seqno = 0;
    }
    fd_request[fd] = index + 1;
    return fd;
}

static void release_request(int index) {
    struct request *request = &requests[index];
    // A request of a chip that went away owns no lines: the chip may be back, its lines others'.
    for (unsigned int i = 0; i < request->count && !request->gone; i++) {
        struct line *line = &chips[request->chip].line[request->offsets[i]];
        line->requested = 0;
        line->flags = 0;
        line->debounce_us = 0;
        line->consumer[0] = 0;
    }
    request->used = 0;
}

/// Flags the kernel refuses (gpio_v2_line_flags_validate): edges or debounce on a non-input, two biases.
static int flags_valid(uint64_t flags) {
    int input = (flags & GPIO_V2_LINE_FLAG_INPUT) != 0, output = (flags & GPIO_V2_LINE_FLAG_OUTPUT) != 0;
    if (input == output) return 0;
    if ((flags & (GPIO_V2_LINE_FLAG_EDGE_RISING | GPIO_V2_LINE_FLAG_EDGE_FALLING)) && !input) return 0;
    int biases = !!(flags & GPIO_V2_LINE_FLAG_BIAS_PULL_UP) + !!(flags & GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN)
        + !!(flags & GPIO_V2_LINE_FLAG_BIAS_DISABLED);
    return biases <= 1;
}

static int request_v1(int chip, struct gpioevent_request *request) {
    struct line *line = line_at(chip, request->lineoffset);
    if (!line) return -EINVAL;
    if (!(request->handleflags & GPIOHANDLE_REQUEST_INPUT) || (request->handleflags & GPIOHANDLE_REQUEST_OUTPUT)) return -EINVAL;
    if (!(request->eventflags & GPIOEVENT_REQUEST_BOTH_EDGES) || (request->eventflags & ~GPIOEVENT_REQUEST_BOTH_EDGES)) return -EINVAL;
    if (line->requested) return -EBUSY;
    uint64_t flags = GPIO_V2_LINE_FLAG_INPUT;
    if (request->handleflags & GPIOHANDLE_REQUEST_ACTIVE_LOW) flags |= GPIO_V2_LINE_FLAG_ACTIVE_LOW;
    if (request->handleflags & GPIOHANDLE_REQUEST_BIAS_PULL_UP) flags |= GPIO_V2_LINE_FLAG_BIAS_PULL_UP;
    if (request->handleflags & GPIOHANDLE_REQUEST_BIAS_PULL_DOWN) flags |= GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN;
    if (request->handleflags & GPIOHANDLE_REQUEST_BIAS_DISABLE) flags |= GPIO_V2_LINE_FLAG_BIAS_DISABLED;
    if (request->eventflags & GPIOEVENT_REQUEST_RISING_EDGE) flags |= GPIO_V2_LINE_FLAG_EDGE_RISING;
    if (request->eventflags & GPIOEVENT_REQUEST_FALLING_EDGE) flags |= GPIO_V2_LINE_FLAG_EDGE_FALLING;
    if (!flags_valid(flags)) return -EINVAL;
    line->flags = flags;
    snprintf(line->consumer, sizeof line->consumer, "%s", request->consumer_label);
    int fd = make_request(chip, 1, &request->lineoffset, 1);
    if (fd < 0) {
        line->flags = 0;
        return fd;
    }
    request->fd = fd;
    return 0;
}

/// GPIO_GET_LINEHANDLE_IOCTL: lines without events; outputs start at the default values.
static int request_handle_v1(int chip, struct gpiohandle_request *request) {
    unsigned int count = request->lines;
    if (count == 0 || count > GPIOHANDLES_MAX) return -EINVAL;
    int output = (request->flags & GPIOHANDLE_REQUEST_OUTPUT) != 0;
    if (output == !!(request->flags & GPIOHANDLE_REQUEST_INPUT)) return -EINVAL;
    for (unsigned int i = 0; i < count; i++) {
        if (!line_at(chip, request->lineoffsets[i])) return -EINVAL;
        if (chips[chip].line[request->lineoffsets[i]].requested) return -EBUSY;
    }
    for (unsigned int i = 0; i < count; i++) {
        struct line *line = &chips[chip].line[request->lineoffsets[i]];
        line->flags = output ? GPIO_V2_LINE_FLAG_OUTPUT : GPIO_V2_LINE_FLAG_INPUT;
        snprintf(line->consumer, sizeof line->consumer, "%s", request->consumer_label);
    }
    int fd = make_request(chip, 1, request->lineoffsets, count);
    if (fd < 0) {
        for (unsigned int i = 0; i < count; i++) chips[chip].line[request->lineoffsets[i]].flags = 0;
        return fd;
    }
    for (unsigned int i = 0; output && i < count; i++) drive_output(chip, request->lineoffsets[i], request->default_values[i]);
    request->fd = fd;
    return 0;
}

static int request_v2(int chip, struct gpio_v2_line_request *request) {
    unsigned int count = request->num_lines;
    if (count == 0 || count > GPIO_V2_LINES_MAX || request->config.num_attrs > GPIO_V2_LINE_NUM_ATTRS_MAX) return -EINVAL;
    uint64_t flags[GPIO_V2_LINES_MAX];
    unsigned int debounce[GPIO_V2_LINES_MAX];
    uint64_t outputs = 0;  // the output values attribute, by request index
    for (unsigned int i = 0; i < count; i++) {
        if (!line_at(chip, request->offsets[i])) return -EINVAL;
        for (unsigned int j = 0; j < i; j++) {
            if (request->offsets[j] == request->offsets[i]) return -EINVAL;
        }
        flags[i] = request->config.flags;
        debounce[i] = 0;
        for (unsigned int a = 0; a < request->config.num_attrs; a++) {
            struct gpio_v2_line_config_attribute *attribute = &request->config.attrs[a];
            if (!(attribute->mask & (1ull << i))) continue;
            if (attribute->attr.id == GPIO_V2_LINE_ATTR_ID_FLAGS) flags[i] = attribute->attr.flags;
            if (attribute->attr.id == GPIO_V2_LINE_ATTR_ID_DEBOUNCE) debounce[i] = attribute->attr.debounce_period_us;
            if (attribute->attr.id == GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES && ((attribute->attr.values >> i) & 1)) outputs |= 1ull << i;
        }
        if (!flags_valid(flags[i]) || (debounce[i] && !(flags[i] & GPIO_V2_LINE_FLAG_INPUT))) return -EINVAL;
    }
    for (unsigned int i = 0; i < count; i++) {
        if (chips[chip].line[request->offsets[i]].requested) return -EBUSY;
    }
    for (unsigned int i = 0; i < count; i++) {
        struct line *line = &chips[chip].line[request->offsets[i]];
        line->flags = flags[i];
        line->debounce_us = debounce[i];
        snprintf(line->consumer, sizeof line->consumer, "%s", request->consumer);
    }
    int fd = make_request(chip, 2, request->offsets, count);
    if (fd < 0) {
        for (unsigned int i = 0; i < count; i++) chips[chip].line[request->offsets[i]].flags = 0;
        return fd;
    }
    for (unsigned int i = 0; i < count; i++) {
        if (flags[i] & GPIO_V2_LINE_FLAG_OUTPUT) drive_output(chip, request->offsets[i], (int)((outputs >> i) & 1));
    }
    request->fd = fd;
    return 0;
}

// MARK: The kind's callbacks

static int gpio_open(const char *path, int fd, int flags) {
    (void)flags;
    int chip = chip_number(path);
    if (chip < 0 || !chips[chip].exists || fd >= MAX_FDS) return ENODEV;
    fd_chip[fd] = chip + 1;
    fd_request[fd] = 0;
    return 0;
}

static void gpio_close(int fd) {
    if (fd < 0 || fd >= MAX_FDS) return;
    if (fd_request[fd]) release_request(fd_request[fd] - 1);
    fd_chip[fd] = 0;
    fd_request[fd] = 0;
}

static int chip_ioctl(int chip, unsigned long command, void *argument) {
    switch (command) {
    case GPIO_GET_CHIPINFO_IOCTL: {
        struct gpiochip_info *info = argument;
        memset(info, 0, sizeof *info);
        snprintf(info->name, sizeof info->name, "gpiochip%d", chip);
        snprintf(info->label, sizeof info->label, "fake-gpio-%d", chip);
        info->lines = chips[chip].lines;
        return 0;
    }
    case GPIO_GET_LINEINFO_IOCTL: {
        struct gpioline_info *info = argument;
        struct line *line = line_at(chip, info->line_offset);
        if (!line) return -EINVAL;
        unsigned int offset = info->line_offset;
        memset(info, 0, sizeof *info);
        info->line_offset = offset;
        snprintf(info->name, sizeof info->name, "GPIO%u", offset);
        snprintf(info->consumer, sizeof info->consumer, "%s", line->consumer);
        if (line->requested) info->flags |= GPIOLINE_FLAG_KERNEL;
        if (line->flags & GPIO_V2_LINE_FLAG_OUTPUT) info->flags |= GPIOLINE_FLAG_IS_OUT;
        if (line->flags & GPIO_V2_LINE_FLAG_ACTIVE_LOW) info->flags |= GPIOLINE_FLAG_ACTIVE_LOW;
        if (line->flags & GPIO_V2_LINE_FLAG_BIAS_PULL_UP) info->flags |= GPIOLINE_FLAG_BIAS_PULL_UP;
        if (line->flags & GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN) info->flags |= GPIOLINE_FLAG_BIAS_PULL_DOWN;
        if (line->flags & GPIO_V2_LINE_FLAG_BIAS_DISABLED) info->flags |= GPIOLINE_FLAG_BIAS_DISABLE;
        return 0;
    }
    case GPIO_GET_LINEEVENT_IOCTL: return request_v1(chip, argument);
    case GPIO_GET_LINEHANDLE_IOCTL: return request_handle_v1(chip, argument);
    case GPIO_V2_GET_LINE_IOCTL: return request_v2(chip, argument);
    default: return -ENOTTY;
    }
}

static int request_ioctl(struct request *request, unsigned long command, void *argument) {
    struct chip *chip = &chips[request->chip];
    switch (command) {
    case GPIOHANDLE_GET_LINE_VALUES_IOCTL: {
        if (request->version != 1) return -ENOTTY;
        struct gpiohandle_data *data = argument;
        memset(data, 0, sizeof *data);
        for (unsigned int i = 0; i < request->count; i++) data->values[i] = (uint8_t)level_of(&chip->line[request->offsets[i]]);
        return 0;
    }
    case GPIOHANDLE_SET_LINE_VALUES_IOCTL: {
        if (request->version != 1) return -ENOTTY;
        struct gpiohandle_data *data = argument;
        for (unsigned int i = 0; i < request->count; i++) {
            if (!(chip->line[request->offsets[i]].flags & GPIO_V2_LINE_FLAG_OUTPUT)) return -EPERM;
        }
        for (unsigned int i = 0; i < request->count; i++) drive_output(request->chip, request->offsets[i], data->values[i]);
        return 0;
    }
    case GPIO_V2_LINE_SET_VALUES_IOCTL: {
        if (request->version != 2) return -ENOTTY;
        struct gpio_v2_line_values *values = argument;
        if (values->mask == 0) return -EINVAL;
        for (unsigned int i = 0; i < request->count; i++) {
            if ((values->mask & (1ull << i)) && !(chip->line[request->offsets[i]].flags & GPIO_V2_LINE_FLAG_OUTPUT)) return -EPERM;
        }
        for (unsigned int i = 0; i < request->count; i++) {
            if (values->mask & (1ull << i)) drive_output(request->chip, request->offsets[i], (int)((values->bits >> i) & 1));
        }
        return 0;
    }
    case GPIO_V2_LINE_GET_VALUES_IOCTL: {
        if (request->version != 2) return -ENOTTY;
        struct gpio_v2_line_values *values = argument;
        if (values->mask == 0) return -EINVAL;
        values->bits = 0;
        for (unsigned int i = 0; i < request->count; i++) {
            if ((values->mask & (1ull << i)) && level_of(&chip->line[request->offsets[i]])) values->bits |= 1ull << i;
        }
        return 0;
    }
    default: return -ENOTTY;
    }
}

/// Whether `fd` is a descriptor of a chip that went away, or of one of its requests.
static int descriptor_gone(int fd) {
    if (fd < 0 || fd >= MAX_FDS) return 0;
    if (fd_request[fd]) return requests[fd_request[fd] - 1].gone;
    return fd_chip[fd] && !chips[fd_chip[fd] - 1].exists;
}

static ssize_t gpio_read(int fd, void *buffer, size_t count) {
    if (descriptor_gone(fd)) {
        errno = ENODEV;
        return -1;
    }
    return fake_real_read(fd, buffer, count);
}

static int gpio_ioctl(int fd, unsigned long command, unsigned long argument) {
    int result = -ENOTTY;
    if (descriptor_gone(fd)) {
        errno = ENODEV;
        return -1;
    }
    if (fd >= 0 && fd < MAX_FDS && fd_chip[fd]) result = chip_ioctl(fd_chip[fd] - 1, command, (void *)argument);
    if (fd >= 0 && fd < MAX_FDS && fd_request[fd]) result = request_ioctl(&requests[fd_request[fd] - 1], command, (void *)argument);
    if (result < 0) {
        errno = -result;
        return -1;
    }
    return result;
}

static dev_t gpio_device_number(const char *path) {
    int chip = chip_number(path);
    return makedev(GPIO_MAJOR, chip < 0 ? 255 : chip);
}

static void gpio_reset(void) {
    // Descriptors still open stay their owners' to close; they are plain FIFOs from now on.
    for (int i = 0; i < MAX_REQUESTS; i++) {
        if (requests[i].used) fake_kernel_adopt_descriptor(requests[i].fd, NULL);
    }
    memset(requests, 0, sizeof requests);
    memset(chips, 0, sizeof chips);
    memset(fd_chip, 0, sizeof fd_chip);
    memset(fd_request, 0, sizeof fd_request);
}

static const struct fake_device_kind gpio_kind = {
    .name = "gpio", .prefix = "/dev/gpiochip", .on_open = gpio_open, .on_close = gpio_close, .on_ioctl = gpio_ioctl,
    .on_read = gpio_read, .device_number = gpio_device_number, .reset = gpio_reset,
};

// MARK: Public API

int fake_gpio_add_chip(int chip, unsigned int lines) {
    if (chip < 0 || chip >= MAX_CHIPS || lines == 0 || lines > MAX_LINES || !fake_kernel_root_path()) {
        errno = EINVAL;
        return -1;
    }
    pthread_mutex_lock(&fake_kernel_lock);
    char node[64], dev[128], link[128], contents[32], backing[4096], target[4096];
    snprintf(node, sizeof node, "/dev/gpiochip%d", chip);
    snprintf(dev, sizeof dev, "/sys/bus/gpio/devices/gpiochip%d/dev", chip);
    snprintf(contents, sizeof contents, "%d:%d\n", GPIO_MAJOR, chip);
    snprintf(link, sizeof link, "/sys/dev/char/%d:%d/subsystem", GPIO_MAJOR, chip);
    int result = fake_kernel_create_node(node) == 0 && fake_write_node(dev, contents) == 0 ? 0 : -1;
    // sysfs links the device's subsystem to /sys/bus/gpio: libgpiod 2.x resolves it.
    if (result == 0 && fake_kernel_create_node(link) == 0 && fake_kernel_backing_path(link, backing, sizeof backing) == 0) {
        unlink(backing);
        snprintf(target, sizeof target, "%s/sys/bus/gpio", fake_kernel_root_path());
        result = symlink(target, backing);
    }
    if (result == 0) {
        memset(&chips[chip], 0, sizeof chips[chip]);
        chips[chip].exists = 1;
        chips[chip].lines = lines;
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

int fake_gpio_remove_chip(int chip) {
    char node[64], backing[4096];
    snprintf(node, sizeof node, "/dev/gpiochip%d", chip);
    if (chip < 0 || chip >= MAX_CHIPS || !fake_kernel_root_path() ||
        fake_kernel_backing_path(node, backing, sizeof backing) != 0) {
        errno = EINVAL;
        return -1;
    }
    pthread_mutex_lock(&fake_kernel_lock);
    int result = -1;
    if (!chips[chip].exists) {
        errno = ENODEV;
    } else {
        result = unlink(backing);
        chips[chip].exists = 0;
        for (int i = 0; i < MAX_REQUESTS; i++) {
            if (!requests[i].used || requests[i].chip != chip || requests[i].gone) continue;
            requests[i].gone = 1;
            fake_real_write(requests[i].fd, "", 1);  // wakes poll(); the read then fails with ENODEV
        }
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

int fake_gpio_set_line(int chip, unsigned int offset, int level, uint64_t timestamp_ns) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct line *line = line_at(chip, offset);
    int result = -1;
    if (!line) {
        errno = EINVAL;
    } else {
        int before = level_of(line);
        line->driven = 1;
        line->level = level ? 1 : 0;
        result = 0;
        uint64_t wanted = line->level ? GPIO_V2_LINE_FLAG_EDGE_RISING : GPIO_V2_LINE_FLAG_EDGE_FALLING;
        if (line->requested && line->request >= 0 && before != line->level && (line->flags & wanted)) {
            struct request *request = &requests[line->request];
            uint64_t stamp = timestamp_ns ? timestamp_ns : monotonic_now();
            if (request->version == 1) {
                struct gpioevent_data event = {
                    .timestamp = stamp, .id = line->level ? GPIOEVENT_EVENT_RISING_EDGE : GPIOEVENT_EVENT_FALLING_EDGE};
                result = fake_real_write(request->fd, &event, sizeof event) == (ssize_t)sizeof event ? 0 : -1;
            } else {
                struct gpio_v2_line_event event = {
                    .timestamp_ns = stamp,
                    .id = line->level ? GPIO_V2_LINE_EVENT_RISING_EDGE : GPIO_V2_LINE_EVENT_FALLING_EDGE,
                    .offset = offset, .seqno = ++request->seqno, .line_seqno = ++line->line_seqno};
                result = fake_real_write(request->fd, &event, sizeof event) == (ssize_t)sizeof event ? 0 : -1;
            }
        }
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

int fake_gpio_hold_line(int chip, unsigned int offset, const char *consumer) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct line *line = line_at(chip, offset);
    int result = -1;
    if (!line || line->requested) {
        errno = line ? EBUSY : EINVAL;
    } else {
        // A line held by a driver or another program: no request of ours owns it.
        line->requested = 1;
        line->request = -1;
        line->flags = GPIO_V2_LINE_FLAG_INPUT;
        snprintf(line->consumer, sizeof line->consumer, "%s", consumer ? consumer : "");
        result = 0;
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

/// The requested flags of a line, 0 when it is free.
static uint64_t line_flags(int chip, unsigned int offset) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct line *line = line_at(chip, offset);
    uint64_t flags = line && line->requested ? line->flags : 0;
    pthread_mutex_unlock(&fake_kernel_lock);
    return flags;
}

int fake_gpio_is_requested(int chip, unsigned int offset) { return line_flags(chip, offset) != 0; }
int fake_gpio_has_pull_up(int chip, unsigned int offset) { return (line_flags(chip, offset) & GPIO_V2_LINE_FLAG_BIAS_PULL_UP) != 0; }

int fake_gpio_detects_both_edges(int chip, unsigned int offset) {
    uint64_t both = GPIO_V2_LINE_FLAG_EDGE_RISING | GPIO_V2_LINE_FLAG_EDGE_FALLING;
    return (line_flags(chip, offset) & both) == both;
}

unsigned int fake_gpio_debounce_us(int chip, unsigned int offset) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct line *line = line_at(chip, offset);
    unsigned int period = line && line->requested ? line->debounce_us : 0;
    pthread_mutex_unlock(&fake_kernel_lock);
    return period;
}

int fake_gpio_level(int chip, unsigned int offset) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct line *line = line_at(chip, offset);
    int level = line ? level_of(line) : -1;
    pthread_mutex_unlock(&fake_kernel_lock);
    return level;
}

int fake_gpio_is_output(int chip, unsigned int offset) { return (line_flags(chip, offset) & GPIO_V2_LINE_FLAG_OUTPUT) != 0; }

size_t fake_gpio_output_change_count(int chip, unsigned int offset) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct line *line = line_at(chip, offset);
    size_t count = line ? line->change_count : 0;
    pthread_mutex_unlock(&fake_kernel_lock);
    return count;
}

int fake_gpio_output_change(int chip, unsigned int offset, size_t index, int *level, uint64_t *timestamp_ns) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct line *line = line_at(chip, offset);
    int result = -1;
    if (line && index < line->change_count && index < MAX_CHANGES) {
        *level = line->changes[index].level;
        *timestamp_ns = line->changes[index].timestamp_ns;
        result = 0;
    } else {
        errno = EINVAL;
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

// MARK: Configuration from the environment (LD_PRELOAD runs)

static void *read_input(void *argument) {
    int fd = (int)(intptr_t)argument;
    char buffer[4096];
    size_t used = 0;
    uint64_t last = 0;
    for (;;) {
        ssize_t count = read(fd, buffer + used, sizeof buffer - 1 - used);
        if (count <= 0) {
            if (count < 0 && errno == EINTR) continue;
            return NULL;
        }
        used += (size_t)count;
        buffer[used] = 0;
        char *start = buffer, *newline;
        while ((newline = strchr(start, '\n'))) {
            *newline = 0;
            int chip, level;
            unsigned int offset;
            unsigned long long stamp = 0;
            unsigned int lines;
            int bus, address, count, error, device, type, code, value;
            char name[64];
            if (strncmp(start, "mark ", 5) == 0) {
                fake_log_event(monotonic_now(), start);
            } else if (sscanf(start, "i2c-nack %d %i %d", &bus, &address, &error) == 3) {
                fake_i2c_set_nack(bus, address, error);
            } else if (sscanf(start, "input %d %d %d %d", &device, &type, &code, &value) == 4) {
                fake_input_emit(device, (uint16_t)type, (uint16_t)code, value);
            } else if (sscanf(start, "input-remove %d", &device) == 1) {
                fake_input_remove_device(device);
            } else if (sscanf(start, "input-add %d %63s", &device, name) == 2) {
                fake_input_add_device(device, name);
            } else if (sscanf(start, "i2c-fail %d %i %d %d", &bus, &address, &count, &error) == 4) {
                fake_i2c_fail_next(bus, address, count, error);
            } else if (sscanf(start, "i2c-remove %d", &bus) == 1) {
                fake_i2c_remove_adapter(bus);
            } else if (sscanf(start, "i2c-add %d", &bus) == 1) {
                fake_i2c_add_bus(bus);
            } else if (sscanf(start, "remove %d", &chip) == 1) {
                fake_gpio_remove_chip(chip);
            } else if (sscanf(start, "add %d %u", &chip, &lines) == 2) {
                fake_gpio_add_chip(chip, lines);
            } else if (sscanf(start, "%d %u %d %llu", &chip, &offset, &level, &stamp) >= 3) {
                // Strictly increasing, as the kernel's stamps of successive edges are.
                if (!stamp) stamp = monotonic_now() > last ? monotonic_now() : last + 1;
                last = stamp;
                fake_gpio_set_line(chip, offset, level, stamp);
                char event[64];
                snprintf(event, sizeof event, "edge %d %u %d", chip, offset, level);
                fake_log_event(stamp, event);
            }
            start = newline + 1;
        }
        used = (size_t)(buffer + used - start);
        memmove(buffer, start, used);
        if (used == sizeof buffer - 1) used = 0;
    }
}

__attribute__((constructor(103))) static void fake_gpio_register(void) {
    fake_kernel_register_kind(&gpio_kind);
    fake_kernel_translate_prefix("/sys/bus/gpio");
    fake_kernel_translate_prefix("/sys/dev/char/");
    if (!fake_kernel_root_path()) return;
    const char *list = getenv("FAKE_GPIO_CHIPS");
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list ? list : "");
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        unsigned int lines = 0;
        int chip = -1;
        if (sscanf(item, "%d:%u", &chip, &lines) == 2) fake_gpio_add_chip(chip, lines);
    }
    const char *held = getenv("FAKE_GPIO_HELD");
    snprintf(copy, sizeof copy, "%s", held ? held : "");
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        unsigned int offset = 0;
        int chip = -1;
        char consumer[GPIO_MAX_NAME_SIZE] = "";
        if (sscanf(item, "%d:%u:%31[^,]", &chip, &offset, consumer) >= 2) fake_gpio_hold_line(chip, offset, consumer);
    }
    const char *input = getenv("FAKE_GPIO_INPUT");
    if (!input || !*input) return;
    if (access(input, F_OK) != 0) mkfifo(input, 0600);
    int fd = fake_real_open(input, O_RDWR | O_CLOEXEC, 0);
    pthread_t thread;
    if (fd < 0) return;
    // The thread starts with every signal blocked: started before main, it would otherwise take
    // the signals the program blocks to read them from a signalfd (SIGHUP, SIGTERM) and die of
    // them. A real kernel adds no thread to the program.
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    pthread_create(&thread, NULL, read_input, (void *)(intptr_t)fd);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
}
