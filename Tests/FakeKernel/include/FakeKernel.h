// FakeKernel: a stand-in for the Linux device nodes CrownPager talks to, for tests.
//
// Linked into the test executable, its definitions of open/close/ioctl/read/write/stat/access/
// realpath win over libc's for every library in the process (libi2c included). Paths under a
// registered device prefix (/dev/i2c-) are served from a test-chosen root folder; everything
// else goes to libc through dlsym(RTLD_NEXT, ...). Compiled by the tests into a temporary shared
// object (TestSupport's fakeKernelLibrary(); the package ships no such library), the same code
// runs a built program under LD_PRELOAD, configured by environment variables (fake_kernel.c).
//
// The state is process-wide: Swift suites using it must be `.serialized`, and must call
// fake_kernel_disable() when done (suites in other test modules then wait their turn).
#ifndef FAKE_KERNEL_H
#define FAKE_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Core

/// Serves registered device paths from under `root` (created if missing); 0, or -1 with errno.
/// One user at a time: it waits (up to a minute, then EBUSY) until the previous user disables.
int fake_kernel_enable(const char *root);
/// Forgets every device, denial and recording; all calls go to libc again.
void fake_kernel_disable(void);
/// Makes open() and access() of `path` (e.g. "/dev/i2c-1") fail with EACCES, even for root.
int fake_kernel_deny(const char *path);
/// Whether `path` lies under a registered device prefix (and the fake is enabled).
int fake_kernel_is_translated(const char *path);

// MARK: I2C (fake_i2c.c): /dev/i2c-<bus>, one node per bus, devices by 7-bit address

/// Creates the node /dev/i2c-<bus> with no device on it; 0, or -1 with errno. After
/// fake_i2c_remove_adapter it brings the adapter back, with the devices it had.
int fake_i2c_add_bus(int bus);
/// The adapter goes away (unplugged, its driver unloaded): the node is unlinked, calls on
/// descriptors opened before fail with ENODEV, opening the path fails with ENOENT. 0, or -1 with errno.
int fake_i2c_remove_adapter(int bus);
/// Puts a device that acknowledges at `address` on the bus (creating the bus's node).
int fake_i2c_add_device(int bus, int address);
/// Makes `address` NACK every transfer with `error` (ENXIO or EREMOTEIO); 0 makes it answer again.
void fake_i2c_set_nack(int bus, int address, int error);
/// Makes the next `count` transfers to `address` fail with `error` (a NACK burst), then answer.
void fake_i2c_fail_next(int bus, int address, int count, int error);
/// Makes the bus report a NACK as i2c-virtio does (nonzero `enabled`): I2C_RDWR returns the number
/// of messages executed before it with no errno, write() returns 0, an SMBus transfer fails with EIO.
void fake_i2c_set_short_count_nacks(int bus, int enabled);
/// Makes the next `count` transfers on the bus return EINTR, as after a signal.
void fake_i2c_interrupt_next(int bus, int count);
/// The byte an SMBus read byte (or a plain read) returns from `address`.
void fake_i2c_set_status(int bus, int address, uint8_t status);
/// Transfers `address` accepted (acknowledged writes), oldest first.
size_t fake_i2c_transfer_count(int bus, int address);
/// The length of accepted transfer `index`, 0 past the end.
size_t fake_i2c_transfer_length(int bus, int address, size_t index);
/// Copies up to `capacity` bytes of transfer `index` into `buffer`; returns the bytes copied.
size_t fake_i2c_copy_transfer(int bus, int address, size_t index, uint8_t *buffer, size_t capacity);
/// Transfers `address` refused (NACKed or interrupted), for checking retries.
size_t fake_i2c_refused_count(int bus, int address);
/// Forgets the recorded transfers of `address`.
void fake_i2c_clear_transfers(int bus, int address);

// MARK: GPIO (fake_gpio.c): /dev/gpiochip<N> for libgpiod 1.6 (uAPI v1) and 2.x (uAPI v2)

