// The fake input devices: /dev/input/event<N> as drivers/input/evdev.c presents them, for a knob
// read through the kernel's rotary-encoder and gpio-keys drivers.
//
// A device's node is a FIFO under the fake root, so poll() and read() need no faking: an event
// (fake_input_emit) writes a struct input_event, stamped with CLOCK_MONOTONIC as evdev stamps a
// descriptor that asked for it with EVIOCSCLOCKID, and reads return whole records. The device
// answers EVIOCSCLOCKID and EVIOCGNAME; other ioctls fail with ENOTTY.
//
// A device that goes away (fake_input_remove_device: the overlay unloaded, a USB knob unplugged)
// loses its node (open fails with ENOENT), and the descriptors opened before wake poll() and
// fail their reads with ENODEV, as evdev answers once the device is unregistered.
// fake_input_add_device brings it back under the same number.
//
// Environment (LD_PRELOAD runs): FAKE_INPUT_DEVICES=<N>:<name>[,...] adds devices, e.g.
// "0:rotary@11"; the FIFO of FAKE_GPIO_INPUT (fake_gpio.c) also takes "input <N> <type> <code>
// <value>", "input-remove <N>" and "input-add <N> <name>".
#undef _FORTIFY_SOURCE
#include "fake_kernel_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "FakeKernel.h"

#define MAX_DEVICES 16
#define MAX_FDS 4096

struct device {
    int present;
    unsigned generation;  // a descriptor of an older generation reads ENODEV
    int writer;           // the FIFO opened read-write, to write events into; -1 while absent
    char name[64];
};

static struct device devices[MAX_DEVICES];
static int fd_device[MAX_FDS];  // the device number + 1, 0 for none
static unsigned fd_generation[MAX_FDS];

static int device_number(const char *path) {
    const char *prefix = "/dev/input/event";
    if (strncmp(path, prefix, strlen(prefix)) != 0) return -1;
    char *end = NULL;
    long number = strtol(path + strlen(prefix), &end, 10);
    if (end == path + strlen(prefix) || *end || number < 0 || number >= MAX_DEVICES) return -1;
    return (int)number;
}

static int input_open(const char *path, int fd, int flags) {
    (void)flags;
    int number = device_number(path);
    if (number < 0 || !devices[number].present || fd >= MAX_FDS) return ENODEV;
    fd_device[fd] = number + 1;
    fd_generation[fd] = devices[number].generation;
    return 0;
}

static void input_close(int fd) {
    if (fd >= 0 && fd < MAX_FDS) fd_device[fd] = 0;
}

static struct device *live_device(int fd) {
    if (fd < 0 || fd >= MAX_FDS || !fd_device[fd]) return NULL;
    struct device *device = &devices[fd_device[fd] - 1];
    return device->present && device->generation == fd_generation[fd] ? device : NULL;
}

