// The fake I2C adapters: /dev/i2c-<bus> as the kernel's i2c-dev driver presents them.
//
// Behaviour follows drivers/i2c/i2c-dev.c: I2C_SLAVE/I2C_SLAVE_FORCE set the address for
// read()/write() (EINVAL above 0x7f), write() sends one message (capped at 8192 bytes),
// I2C_RDWR sends up to 42 messages (EINVAL for more, or for one longer than 8192 bytes),
// I2C_SMBUS performs quick, byte, byte-data and I2C-block transfers, I2C_FUNCS reports plain
// I2C plus SMBus emulation. A missing device, like a display on a Pi with none attached,
// fails with EREMOTEIO (i2c-bcm2835); fake_i2c_set_nack chooses ENXIO or EREMOTEIO.
// fake_i2c_set_short_count_nacks makes a bus report a NACK as i2c-virtio does, by the i2c core's
// contract that a transfer returns the number of messages executed: I2C_RDWR returns the
// messages before the refused one (no errno), write() returns 0 bytes (i2c_master_send passes the
// count on), and an SMBus transfer fails with EIO (i2c_smbus_xfer_emulated's answer to a short count).
//
// An adapter that goes away (a USB adapter unplugged, its driver unloaded) is its node unlinked,
// by fake_i2c_remove_adapter or by anyone deleting <root>/dev/i2c-<bus> (a test driving an
// LD_PRELOAD run does that from outside): as i2c-dev does once the adapter is unregistered,
// every call on a descriptor opened before fails with ENODEV, and opening the path fails with
// ENOENT until the node is made again (fake_i2c_add_bus, or the file created again). The
// devices on the bus stay: the display is wired to the adapter and comes back with it.
//
// Environment (LD_PRELOAD runs): FAKE_I2C_DEVICES=<bus>:<address>[:<status>][,...] adds
// devices, e.g. "1:0x3c" or "1:0x3c:0x08" (the byte a status read returns); FAKE_I2C_TRACE=<file> appends each accepted write as an i2ctransfer line
// ("w3@0x3c 0x00 0xae 0xaf"), so a test can replay what the program sent; FAKE_I2C_HZ=<hertz>
// makes each write take its bus time at that clock (fake_transfers.c, for the flood benchmark). Such a run keeps no
// transfers in memory (fake_i2c_transfer_count and the like are for tests linking the fake).
#undef _FORTIFY_SOURCE
#include "fake_kernel_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "FakeKernel.h"

#define MAX_BUSES 16
#define MAX_FDS 4096
#define MESSAGE_LIMIT 8192
#define RDWR_MESSAGE_LIMIT 42  // I2C_RDWR_IOCTL_MAX_MSGS

struct device {
    int present;
    int nack_error;  // nonzero: every transfer fails with it
    int fail_count;  // transfers left to fail with fail_error
    int fail_error;
    uint8_t status;
    struct fake_transfer_log transfers;
    size_t refused;
};

struct bus {
    int exists;
    int interrupt_count;
    int short_count_nacks;  // a refused message ends the transfer with a short count, not an errno
    struct device devices[128];
};

static struct bus buses[MAX_BUSES];
static int fd_bus[MAX_FDS];
static int fd_address[MAX_FDS];  // -1 until I2C_SLAVE
static char trace_path[1024];
static int keep_transfers = 1;  // 0 in LD_PRELOAD runs (FAKE_I2C_DEVICES)

static struct device *device_at(int bus, int address) {
    if (bus < 0 || bus >= MAX_BUSES || address < 0 || address > 127) return NULL;
    return &buses[bus].devices[address];
}