/// Creates /dev/gpiochip<chip> with `lines` lines (at most 64) and the sysfs files libgpiod checks.
int fake_gpio_add_chip(int chip, unsigned int lines);
/// The chip goes away (driver unbound, expander unplugged): its node is unlinked (open: ENOENT),
/// its descriptors fail with ENODEV and its requests' descriptors wake poll() and read ENODEV.
/// fake_gpio_add_chip brings it back with its lines free. 0, or -1 with errno.
int fake_gpio_remove_chip(int chip);
/// Drives a line to `level` at `timestamp_ns` (0: CLOCK_MONOTONIC now); a request that asked
/// for that edge gets an event record. 0, or -1 with errno (EINVAL for no such line).
int fake_gpio_set_line(int chip, unsigned int offset, int level, uint64_t timestamp_ns);
/// Marks a line as used by a driver or another program: requests of it fail with EBUSY.
int fake_gpio_hold_line(int chip, unsigned int offset, const char *consumer);
/// Whether the line is requested.
int fake_gpio_is_requested(int chip, unsigned int offset);
/// Whether the line's request asked for the pull-up.
int fake_gpio_has_pull_up(int chip, unsigned int offset);
/// Whether the line's request asked for rising and falling edge events.
int fake_gpio_detects_both_edges(int chip, unsigned int offset);
/// The debounce period the request asked the kernel for, in microseconds (uAPI v2 only).
unsigned int fake_gpio_debounce_us(int chip, unsigned int offset);
/// The level the line reads now (what drives it, else its bias); -1 for no such line.
int fake_gpio_level(int chip, unsigned int offset);
/// Whether the line is requested as an output.
int fake_gpio_is_output(int chip, unsigned int offset);
/// How many times requests drove the output line (its request's initial value, then each set).
size_t fake_gpio_output_change_count(int chip, unsigned int offset);
/// The `index`th level requests drove the line to, and when (CLOCK_MONOTONIC, ns); the first 256
/// are kept. 0, or -1 (EINVAL) past them.
int fake_gpio_output_change(int chip, unsigned int offset, size_t index, int *level, uint64_t *timestamp_ns);

// MARK: SPI (fake_spi.c): /dev/spidev<bus>.<cs>, a display's D/C# on a fake GPIO line

/// Creates /dev/spidev<bus>.<select> (bus and select below 4), whose D/C# is line `dc_offset` of
/// gpiochip<dc_chip>: each transfer is recorded as the equivalent I2C write, control byte 00h
/// (D/C# low: commands) or 40h (high: data) and then the bytes. 0, or -1 with errno.
int fake_spi_add_device(int bus, int select, int dc_chip, unsigned int dc_offset);
/// Sets spidev's buffer (its bufsiz parameter, 4096 by default): longer messages fail with EMSGSIZE,
/// and /sys/module/spidev/parameters/bufsiz says it. 0, or -1 with errno.
int fake_spi_set_buffer_size(size_t size);
/// The SPI mode set (SPI_IOC_WR_MODE), 0 for no such device.
uint32_t fake_spi_mode(int bus, int select);
/// The word size set (SPI_IOC_WR_BITS_PER_WORD; 8 until set).
uint32_t fake_spi_bits_per_word(int bus, int select);
/// The clock set (SPI_IOC_WR_MAX_SPEED_HZ), in hertz.
uint32_t fake_spi_max_speed_hz(int bus, int select);
/// Transfers the device received, oldest first.
size_t fake_spi_transfer_count(int bus, int select);
/// The length of transfer `index` as an I2C write (the control byte included), 0 past the end.
size_t fake_spi_transfer_length(int bus, int select, size_t index);
/// When transfer `index` happened (CLOCK_MONOTONIC, ns), 0 past the end.
uint64_t fake_spi_transfer_time(int bus, int select, size_t index);
/// Copies up to `capacity` bytes of transfer `index` as an I2C write into `buffer`; returns the bytes copied.
size_t fake_spi_copy_transfer(int bus, int select, size_t index, uint8_t *buffer, size_t capacity);

// MARK: Input (fake_input.c): /dev/input/event<N>, as evdev presents the rotary-encoder overlay

/// Creates /dev/input/event<number> named `name` (EVIOCGNAME); after fake_input_remove_device it
/// brings the device back. 0, or -1 with errno.
int fake_input_add_device(int number, const char *name);
/// The device goes away (the overlay unloaded, a USB knob unplugged): its node is unlinked (open:
/// ENOENT), and descriptors opened before wake poll() and read ENODEV. 0, or -1 with errno.
int fake_input_remove_device(int number);
/// Writes one event (a struct input_event stamped with CLOCK_MONOTONIC now) to the device's readers.
int fake_input_emit(int number, uint16_t type, uint16_t code, int32_t value);

#ifdef __cplusplus
}
#endif

#endif
