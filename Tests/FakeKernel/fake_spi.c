// The fake SPI devices: /dev/spidev<bus>.<cs> as the kernel's spidev driver presents them, with a
// display's D/C# line on a fake GPIO chip.
//
// Behaviour follows drivers/spi/spidev.c: SPI_IOC_{RD,WR}_MODE, _MODE32, _LSB_FIRST,
// _BITS_PER_WORD and _MAX_SPEED_HZ read and set the device's settings (EINVAL for a mode bit
// spidev does not know, or a speed of 0), SPI_IOC_MESSAGE(N) runs N transfers (EMSGSIZE when
// their bytes pass the buffer, 4096 bytes as spidev's bufsiz parameter defaults to), and write()
// sends one transfer (EMSGSIZE past the buffer). A node that does not exist (SPI not enabled:
// no dtparam=spi=on) fails to open with ENOENT.
//
// A 4-wire SPI display (SSD1306 datasheet 8.1.3) tells commands from data by its D/C# pin, low
// for a command: each transfer is recorded with the level of the device's D/C# GPIO line at that
// moment, as the equivalent I2C write, its control byte 00h (D/C# low) or 40h (high) and then the
// bytes, so a test replays it into the emulator exactly like an I2C trace.
//
// Environment (LD_PRELOAD runs): FAKE_SPI_DEVICES=<bus>.<cs>:<chip>:<offset>[,...] adds devices
// whose D/C# is line <offset> of /dev/gpiochip<chip>, e.g. "0.0:0:24"; FAKE_SPI_TRACE=<file>
// appends each transfer as an i2ctransfer line to 0x3c ("w3@0x3c 0x00 0xae 0xaf"), and each level
// a request drives an output GPIO line to as a comment ("# gpio 0 25 0 <CLOCK_MONOTONIC ns>"),
// before the transfers it preceded. Such a run keeps no transfers in memory.
#undef _FORTIFY_SOURCE
#include "fake_kernel_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/spi/spidev.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "FakeKernel.h"

#define MAX_BUSES 4
#define MAX_SELECTS 4
#define MAX_FDS 4096
#define BUFFER_SIZE 4096  // spidev's bufsiz module parameter, by default
#define SPIDEV_MAJOR 153
/// The mode bits spidev accepts from SPI_IOC_WR_MODE32 (SPI_MODE_USER_MASK, less the newer ones).
#define MODE_BITS (SPI_CPHA | SPI_CPOL | SPI_CS_HIGH | SPI_LSB_FIRST | SPI_3WIRE | SPI_LOOP | SPI_NO_CS | SPI_READY)

struct transfer {
    uint8_t *bytes;  // the control byte, then the payload
    size_t length;
    uint64_t timestamp_ns;
};

struct device {
    int exists;
    int dc_chip;
    unsigned int dc_offset;
    uint32_t mode, speed_hz;
    uint8_t bits_per_word;
    struct transfer *transfers;
    size_t transfer_count, transfer_capacity;
};

static struct device devices[MAX_BUSES][MAX_SELECTS];
static struct device *fd_device[MAX_FDS];
static char trace_path[1024];
static int keep_transfers = 1;  // 0 in LD_PRELOAD runs (FAKE_SPI_DEVICES)

static uint64_t monotonic_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

static struct device *device_at(int bus, int select) {
    if (bus < 0 || bus >= MAX_BUSES || select < 0 || select >= MAX_SELECTS) return NULL;
    return &devices[bus][select];
}

/// The device /dev/spidev<bus>.<cs> names; NULL for another path.
static struct device *device_of(const char *path) {
    int bus, select, used = 0;
    if (sscanf(path, "/dev/spidev%d.%d%n", &bus, &select, &used) != 2 || path[used]) return NULL;
    return device_at(bus, select);
}

