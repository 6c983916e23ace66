// What the loader (crownpager_gpio.c) and the two API files (gpiod_v1.c, gpiod_v2.c) share.
// Private to the shim: Swift sees only include/CrownPagerGPIO.h.
#ifndef CROWNPAGER_GPIO_INTERNAL_H
#define CROWNPAGER_GPIO_INTERNAL_H

#include "CrownPagerGPIO.h"

#define CROWNPAGER_GPIO_HIDDEN __attribute__((visibility("hidden")))

// libgpiod's objects. Both majors keep them opaque, so declaring the tags is all the shim needs,
// and the same tags keep these declarations checkable against the real <gpiod.h>.
struct gpiod_chip;
struct gpiod_line;
struct gpiod_line_request;
struct gpiod_edge_event_buffer;

/// The requested lines: one line object per offset with 1.x, one request with 2.x.
struct crownpager_gpio {
    struct gpiod_chip *chip;
    size_t count;
    /// The offsets, in request order (2.x sets an output's value by offset).
    unsigned int offsets[CROWNPAGER_GPIO_MAX_LINES];
    /// 1.x: the line objects, in request order.
    struct gpiod_line *lines[CROWNPAGER_GPIO_MAX_LINES];
    /// 2.x: the request, its edge event buffer, and whether any line has a debounce period.
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *buffer;
    int debounces;
};

/// One API's implementation of the interface in include/CrownPagerGPIO.h, bound to a loaded library.
struct crownpager_gpio_backend {
    int major;
    const char *(*version)(void);
    struct crownpager_gpio *(*request)(
        const char *chip_path, const char *consumer, const unsigned int *offsets, const unsigned int *debounce_us,
        size_t count, struct crownpager_gpio_failure *failure);
    struct crownpager_gpio *(*request_output)(
        const char *chip_path, const char *consumer, const unsigned int *offsets, const int *initial, size_t count,
        struct crownpager_gpio_failure *failure);
    int (*set_value)(struct crownpager_gpio *lines, size_t index, int value);
    int (*kernel_debounces)(const struct crownpager_gpio *lines);
    size_t (*descriptors)(const struct crownpager_gpio *lines, int *descriptors, size_t capacity);
    int (*values)(struct crownpager_gpio *lines, int *values);
    int (*read_edges)(struct crownpager_gpio *lines, struct crownpager_gpio_edge *edges, size_t capacity);
    void (*release)(struct crownpager_gpio *lines);
};

/// The 1.x API over `library` (a dlopen handle); NULL when a function is missing (dlerror() says which).
CROWNPAGER_GPIO_HIDDEN const struct crownpager_gpio_backend *crownpager_gpio_bind_v1(void *library);
/// The 2.x API over `library` (a dlopen handle); NULL when a function is missing (dlerror() says which).
CROWNPAGER_GPIO_HIDDEN const struct crownpager_gpio_backend *crownpager_gpio_bind_v2(void *library);

/// Fills `failure` (when given) with the step, the errno (EIO if none) and the line concerned.
CROWNPAGER_GPIO_HIDDEN void crownpager_gpio_fail(
    struct crownpager_gpio_failure *failure, int stage, int error, int has_offset, unsigned int offset);
/// Whether `fd` has something to read now.
CROWNPAGER_GPIO_HIDDEN int crownpager_gpio_is_readable(int fd);
/// The shared start of a request: check the count, allocate, open the chip with `chip_open`;
/// NULL with `failure` filled.
CROWNPAGER_GPIO_HIDDEN struct crownpager_gpio *crownpager_gpio_open_chip(
    struct gpiod_chip *(*chip_open)(const char *path), const char *chip_path, size_t count,
    struct crownpager_gpio_failure *failure);

#endif