/// One message to `address`: refused with errno set and -1, or recorded and 0.
static int deliver(int bus, int address, const uint8_t *bytes, size_t length, int is_write) {
    if (buses[bus].interrupt_count > 0) {
        buses[bus].interrupt_count--;
        struct device *device = device_at(bus, address);
        if (device) device->refused++;
        errno = EINTR;
        return -1;
    }
    struct device *device = device_at(bus, address);
    if (!device || !device->present) {
        if (device) device->refused++;
        errno = EREMOTEIO;
        return -1;
    }
    if (device->nack_error || device->fail_count > 0) {
        int error = device->nack_error ? device->nack_error : device->fail_error;
        if (!device->nack_error) device->fail_count--;
        device->refused++;
        errno = error;
        return -1;
    }
    if (!is_write) return 0;
    fake_append_trace_line(trace_path, address, NULL, 0, bytes, length);
    fake_bus_charge(length);
    // A program under LD_PRELOAD has no one to ask for the transfers (its trace file has them):
    // keeping them would grow its memory with every frame, and a soak would take it for a leak.
    if (!keep_transfers) return 0;
    return fake_transfer_log_append(&device->transfers, NULL, 0, bytes, length, 0);
}

// MARK: The kind's callbacks

/// Whether the node `fd` was opened on has been unlinked since: the adapter went away.
static int adapter_gone(int fd) {
    struct stat status;
    return fstat(fd, &status) == 0 && status.st_nlink == 0;
}

static int bus_number(const char *path) {
    const char *digits = path + strlen("/dev/i2c-");
    char *end;
    long bus = strtol(digits, &end, 10);
    return (*digits && !*end && bus >= 0 && bus < MAX_BUSES) ? (int)bus : -1;
}

static int i2c_open(const char *path, int fd, int flags) {
    (void)flags;
    int bus = bus_number(path);
    if (bus < 0 || !buses[bus].exists || fd >= MAX_FDS) return ENODEV;
    fd_bus[fd] = bus;
    fd_address[fd] = -1;
    return 0;
}

static void i2c_close(int fd) {
    if (fd >= 0 && fd < MAX_FDS) fd_address[fd] = -1;
}

/// Whether the failure `deliver` just reported is a NACK this bus reports as a short count.
static int counts_short(int bus) { return buses[bus].short_count_nacks && errno != EINTR; }

static int smbus(int bus, struct i2c_smbus_ioctl_data *request, int address) {
    struct device *device = device_at(bus, address);
    uint8_t buffer[I2C_SMBUS_BLOCK_MAX + 2];
    size_t length = 0;
    int is_write = request->read_write == I2C_SMBUS_WRITE;
    switch (request->size) {
    case I2C_SMBUS_QUICK: break;
    case I2C_SMBUS_BYTE:
        if (is_write) buffer[length++] = request->command;
        break;
    case I2C_SMBUS_BYTE_DATA:
        buffer[length++] = request->command;
        if (is_write && request->data) buffer[length++] = request->data->byte;
        break;
    case I2C_SMBUS_I2C_BLOCK_DATA:
        buffer[length++] = request->command;
        if (is_write && request->data) {
            size_t count = request->data->block[0] > I2C_SMBUS_BLOCK_MAX ? I2C_SMBUS_BLOCK_MAX : request->data->block[0];
            memcpy(buffer + length, request->data->block + 1, count);
            length += count;
        }
        break;
    default: errno = EINVAL; return -1;
    }
    if (deliver(bus, address, buffer, length, is_write && request->size != I2C_SMBUS_QUICK) != 0) {
        if (counts_short(bus)) errno = EIO;
        return -1;
    }
    if (!is_write && request->data && device) {
        if (request->size == I2C_SMBUS_I2C_BLOCK_DATA) {
            memset(request->data->block + 1, device->status, request->data->block[0]);
        } else {
            request->data->byte = device->status;
        }
    }
    return 0;
}