static int input_ioctl(int fd, unsigned long request, unsigned long argument) {
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = live_device(fd);
    int result = -1, error = 0;
    if (!device) {
        error = ENODEV;
    } else if (request == EVIOCSCLOCKID) {
        result = 0;
    } else if (_IOC_TYPE(request) == 'E' && _IOC_NR(request) == _IOC_NR(EVIOCGNAME(0)) && _IOC_DIR(request) == _IOC_READ) {
        size_t room = _IOC_SIZE(request), length = strlen(device->name) + 1;
        if (length > room) length = room;
        memcpy((void *)argument, device->name, length);
        result = (int)length;
    } else {
        error = ENOTTY;
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    if (error) errno = error;
    return result;
}

static ssize_t input_read(int fd, void *buffer, size_t count) {
    pthread_mutex_lock(&fake_kernel_lock);
    int live = live_device(fd) != NULL;
    pthread_mutex_unlock(&fake_kernel_lock);
    if (!live) {
        errno = ENODEV;
        return -1;
    }
    if (count < sizeof(struct input_event)) {
        errno = EINVAL;
        return -1;
    }
    return fake_real_read(fd, buffer, count - count % sizeof(struct input_event));
}

static ssize_t input_write(int fd, const void *buffer, size_t count) {
    (void)fd, (void)buffer, (void)count;
    errno = EINVAL;
    return -1;
}

static dev_t input_device_number(const char *path) {
    int number = device_number(path);
    return makedev(13, 64 + (number < 0 ? 0 : number));
}

static void input_reset(void) {
    for (int i = 0; i < MAX_DEVICES; i++) {
        if (devices[i].writer >= 0 && devices[i].present) fake_real_close(devices[i].writer);
        devices[i].present = 0;
        devices[i].writer = -1;
    }
    memset(fd_device, 0, sizeof fd_device);
}

static const struct fake_device_kind input_kind = {
    .name = "input",
    .prefix = "/dev/input/event",
    .on_open = input_open,
    .on_close = input_close,
    .on_ioctl = input_ioctl,
    .on_read = input_read,
    .on_write = input_write,
    .device_number = input_device_number,
    .reset = input_reset,
};

// MARK: Public API

int fake_input_add_device(int number, const char *name) {
    char path[64], backing[4096];
    snprintf(path, sizeof path, "/dev/input/event%d", number);
    if (number < 0 || number >= MAX_DEVICES || !fake_kernel_root_path() ||
        fake_kernel_backing_path(path, backing, sizeof backing) != 0) {
        errno = EINVAL;
        return -1;
    }
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = &devices[number];
    int result = -1;
    if (device->present) {
        errno = EEXIST;
    } else if (fake_kernel_create_node(path) == 0 && unlink(backing) == 0 && mkfifo(backing, 0600) == 0) {
        device->writer = fake_real_open(backing, O_RDWR | O_NONBLOCK | O_CLOEXEC, 0);
        if (device->writer >= 0) {
            device->present = 1;
            device->generation++;
            snprintf(device->name, sizeof device->name, "%s", name ? name : "");
            result = 0;
        }
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

int fake_input_remove_device(int number) {
    char path[64], backing[4096];
    snprintf(path, sizeof path, "/dev/input/event%d", number);
    if (number < 0 || number >= MAX_DEVICES || fake_kernel_backing_path(path, backing, sizeof backing) != 0) {
        errno = EINVAL;
        return -1;
    }
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = &devices[number];
    int result = -1;
    if (!device->present) {
        errno = ENODEV;
    } else {
        device->present = 0;
        // A byte in the FIFO wakes every reader's poll(); their reads then fail with ENODEV.
        uint8_t wake = 0;
        fake_real_write(device->writer, &wake, 1);
        fake_real_close(device->writer);
        device->writer = -1;
        result = unlink(backing);
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

int fake_input_emit(int number, uint16_t type, uint16_t code, int32_t value) {
    if (number < 0 || number >= MAX_DEVICES) {
        errno = EINVAL;
        return -1;
    }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    struct input_event event = {.type = type, .code = code, .value = value};
    event.input_event_sec = now.tv_sec;
    event.input_event_usec = now.tv_nsec / 1000;
    pthread_mutex_lock(&fake_kernel_lock);
    struct device *device = &devices[number];
    ssize_t written = device->present ? fake_real_write(device->writer, &event, sizeof event) : -1;
    int error = device->present ? errno : ENODEV;
    pthread_mutex_unlock(&fake_kernel_lock);
    if (written == (ssize_t)sizeof event) return 0;
    errno = error;
    return -1;
}

__attribute__((constructor(104))) static void fake_input_register(void) {
    for (int i = 0; i < MAX_DEVICES; i++) devices[i].writer = -1;
    fake_kernel_register_kind(&input_kind);
    const char *list = getenv("FAKE_INPUT_DEVICES");
    if (!list || !fake_kernel_root_path()) return;
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        int number = -1;
        char name[64] = "";
        if (sscanf(item, "%d:%63s", &number, name) >= 1) fake_input_add_device(number, name);
    }
}