static void append_trace(const char *text, size_t length) {
    if (!trace_path[0]) return;
    int fd = fake_real_open(trace_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return;
    fake_real_write(fd, text, length);
    fake_real_close(fd);
}

void fake_spi_note_output(int chip, unsigned int offset, int level, uint64_t timestamp_ns) {
    char line[96];
    int length = snprintf(line, sizeof line, "# gpio %d %u %d %llu\n", chip, offset, level, (unsigned long long)timestamp_ns);
    append_trace(line, (size_t)length);
}

/// One transfer of `length` bytes, taken as commands or data by the D/C# line's level now.
static int deliver(struct device *device, const uint8_t *bytes, size_t length) {
    uint8_t control = fake_gpio_level(device->dc_chip, device->dc_offset) == 1 ? 0x40 : 0x00;
    if (trace_path[0]) {
        size_t capacity = 32 + (length + 1) * 5;
        char *line = malloc(capacity);
        if (!line) {
            errno = ENOMEM;
            return -1;
        }
        size_t used = (size_t)snprintf(line, capacity, "w%zu@0x3c 0x%02x", length + 1, control);
        for (size_t i = 0; i < length; i++) used += (size_t)snprintf(line + used, capacity - used, " 0x%02x", bytes[i]);
        line[used++] = '\n';
        append_trace(line, used);
        free(line);
    }
    if (!keep_transfers) return 0;
    if (device->transfer_count == device->transfer_capacity) {
        size_t capacity = device->transfer_capacity ? device->transfer_capacity * 2 : 64;
        struct transfer *grown = realloc(device->transfers, capacity * sizeof *grown);
        if (!grown) {
            errno = ENOMEM;
            return -1;
        }
        device->transfers = grown;
        device->transfer_capacity = capacity;
    }
    uint8_t *copy = malloc(length + 1);
    if (!copy) {
        errno = ENOMEM;
        return -1;
    }
    copy[0] = control;
    memcpy(copy + 1, bytes, length);
    device->transfers[device->transfer_count++] = (struct transfer){copy, length + 1, monotonic_now()};
    return 0;
}

// MARK: The kind's callbacks

static int spi_open(const char *path, int fd, int flags) {
    (void)flags;
    struct device *device = device_of(path);
    if (!device || !device->exists || fd >= MAX_FDS) return ENODEV;
    fd_device[fd] = device;
    return 0;
}

static void spi_close(int fd) {
    if (fd >= 0 && fd < MAX_FDS) fd_device[fd] = NULL;
}

/// SPI_IOC_MESSAGE(N): N transfers, their bytes at most the buffer's size in all.
static int message(struct device *device, const struct spi_ioc_transfer *transfers, size_t count) {
    size_t total = 0;
    for (size_t i = 0; i < count; i++) total += transfers[i].len;
    if (total > BUFFER_SIZE) return -EMSGSIZE;
    for (size_t i = 0; i < count; i++) {
        if (!transfers[i].tx_buf || !transfers[i].len) continue;
        if (deliver(device, (const uint8_t *)(uintptr_t)transfers[i].tx_buf, transfers[i].len) != 0) return -errno;
    }
    return (int)total;
}

static int spi_ioctl(int fd, unsigned long request, unsigned long argument) {
    struct device *device = fd >= 0 && fd < MAX_FDS ? fd_device[fd] : NULL;
    void *pointer = (void *)argument;
    int result = 0;
    if (!device) {
        errno = EBADF;
        return -1;
    }
    switch (request) {
    case SPI_IOC_RD_MODE: *(uint8_t *)pointer = (uint8_t)device->mode; break;
    case SPI_IOC_RD_MODE32: *(uint32_t *)pointer = device->mode; break;
    case SPI_IOC_RD_LSB_FIRST: *(uint8_t *)pointer = (device->mode & SPI_LSB_FIRST) ? 1 : 0; break;
    case SPI_IOC_RD_BITS_PER_WORD: *(uint8_t *)pointer = device->bits_per_word; break;
    case SPI_IOC_RD_MAX_SPEED_HZ: *(uint32_t *)pointer = device->speed_hz; break;
    case SPI_IOC_WR_MODE:
    case SPI_IOC_WR_MODE32: {
        uint32_t mode = request == SPI_IOC_WR_MODE ? *(uint8_t *)pointer : *(uint32_t *)pointer;
        if (mode & ~(uint32_t)MODE_BITS) result = -EINVAL;
        else device->mode = mode;
        break;
    }
    case SPI_IOC_WR_LSB_FIRST:
        device->mode = *(uint8_t *)pointer ? device->mode | SPI_LSB_FIRST : device->mode & ~(uint32_t)SPI_LSB_FIRST;
        break;
    case SPI_IOC_WR_BITS_PER_WORD: {
        uint8_t bits = *(uint8_t *)pointer;
        if (bits != 0 && bits != 8) result = -EINVAL;  // the controller's (bcm2835: 8 only)
        else device->bits_per_word = bits ? bits : 8;
        break;
    }
    case SPI_IOC_WR_MAX_SPEED_HZ: {
        uint32_t speed = *(uint32_t *)pointer;
        if (speed == 0) result = -EINVAL;
        else device->speed_hz = speed;
        break;
    }
    default:
        // SPI_IOC_MESSAGE(N) encodes N in the size: a whole number of transfers, written.
        if (_IOC_TYPE(request) == SPI_IOC_MAGIC && _IOC_NR(request) == 0 && _IOC_DIR(request) == _IOC_WRITE &&
            _IOC_SIZE(request) % sizeof(struct spi_ioc_transfer) == 0) {
            result = message(device, pointer, _IOC_SIZE(request) / sizeof(struct spi_ioc_transfer));
        } else {
            result = -ENOTTY;
        }
    }
    if (result < 0) {
        errno = -result;
        return -1;
    }
    return result;
}

static ssize_t spi_write(int fd, const void *buffer, size_t count) {
    struct device *device = fd >= 0 && fd < MAX_FDS ? fd_device[fd] : NULL;
    if (!device) {
        errno = EBADF;
        return -1;
    }
    if (count > BUFFER_SIZE) {
        errno = EMSGSIZE;
        return -1;
    }
    if (deliver(device, buffer, count) != 0) return -1;
    return (ssize_t)count;
}

static dev_t spi_device_number(const char *path) {
    int bus = 0, select = 0;
    sscanf(path, "/dev/spidev%d.%d", &bus, &select);
    return makedev(SPIDEV_MAJOR, (unsigned int)(bus * MAX_SELECTS + select));
}

static void spi_reset(void) {
    for (int b = 0; b < MAX_BUSES; b++) {
        for (int s = 0; s < MAX_SELECTS; s++) {
            for (size_t i = 0; i < devices[b][s].transfer_count; i++) free(devices[b][s].transfers[i].bytes);
            free(devices[b][s].transfers);
        }
    }
    memset(devices, 0, sizeof devices);
    memset(fd_device, 0, sizeof fd_device);
    trace_path[0] = 0;
}

static const struct fake_device_kind spi_kind = {
    .name = "spi",
    .prefix = "/dev/spidev",
    .on_open = spi_open,
    .on_close = spi_close,
    .on_ioctl = spi_ioctl,
    .on_write = spi_write,
    .device_number = spi_device_number,
    .reset = spi_reset,
};

// MARK: Public API

int fake_spi_add_device(int bus, int select, int dc_chip, unsigned int dc_offset) {
    struct device *device = device_at(bus, select);
    if (!device || !fake_kernel_root_path()) {
        errno = EINVAL;
        return -1;
    }
    char path[64];
    snprintf(path, sizeof path, "/dev/spidev%d.%d", bus, select);
    pthread_mutex_lock(&fake_kernel_lock);
    int result = fake_kernel_create_node(path);
    if (result == 0) {
        device->exists = 1;
        device->dc_chip = dc_chip;
        device->dc_offset = dc_offset;
        device->bits_per_word = 8;
        device->speed_hz = 125000000;  // spidev starts at the controller's maximum
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

/// The device's settings under the lock; 0 for no such device.
static uint32_t setting(int bus, int select, int which) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = device_at(bus, select);
    uint32_t value = 0;
    if (device && device->exists) value = which == 0 ? device->mode : which == 1 ? device->bits_per_word : device->speed_hz;
    pthread_mutex_unlock(&fake_kernel_lock);
    return value;
}

uint32_t fake_spi_mode(int bus, int select) { return setting(bus, select, 0); }
uint32_t fake_spi_bits_per_word(int bus, int select) { return setting(bus, select, 1); }
uint32_t fake_spi_max_speed_hz(int bus, int select) { return setting(bus, select, 2); }

size_t fake_spi_transfer_count(int bus, int select) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = device_at(bus, select);
    size_t count = device ? device->transfer_count : 0;
    pthread_mutex_unlock(&fake_kernel_lock);
    return count;
}

size_t fake_spi_transfer_length(int bus, int select, size_t index) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = device_at(bus, select);
    size_t length = device && index < device->transfer_count ? device->transfers[index].length : 0;
    pthread_mutex_unlock(&fake_kernel_lock);
    return length;
}