static int i2c_ioctl(int fd, unsigned long request, unsigned long argument) {
    int bus = fd_bus[fd];
    if (adapter_gone(fd)) {
        errno = ENODEV;
        return -1;
    }
    switch (request) {
    case I2C_SLAVE:
    case I2C_SLAVE_FORCE:
        if (argument > 0x7F) {
            errno = EINVAL;
            return -1;
        }
        fd_address[fd] = (int)argument;
        return 0;
    case I2C_TENBIT:
        if (argument) {
            errno = EINVAL;  // no 10-bit addressing on this adapter
            return -1;
        }
        return 0;
    case I2C_RETRIES:
    case I2C_TIMEOUT: return 0;
    case I2C_FUNCS:
        *(unsigned long *)argument = I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
        return 0;
    case I2C_RDWR: {
        struct i2c_rdwr_ioctl_data *data = (struct i2c_rdwr_ioctl_data *)argument;
        if (!data || data->nmsgs > RDWR_MESSAGE_LIMIT) {
            errno = EINVAL;
            return -1;
        }
        for (unsigned i = 0; i < data->nmsgs; i++) {
            if (data->msgs[i].len > MESSAGE_LIMIT) {
                errno = EINVAL;
                return -1;
            }
        }
        for (unsigned i = 0; i < data->nmsgs; i++) {
            struct i2c_msg *message = &data->msgs[i];
            int is_write = !(message->flags & I2C_M_RD);
            if (deliver(bus, message->addr, message->buf, message->len, is_write) != 0) {
                return counts_short(bus) ? (int)i : -1;  // i2c-virtio: the messages executed before it
            }
            struct device *device = device_at(bus, message->addr);
            if (!is_write && device) memset(message->buf, device->status, message->len);
        }
        return (int)data->nmsgs;
    }
    case I2C_SMBUS:
        if (fd_address[fd] < 0) {
            errno = EINVAL;
            return -1;
        }
        return smbus(bus, (struct i2c_smbus_ioctl_data *)argument, fd_address[fd]);
    default: errno = ENOTTY; return -1;
    }
}

static ssize_t i2c_write(int fd, const void *buffer, size_t count) {
    if (adapter_gone(fd)) {
        errno = ENODEV;
        return -1;
    }
    if (fd_address[fd] < 0) {
        errno = EINVAL;
        return -1;
    }
    if (count > MESSAGE_LIMIT) count = MESSAGE_LIMIT;  // i2c-dev truncates, as the kernel does
    if (deliver(fd_bus[fd], fd_address[fd], buffer, count, 1) != 0) return counts_short(fd_bus[fd]) ? 0 : -1;
    return (ssize_t)count;
}

static ssize_t i2c_read(int fd, void *buffer, size_t count) {
    if (adapter_gone(fd)) {
        errno = ENODEV;
        return -1;
    }
    if (fd_address[fd] < 0) {
        errno = EINVAL;
        return -1;
    }
    if (count > MESSAGE_LIMIT) count = MESSAGE_LIMIT;
    if (deliver(fd_bus[fd], fd_address[fd], NULL, 0, 0) != 0) return -1;
    memset(buffer, device_at(fd_bus[fd], fd_address[fd])->status, count);
    return (ssize_t)count;
}

static dev_t i2c_device_number(const char *path) {
    int bus = bus_number(path);
    return makedev(89, bus < 0 ? 0 : bus);  // I2C_MAJOR
}

static void i2c_reset(void) {
    for (int b = 0; b < MAX_BUSES; b++) {
        for (int a = 0; a < 128; a++) {
            fake_transfer_log_free(&buses[b].devices[a].transfers);
        }
    }
    memset(buses, 0, sizeof buses);
    trace_path[0] = 0;
}

static const struct fake_device_kind i2c_kind = {
    .name = "i2c",
    .prefix = "/dev/i2c-",
    .on_open = i2c_open,
    .on_close = i2c_close,
    .on_ioctl = i2c_ioctl,
    .on_read = i2c_read,
    .on_write = i2c_write,
    .device_number = i2c_device_number,
    .reset = i2c_reset,
};

// MARK: Public API

