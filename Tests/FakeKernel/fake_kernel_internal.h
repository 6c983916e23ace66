// The core's interface to device kinds (fake_i2c.c, fake_gpio.c).
//
// A kind claims a path prefix. The core translates such paths to <root><path>, opens the
// backing file there with libc (so descriptors are real and unique), records the descriptor
// with its kind, and hands ioctl/read/write/close on it to the kind. stat() of such a path
// reports a character device with the kind's st_rdev.
#ifndef FAKE_KERNEL_INTERNAL_H
#define FAKE_KERNEL_INTERNAL_H

#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

struct fake_device_kind {
    const char *name;
    /// Paths starting with this are the kind's, e.g. "/dev/i2c-".
    const char *prefix;
    /// A descriptor was opened on `path`; return 0, or an errno value to fail the open.
    int (*on_open)(const char *path, int fd, int flags);
    /// The descriptor is being closed.
    void (*on_close)(int fd);
    /// ioctl on a descriptor of this kind; returns the result, or -1 with errno set.
    int (*on_ioctl)(int fd, unsigned long request, unsigned long argument);
    /// read/write on a descriptor of this kind; returns the count, or -1 with errno set.
    ssize_t (*on_read)(int fd, void *buffer, size_t count);
    ssize_t (*on_write)(int fd, const void *buffer, size_t count);
    /// The device number stat() reports for `path`.
    dev_t (*device_number)(const char *path);
    /// Forget all state (fake_kernel_disable).
    void (*reset)(void);
};

/// Adds a kind; at most 8.
int fake_kernel_register_kind(const struct fake_device_kind *kind);
/// Also serve plain files under `prefix` (e.g. "/sys/bus/gpio/") from the root, with no kind.
int fake_kernel_translate_prefix(const char *prefix);
/// The root, or NULL while disabled.
const char *fake_kernel_root_path(void);
/// <root><path> into `out`; 0, or -1 when it does not fit.
int fake_kernel_backing_path(const char *path, char *out, size_t size);
/// Creates <root><path> as an empty file, with its folders.
int fake_kernel_create_node(const char *path);
/// Hands a descriptor the kind made itself (e.g. a GPIO request's event FIFO) to the kind:
/// its ioctl and close then go to the kind too. 0, or -1 when `fd` is out of range.
int fake_kernel_adopt_descriptor(int fd, const struct fake_device_kind *kind);

/// The one lock guarding every kind's state (recursive: a kind may call back into the core).
extern pthread_mutex_t fake_kernel_lock;

/// One write a fake device accepted: its bytes (for SPI, the control byte D/C# stood for first) and when.
struct fake_transfer {
    uint8_t *bytes;
    size_t length;
    uint64_t timestamp_ns;
};

/// The writes a fake device accepted, oldest first (fake_transfers.c).
struct fake_transfer_log {
    struct fake_transfer *items;
    size_t count, capacity;
};

/// Appends `head` then `bytes` as one transfer at `timestamp_ns`; 0, or -1 with errno (ENOMEM).
int fake_transfer_log_append(
    struct fake_transfer_log *log, const uint8_t *head, size_t head_length, const uint8_t *bytes, size_t length,
    uint64_t timestamp_ns);
/// Forgets the transfers, keeping the storage.
void fake_transfer_log_clear(struct fake_transfer_log *log);
/// Forgets the transfers and frees the storage.
void fake_transfer_log_free(struct fake_transfer_log *log);
/// Copies up to `capacity` bytes of transfer `index`; the bytes copied (0 past the end).
size_t fake_transfer_log_copy(const struct fake_transfer_log *log, size_t index, uint8_t *buffer, size_t capacity);
/// Appends `length` bytes of `text` to the file at `path` (nothing when `path` is empty).
void fake_append_to_file(const char *path, const char *text, size_t length);
/// Appends `head` then `bytes` to the trace at `path` as one i2ctransfer write to `address`.
void fake_append_trace_line(
    const char *path, int address, const uint8_t *head, size_t head_length, const uint8_t *bytes, size_t length);

/// CLOCK_MONOTONIC now, in nanoseconds.
uint64_t fake_monotonic_now(void);
/// Appends "<timestamp_ns> <text>" as a line to the event log (FAKE_EVENT_LOG), if there is one.
void fake_log_event(uint64_t timestamp_ns, const char *text);
/// Charges the calling thread the modelled bus time of an accepted I2C write of `length` bytes
/// (FAKE_I2C_HZ; nothing without it): fake_bus_settle sleeps it once the kernel lock is released.
void fake_bus_charge(size_t length);
/// A poll(2) returned now: the next write begins a turn's frame, logged as "turn" at that instant.
void fake_bus_note_poll(void);
/// Sleeps the bus time charged since the last call, then logs "i2c <bytes>" to the event log
/// (the last byte's instant): a blocking write on a real bus returns when its last byte is out.
void fake_bus_settle(void);

/// Writes `contents` to <root><path> (a sysfs file), creating folders; 0, or -1 with errno.
int fake_write_node(const char *path, const char *contents);

/// An output line was driven to `level` at `timestamp_ns` (fake_gpio.c tells fake_spi.c, which
/// notes it in the SPI trace).
void fake_spi_note_output(int chip, unsigned int offset, int level, uint64_t timestamp_ns);

/// libc's own functions, for the core and the kinds.
int fake_real_open(const char *path, int flags, mode_t mode);
ssize_t fake_real_write(int fd, const void *buffer, size_t count);
ssize_t fake_real_read(int fd, void *buffer, size_t count);
int fake_real_close(int fd);

#endif
