// The fake SPI devices: /dev/spidev<bus>.<cs> as the kernel's spidev driver presents them, with a
// display's D/C# line on a fake GPIO chip.
//
// Behaviour follows drivers/spi/spidev.c: SPI_IOC_{RD,WR}_MODE, _MODE32, _LSB_FIRST,
// _BITS_PER_WORD and _MAX_SPEED_HZ read and set the device's settings (EINVAL for a mode bit
// spidev does not know, or a speed of 0), SPI_IOC_MESSAGE(N) runs N transfers (EMSGSIZE when
// their bytes pass the buffer: spidev's bufsiz parameter, 4096 bytes by default, which
// /sys/module/spidev/parameters/bufsiz tells and fake_spi_set_buffer_size changes), and write()
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
#define SPIDEV_MAJOR 153
/// The mode bits spidev accepts from SPI_IOC_WR_MODE32 (SPI_MODE_USER_MASK, less the newer ones).
#define MODE_BITS (SPI_CPHA | SPI_CPOL | SPI_CS_HIGH | SPI_LSB_FIRST | SPI_3WIRE | SPI_LOOP | SPI_NO_CS | SPI_READY)

struct device {
    int exists;
    int dc_chip;
    unsigned int dc_offset;
    uint32_t mode, speed_hz;
    uint8_t bits_per_word;
    struct fake_transfer_log transfers;  // as I2C writes: the control byte, then the bytes
};

static struct device devices[MAX_BUSES][MAX_SELECTS];
/// spidev's bufsiz module parameter: 4096 unless set, readable at /sys/module/spidev/parameters/bufsiz.
static size_t buffer_size = 4096;
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

void fake_spi_note_output(int chip, unsigned int offset, int level, uint64_t timestamp_ns) {
    char line[96];
    int length = snprintf(line, sizeof line, "# gpio %d %u %d %llu\n", chip, offset, level, (unsigned long long)timestamp_ns);
    fake_append_to_file(trace_path, line, (size_t)length);
}

/// One transfer of `length` bytes, taken as commands or data by the D/C# line's level now.
static int deliver(struct device *device, const uint8_t *bytes, size_t length) {
    uint8_t control = fake_gpio_level(device->dc_chip, device->dc_offset) == 1 ? 0x40 : 0x00;
    fake_append_trace_line(trace_path, 0x3c, &control, 1, bytes, length);
    if (!keep_transfers) return 0;
    return fake_transfer_log_append(&device->transfers, &control, 1, bytes, length, monotonic_now());
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
    if (total > buffer_size) return -EMSGSIZE;
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
    if (count > buffer_size) {
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
            fake_transfer_log_free(&devices[b][s].transfers);
        }
    }
    memset(devices, 0, sizeof devices);
    memset(fd_device, 0, sizeof fd_device);
    trace_path[0] = 0;
    buffer_size = 4096;
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

/// Writes spidev's bufsiz parameter where the program reads it; 0, or -1 with errno.
static int write_buffer_size(void) {
    char text[32];
    snprintf(text, sizeof text, "%zu\n", buffer_size);
    return fake_write_node("/sys/module/spidev/parameters/bufsiz", text);
}

int fake_spi_add_device(int bus, int select, int dc_chip, unsigned int dc_offset) {
    struct device *device = device_at(bus, select);
    if (!device || !fake_kernel_root_path()) {
        errno = EINVAL;
        return -1;
    }
    char path[64];
    snprintf(path, sizeof path, "/dev/spidev%d.%d", bus, select);
    pthread_mutex_lock(&fake_kernel_lock);
    int result = fake_kernel_create_node(path) == 0 && write_buffer_size() == 0 ? 0 : -1;
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

int fake_spi_set_buffer_size(size_t size) {
    if (size == 0 || !fake_kernel_root_path()) {
        errno = EINVAL;
        return -1;
    }
    pthread_mutex_lock(&fake_kernel_lock);
    buffer_size = size;
    int result = write_buffer_size();
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

/// The device's transfer log; NULL for no such device. Under the lock.
static struct fake_transfer_log *log_of(int bus, int select) {
    struct device *device = device_at(bus, select);
    return device ? &device->transfers : NULL;
}

size_t fake_spi_transfer_count(int bus, int select) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct fake_transfer_log *log = log_of(bus, select);
    size_t count = log ? log->count : 0;
    pthread_mutex_unlock(&fake_kernel_lock);
    return count;
}

/// Transfer `index` of the device (0 bytes at time 0 past the end).
static struct fake_transfer transfer_at(int bus, int select, size_t index) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct fake_transfer_log *log = log_of(bus, select);
    struct fake_transfer transfer = log && index < log->count ? log->items[index] : (struct fake_transfer){0};
    pthread_mutex_unlock(&fake_kernel_lock);
    return transfer;
}

size_t fake_spi_transfer_length(int bus, int select, size_t index) { return transfer_at(bus, select, index).length; }

uint64_t fake_spi_transfer_time(int bus, int select, size_t index) {
    return transfer_at(bus, select, index).timestamp_ns;
}

size_t fake_spi_copy_transfer(int bus, int select, size_t index, uint8_t *buffer, size_t capacity) {
    pthread_mutex_lock(&fake_kernel_lock);
    size_t copied = fake_transfer_log_copy(log_of(bus, select), index, buffer, capacity);
    pthread_mutex_unlock(&fake_kernel_lock);
    return copied;
}

__attribute__((constructor(105))) static void fake_spi_register(void) {
    fake_kernel_register_kind(&spi_kind);
    fake_kernel_translate_prefix("/sys/module/spidev/");
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