int fake_i2c_add_bus(int bus) {
    if (bus < 0 || bus >= MAX_BUSES || !fake_kernel_root_path()) {
        errno = EINVAL;
        return -1;
    }
    char path[64];
    snprintf(path, sizeof path, "/dev/i2c-%d", bus);
    pthread_mutex_lock(&fake_kernel_lock);
    int result = fake_kernel_create_node(path);
    if (result == 0) buses[bus].exists = 1;
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

int fake_i2c_remove_adapter(int bus) {
    char path[64], backing[4096];
    snprintf(path, sizeof path, "/dev/i2c-%d", bus);
    if (bus < 0 || bus >= MAX_BUSES || !fake_kernel_root_path() ||
        fake_kernel_backing_path(path, backing, sizeof backing) != 0) {
        errno = EINVAL;
        return -1;
    }
    pthread_mutex_lock(&fake_kernel_lock);
    int result = unlink(backing);
    if (result == 0) buses[bus].exists = 0;
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

int fake_i2c_add_device(int bus, int address) {
    if (!device_at(bus, address) || fake_i2c_add_bus(bus) != 0) {
        errno = EINVAL;
        return -1;
    }
    pthread_mutex_lock(&fake_kernel_lock);
    buses[bus].devices[address].present = 1;
    pthread_mutex_unlock(&fake_kernel_lock);
    return 0;
}

void fake_i2c_set_nack(int bus, int address, int error) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = device_at(bus, address);
    if (device) device->nack_error = error;
    pthread_mutex_unlock(&fake_kernel_lock);
}

void fake_i2c_fail_next(int bus, int address, int count, int error) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = device_at(bus, address);
    if (device) {
        device->fail_count = count;
        device->fail_error = error;
    }
    pthread_mutex_unlock(&fake_kernel_lock);
}

void fake_i2c_interrupt_next(int bus, int count) {
    pthread_mutex_lock(&fake_kernel_lock);
    if (bus >= 0 && bus < MAX_BUSES) buses[bus].interrupt_count = count;
    pthread_mutex_unlock(&fake_kernel_lock);
}

void fake_i2c_set_short_count_nacks(int bus, int enabled) {
    pthread_mutex_lock(&fake_kernel_lock);
    if (bus >= 0 && bus < MAX_BUSES) buses[bus].short_count_nacks = enabled;
    pthread_mutex_unlock(&fake_kernel_lock);
}

void fake_i2c_set_status(int bus, int address, uint8_t status) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = device_at(bus, address);
    if (device) device->status = status;
    pthread_mutex_unlock(&fake_kernel_lock);
}

size_t fake_i2c_transfer_count(int bus, int address) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = device_at(bus, address);
    size_t count = device ? device->transfers.count : 0;
    pthread_mutex_unlock(&fake_kernel_lock);
    return count;
}

size_t fake_i2c_transfer_length(int bus, int address, size_t index) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = device_at(bus, address);
    size_t length = device && index < device->transfers.count ? device->transfers.items[index].length : 0;
    pthread_mutex_unlock(&fake_kernel_lock);
    return length;
}

size_t fake_i2c_copy_transfer(int bus, int address, size_t index, uint8_t *buffer, size_t capacity) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = device_at(bus, address);
    size_t copied = device ? fake_transfer_log_copy(&device->transfers, index, buffer, capacity) : 0;
    pthread_mutex_unlock(&fake_kernel_lock);
    return copied;
}

size_t fake_i2c_refused_count(int bus, int address) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = device_at(bus, address);
    size_t count = device ? device->refused : 0;
    pthread_mutex_unlock(&fake_kernel_lock);
    return count;
}

void fake_i2c_clear_transfers(int bus, int address) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = device_at(bus, address);
    if (device) {
        fake_transfer_log_clear(&device->transfers);
        device->refused = 0;
    }
    pthread_mutex_unlock(&fake_kernel_lock);
}

__attribute__((constructor(102))) static void fake_i2c_register(void) {
    fake_kernel_register_kind(&i2c_kind);
    const char *trace = getenv("FAKE_I2C_TRACE");
    if (trace) snprintf(trace_path, sizeof trace_path, "%s", trace);
    const char *devices = getenv("FAKE_I2C_DEVICES");
    if (!devices || !fake_kernel_root_path()) return;
    keep_transfers = 0;
    char list[512];
    snprintf(list, sizeof list, "%s", devices);
    for (char *save = NULL, *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(item, ':');
        if (!colon) continue;
        *colon = 0;
        char *status = strchr(colon + 1, ':');
        if (status) *status++ = 0;
        int bus = (int)strtol(item, NULL, 0), address = (int)strtol(colon + 1, NULL, 0);
        fake_i2c_add_device(bus, address);
        if (status) fake_i2c_set_status(bus, address, (uint8_t)strtol(status, NULL, 0));
    }
}