uint64_t fake_spi_transfer_time(int bus, int select, size_t index) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = device_at(bus, select);
    uint64_t stamp = device && index < device->transfer_count ? device->transfers[index].timestamp_ns : 0;
    pthread_mutex_unlock(&fake_kernel_lock);
    return stamp;
}

size_t fake_spi_copy_transfer(int bus, int select, size_t index, uint8_t *buffer, size_t capacity) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = device_at(bus, select);
    size_t copied = 0;
    if (device && index < device->transfer_count) {
        copied = device->transfers[index].length < capacity ? device->transfers[index].length : capacity;
        memcpy(buffer, device->transfers[index].bytes, copied);
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    return copied;
}

__attribute__((constructor(105))) static void fake_spi_register(void) {
    fake_kernel_register_kind(&spi_kind);
    const char *trace = getenv("FAKE_SPI_TRACE");
    if (trace) snprintf(trace_path, sizeof trace_path, "%s", trace);
    const char *list = getenv("FAKE_SPI_DEVICES");
    if (!list || !fake_kernel_root_path()) return;
    keep_transfers = 0;
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        int bus, select, chip;
        unsigned int offset;
        if (sscanf(item, "%d.%d:%d:%u", &bus, &select, &chip, &offset) == 4) fake_spi_add_device(bus, select, chip, offset);
    }
}
