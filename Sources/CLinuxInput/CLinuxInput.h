// The kernel's input-event interface (<linux/input.h>) for Swift: the record type, and the
// function-like ioctl macros and time fields Swift cannot import directly; and prctl(2), which
// is variadic and so not imported either.
#ifndef CLINUXINPUT_H
#define CLINUXINPUT_H

#include <linux/input.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// memfd_create(2), which Glibc declares only under _GNU_SOURCE: an anonymous file that can be
// mapped shared, as QEMU's memory-backend-memfd makes for guest RAM (the vhost-user tests).
static inline int crownpager_memfd_create(const char *name, unsigned int flags) {
    return (int)syscall(SYS_memfd_create, name, flags);
}

// EVIOCSCLOCKID: stamp this descriptor's events with another clock (CLOCK_MONOTONIC).
static inline unsigned long crownpager_eviocsclockid(void) { return EVIOCSCLOCKID; }

// EVIOCGNAME(length): the device's name, as the driver or the overlay's label gives it.
static inline unsigned long crownpager_eviocgname(unsigned int length) { return EVIOCGNAME(length); }

// The event's seconds and microseconds: `time.tv_sec` on 64-bit time, `__sec` on 32-bit
// systems with a 64-bit time_t; the kernel's input_event_sec macros pick the right field.
static inline long long crownpager_input_event_seconds(const struct input_event *event) {
    return (long long)event->input_event_sec;
}
static inline long long crownpager_input_event_microseconds(const struct input_event *event) {
    return (long long)event->input_event_usec;
}

// Builds a record, for tests that write events into a FIFO.
static inline struct input_event crownpager_input_event(
    long long seconds, long long microseconds, unsigned short type, unsigned short code, int value) {
    struct input_event event = {0};
    event.input_event_sec = seconds;
    event.input_event_usec = microseconds;
    event.type = type;
    event.code = code;
    event.value = value;
    return event;
}

static const int crownpager_clock_monotonic = CLOCK_MONOTONIC;

// PR_SET_CHILD_SUBREAPER: orphans among this process's descendants re-parent to it, not to init.
static inline int crownpager_become_child_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

// PR_GET_CHILD_SUBREAPER: 1 when this process is a child subreaper, 0 when not, -1 on failure.
static inline int crownpager_is_child_subreaper(void) {
    int flag = 0;
    if (prctl(PR_GET_CHILD_SUBREAPER, (unsigned long)&flag, 0, 0, 0) != 0) return -1;
    return flag;
}

#endif
