// One small interface over libgpiod's two major APIs, so the Swift side is the same for both.
//
// libgpiod 1.x (Debian 12, Raspberry Pi OS bookworm) and 2.x (Debian 13, current Raspberry Pi
// OS) share no request or event API, nor a soname. The shim links neither: on first use it
// dlopens libgpiod.so.3 (the 2.x API), else libgpiod.so.2 (the 1.x API), so one binary runs on
// both releases. The environment variable CROWNPAGER_LIBGPIOD names a library to dlopen instead
// (a path, e.g. an unpacked libgpiod.so.3, or a soname), for tests and unusual systems; the API
// is then told by the library's symbols. It exposes: request input lines with pull-ups for edge
// events on both edges (with a kernel debounce period where 2.x offers one), read the levels,
// list the descriptors to poll, read the pending edges in time order, release; and request output
// lines (a display's D/C# and RES#) and drive them.
#ifndef CROWNPAGER_GPIO_H
#define CROWNPAGER_GPIO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The most lines one request takes.
#define CROWNPAGER_GPIO_MAX_LINES 8
/// The soname of libgpiod 2.x, tried first.
#define CROWNPAGER_GPIO_LIBRARY_V2 "libgpiod.so.3"
/// The soname of libgpiod 1.x (1.5, 1.6), tried second.
#define CROWNPAGER_GPIO_LIBRARY_V1 "libgpiod.so.2"
/// The environment variable naming a library to load instead of the two sonames.
#define CROWNPAGER_GPIO_LIBRARY_VARIABLE "CROWNPAGER_LIBGPIOD"

/// Which step failed, for the error message.
enum crownpager_gpio_stage {
    CROWNPAGER_GPIO_STAGE_NONE = 0,
    /// Opening the chip's character device.
    CROWNPAGER_GPIO_STAGE_OPEN_CHIP = 1,
    /// Looking a line up on the chip (an offset past the last line).
    CROWNPAGER_GPIO_STAGE_FIND_LINE = 2,
    /// Requesting the lines (in use by another program or a driver).
    CROWNPAGER_GPIO_STAGE_REQUEST = 3,
    /// Reading the levels after the request.
    CROWNPAGER_GPIO_STAGE_READ_VALUES = 4,
    /// Anything else (out of memory, too many lines).
    CROWNPAGER_GPIO_STAGE_SETUP = 5,
    /// Loading libgpiod itself (crownpager_gpio_load_error says why).
    CROWNPAGER_GPIO_STAGE_LOAD_LIBRARY = 6,
};

/// Why a request failed: the step, errno, the line concerned (when one is) and the chip's line count (0 if unknown).
struct crownpager_gpio_failure {
    int stage;
    int error;
    int has_offset;
    unsigned int offset;
    unsigned int chip_lines;
};

/// One edge: the line's offset, rising or falling, and the kernel's timestamp (CLOCK_MONOTONIC, ns).
struct crownpager_gpio_edge {
    uint64_t timestamp_ns;
    unsigned int offset;
    int rising;
};

/// The requested lines of one chip.
struct crownpager_gpio;

/// 1 or 2: the API of the libgpiod loaded (loading it now if need be); 0 when none could be loaded.
int crownpager_gpio_api_major(void);
/// The loaded library's own version string, e.g. "1.6.3" or "2.1.3"; NULL when none could be loaded.
const char *crownpager_gpio_library_version(void);
/// Why no libgpiod could be loaded: dlerror()'s text for each library tried; NULL when one is loaded.
const char *crownpager_gpio_load_error(void);
/// The CROWNPAGER_LIBGPIOD value tried instead of the sonames; NULL when it was unset or empty.
const char *crownpager_gpio_library_override(void);

/// Requests `count` lines of `chip_path` as inputs with pull-ups, for events on both edges.
/// `debounce_us[i]` (may be NULL) asks the kernel to debounce line i (2.x only: 1.x ignores it).
/// Returns NULL and fills `failure` when any step fails (CROWNPAGER_GPIO_STAGE_LOAD_LIBRARY with
/// ELIBACC when no libgpiod could be loaded); nothing stays requested then.
struct crownpager_gpio *crownpager_gpio_request(
    const char *chip_path, const char *consumer, const unsigned int *offsets, const unsigned int *debounce_us,
    size_t count, struct crownpager_gpio_failure *failure);

/// Requests `count` lines of `chip_path` as outputs, line i driven to `initial[i]` (1 high, 0 low)
/// from the start. Returns NULL and fills `failure` as crownpager_gpio_request does.
struct crownpager_gpio *crownpager_gpio_request_output(
    const char *chip_path, const char *consumer, const unsigned int *offsets, const int *initial, size_t count,
    struct crownpager_gpio_failure *failure);

/// Drives output line `index` (in request order) to `value` (1 high, 0 low); 0, or -1 with errno.
int crownpager_gpio_set_value(struct crownpager_gpio *lines, size_t index, int value);

/// Whether the kernel debounces the lines that asked for it (libgpiod 2.x).
int crownpager_gpio_kernel_debounces(const struct crownpager_gpio *lines);

/// The descriptors to poll for readiness: one per line with 1.x, one per request with 2.x.
size_t crownpager_gpio_descriptors(const struct crownpager_gpio *lines, int *descriptors, size_t capacity);

/// The current levels (1 high, 0 low), in request order; 0, or -1 with errno.
int crownpager_gpio_values(struct crownpager_gpio *lines, int *values);

/// The edges pending now, without blocking, oldest first (1.x: the lines' separate queues merged
/// by timestamp). Returns the count (0 when none), or -1 with errno.
int crownpager_gpio_read_edges(struct crownpager_gpio *lines, struct crownpager_gpio_edge *edges, size_t capacity);

/// Releases the lines and closes the chip.
void crownpager_gpio_release(struct crownpager_gpio *lines);

#ifdef __cplusplus
}
#endif

#endif
