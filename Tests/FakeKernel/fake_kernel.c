// The core of the fake kernel: interposed file calls, path translation under a root folder,
// the table of fake descriptors and the registry of device kinds. See include/FakeKernel.h.
//
// Environment (read once at load, for LD_PRELOAD runs of a built program):
//   FAKE_KERNEL_ROOT=<dir>          enable, serving device paths from <dir>
//   FAKE_KERNEL_DENY=<path>[:...]   open/access of each path fails with EACCES
// and the kinds' own variables (fake_i2c.c).
#undef _FORTIFY_SOURCE
#include "fake_kernel_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "FakeKernel.h"

#define FAKE_MAX_FDS 4096
#define FAKE_MAX_KINDS 8
#define FAKE_MAX_PREFIXES 16
#define FAKE_MAX_DENIED 16

pthread_mutex_t fake_kernel_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static atomic_int enabled;
static char root[PATH_MAX];
static const struct fake_device_kind *kinds[FAKE_MAX_KINDS];
static int kind_count;
static char plain_prefixes[FAKE_MAX_PREFIXES][128];
static int plain_prefix_count;
static char denied[FAKE_MAX_DENIED][PATH_MAX];
static int denied_count;
/// The kind of each fake descriptor; NULL for descriptors libc owns alone.
static const struct fake_device_kind *_Atomic fd_kinds[FAKE_MAX_FDS];

// MARK: libc's functions

/* The C library's own function, looked up once. Threads may race to look it up first: they find the
 * same pointer, and the atomic load and store make that race well defined (ThreadSanitizer agrees). */
#define REAL(name, type) \
    static type real_##name(void) { \
        static type function; \
        type found = __atomic_load_n(&function, __ATOMIC_ACQUIRE); \
        if (!found) { \
            found = (type)dlsym(RTLD_NEXT, #name); \
            __atomic_store_n(&function, found, __ATOMIC_RELEASE); \
        } \
        return found; \
    }

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);
typedef int (*close_fn)(int);
typedef int (*ioctl_fn)(int, unsigned long, ...);
typedef ssize_t (*read_fn)(int, void *, size_t);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef int (*stat_fn)(const char *, struct stat *);
typedef int (*fstat_fn)(int, struct stat *);
typedef int (*fstatat_fn)(int, const char *, struct stat *, int);
typedef int (*stat64_fn)(const char *, struct stat64 *);
typedef int (*fstat64_fn)(int, struct stat64 *);
typedef int (*fstatat64_fn)(int, const char *, struct stat64 *, int);
typedef int (*access_fn)(const char *, int);
typedef int (*faccessat_fn)(int, const char *, int, int);
typedef char *(*realpath_fn)(const char *, char *);
typedef int (*poll_fn)(struct pollfd *, nfds_t, int);

REAL(open, open_fn)
REAL(open64, open_fn)
REAL(openat, openat_fn)
REAL(openat64, openat_fn)
REAL(close, close_fn)
REAL(ioctl, ioctl_fn)
REAL(poll, poll_fn)
REAL(read, read_fn)
REAL(write, write_fn)
REAL(stat, stat_fn)
REAL(lstat, stat_fn)
REAL(fstat, fstat_fn)
REAL(fstatat, fstatat_fn)
REAL(stat64, stat64_fn)
REAL(lstat64, stat64_fn)
REAL(fstat64, fstat64_fn)
REAL(fstatat64, fstatat64_fn)
REAL(access, access_fn)
REAL(faccessat, faccessat_fn)
REAL(realpath, realpath_fn)

int fake_real_open(const char *path, int flags, mode_t mode) { return real_open()(path, flags, mode); }
ssize_t fake_real_write(int fd, const void *buffer, size_t count) { return real_write()(fd, buffer, count); }
ssize_t fake_real_read(int fd, void *buffer, size_t count) { return real_read()(fd, buffer, count); }
int fake_real_close(int fd) { return real_close()(fd); }

// MARK: Registry and translation

int fake_kernel_register_kind(const struct fake_device_kind *kind) {
    pthread_mutex_lock(&fake_kernel_lock);
    int result = -1;
    if (kind_count < FAKE_MAX_KINDS) {
        kinds[kind_count++] = kind;
        result = 0;
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

int fake_kernel_translate_prefix(const char *prefix) {
    pthread_mutex_lock(&fake_kernel_lock);
    int result = -1;
    if (plain_prefix_count < FAKE_MAX_PREFIXES && strlen(prefix) < sizeof plain_prefixes[0]) {
        strcpy(plain_prefixes[plain_prefix_count++], prefix);
        result = 0;
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

const char *fake_kernel_root_path(void) { return atomic_load(&enabled) ? root : NULL; }

static int starts_with(const char *text, const char *prefix) { return strncmp(text, prefix, strlen(prefix)) == 0; }

/// The kind whose prefix `path` starts with, or NULL.
static const struct fake_device_kind *kind_for_path(const char *path) {
    for (int i = 0; i < kind_count; i++) {
        if (starts_with(path, kinds[i]->prefix)) return kinds[i];
    }
    return NULL;
}

int fake_kernel_is_translated(const char *path) {
    if (!atomic_load(&enabled) || path == NULL || path[0] != '/') return 0;
    if (kind_for_path(path)) return 1;
    for (int i = 0; i < plain_prefix_count; i++) {
        if (starts_with(path, plain_prefixes[i])) return 1;
    }
    return 0;
}

int fake_kernel_backing_path(const char *path, char *out, size_t size) {
    int written = snprintf(out, size, "%s%s", root, path);
    return written < 0 || (size_t)written >= size ? -1 : 0;
}

static int is_denied(const char *path) {
    for (int i = 0; i < denied_count; i++) {
        if (strcmp(denied[i], path) == 0) return 1;
    }
    return 0;
}

static int make_directories(const char *path) {
    char buffer[PATH_MAX];
    if (snprintf(buffer, sizeof buffer, "%s", path) >= (int)sizeof buffer) return -1;
    for (char *slash = buffer + 1; *slash; slash++) {
        if (*slash != '/') continue;
        *slash = 0;
        if (mkdir(buffer, 0755) != 0 && errno != EEXIST) return -1;
        *slash = '/';
    }
    return 0;
}

int fake_kernel_create_node(const char *path) {
    char backing[PATH_MAX];
    if (fake_kernel_backing_path(path, backing, sizeof backing) != 0 || make_directories(backing) != 0) return -1;
    int fd = real_open()(backing, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    real_close()(fd);
    return 0;
}

int fake_kernel_adopt_descriptor(int fd, const struct fake_device_kind *kind) {
    if (fd < 0 || fd >= FAKE_MAX_FDS) return -1;
    atomic_store(&fd_kinds[fd], kind);
    return 0;
}

// MARK: Public core API

/// One user at a time: test suites in different modules share the process, so enable waits
/// (up to a minute) until the previous user has called fake_kernel_disable.
static pthread_mutex_t owner_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t owner_released = PTHREAD_COND_INITIALIZER;
static int owned;

static int acquire_ownership(void) {
    pthread_mutex_lock(&owner_lock);
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 60;
    int error = 0;
    while (owned && error == 0) error = pthread_cond_timedwait(&owner_released, &owner_lock, &deadline);
    if (error == 0) owned = 1;
    pthread_mutex_unlock(&owner_lock);
    if (error) errno = EBUSY;
    return error ? -1 : 0;
}

static void release_ownership(void) {
    pthread_mutex_lock(&owner_lock);
    owned = 0;
    pthread_cond_signal(&owner_released);
    pthread_mutex_unlock(&owner_lock);
}

int fake_kernel_enable(const char *directory) {
    if (acquire_ownership() != 0) return -1;
    pthread_mutex_lock(&fake_kernel_lock);
    int result = -1;
    if (strlen(directory) + 1 < sizeof root - 64) {
        strcpy(root, directory);
        size_t length = strlen(root);
        while (length > 1 && root[length - 1] == '/') root[--length] = 0;
        char probe[PATH_MAX];
        snprintf(probe, sizeof probe, "%s/dev/", root);
        if (make_directories(probe) == 0) {
            atomic_store(&enabled, 1);
            result = 0;
        }
    } else {
        errno = ENAMETOOLONG;
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    if (result != 0) release_ownership();
    return result;
}

void fake_kernel_disable(void) {
    pthread_mutex_lock(&fake_kernel_lock);
    atomic_store(&enabled, 0);
    for (int i = 0; i < kind_count; i++) {
        if (kinds[i]->reset) kinds[i]->reset();
    }
    denied_count = 0;
    int was_enabled = root[0] != 0;
    root[0] = 0;
    pthread_mutex_unlock(&fake_kernel_lock);
    if (was_enabled) release_ownership();
}

int fake_kernel_deny(const char *path) {
    pthread_mutex_lock(&fake_kernel_lock);
    int result = -1;
    if (denied_count < FAKE_MAX_DENIED && strlen(path) < PATH_MAX) {
        strcpy(denied[denied_count++], path);
        result = 0;
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

// MARK: Interposed calls

static const struct fake_device_kind *kind_for_fd(int fd) {
    if (fd < 0 || fd >= FAKE_MAX_FDS) return NULL;
    return atomic_load(&fd_kinds[fd]);
}

/// open and its variants: translated paths open the backing file, then the kind adopts the descriptor.
static int fake_open(int dirfd, const char *path, int flags, mode_t mode, int at, int large) {
    if (!fake_kernel_is_translated(path)) {
        if (at) return (large ? real_openat64() : real_openat())(dirfd, path, flags, mode);
        return (large ? real_open64() : real_open())(path, flags, mode);
    }
    pthread_mutex_lock(&fake_kernel_lock);
    int result = -1;
    char backing[PATH_MAX];
    const struct fake_device_kind *kind = kind_for_path(path);
    if (is_denied(path)) {
        errno = EACCES;
    } else if (fake_kernel_backing_path(path, backing, sizeof backing) != 0) {
        errno = ENAMETOOLONG;
    } else if (kind && (flags & O_CREAT) && access(backing, F_OK) != 0) {
        errno = ENOENT;  // device nodes are made by the kernel, not by open(O_CREAT)
    } else {
        // The backing file is a plain file: open it read-write whatever the caller asked,
        // so the descriptor works, but keep the caller's other flags.
        int backingFlags = kind ? ((flags & ~(O_ACCMODE | O_CREAT | O_TRUNC | O_EXCL)) | O_RDWR) : flags;
        int fd = real_open()(backing, backingFlags, mode);
        if (fd >= 0 && kind) {
            if (fd >= FAKE_MAX_FDS) {
                real_close()(fd);
                errno = EMFILE;
                fd = -1;
            } else {
                int error = kind->on_open ? kind->on_open(path, fd, flags) : 0;
                if (error) {
                    real_close()(fd);
                    errno = error;
                    fd = -1;
                } else {
                    atomic_store(&fd_kinds[fd], kind);
                }
            }
        }
        result = fd;
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

static mode_t mode_argument(int flags, va_list arguments) {
    return (flags & O_CREAT) || (flags & __O_TMPFILE) == __O_TMPFILE ? (mode_t)va_arg(arguments, int) : 0;
}

int open(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    return fake_open(AT_FDCWD, path, flags, mode, 0, 0);
}

int open64(const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    return fake_open(AT_FDCWD, path, flags, mode, 0, 1);
}

int openat(int dirfd, const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    return fake_open(dirfd, path, flags, mode, 1, 0);
}

int openat64(int dirfd, const char *path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    return fake_open(dirfd, path, flags, mode, 1, 1);
}

// The fortified entry points (_FORTIFY_SOURCE builds call these when no mode is passed).
int __open_2(const char *path, int flags) { return fake_open(AT_FDCWD, path, flags, 0, 0, 0); }
int __open64_2(const char *path, int flags) { return fake_open(AT_FDCWD, path, flags, 0, 0, 1); }
int __openat_2(int dirfd, const char *path, int flags) { return fake_open(dirfd, path, flags, 0, 1, 0); }
int __openat64_2(int dirfd, const char *path, int flags) { return fake_open(dirfd, path, flags, 0, 1, 1); }

int close(int fd) {
    const struct fake_device_kind *kind = kind_for_fd(fd);
    if (kind) {
        pthread_mutex_lock(&fake_kernel_lock);
        if (kind->on_close) kind->on_close(fd);
        atomic_store(&fd_kinds[fd], NULL);
        pthread_mutex_unlock(&fake_kernel_lock);
    }
    return real_close()(fd);
}

int ioctl(int fd, unsigned long request, ...) {
    va_list arguments;
    va_start(arguments, request);
    unsigned long argument = va_arg(arguments, unsigned long);
    va_end(arguments);
    const struct fake_device_kind *kind = kind_for_fd(fd);
    if (!kind) return real_ioctl()(fd, request, argument);
    pthread_mutex_lock(&fake_kernel_lock);
    int result = -1;
    if (kind->on_ioctl) {
        result = kind->on_ioctl(fd, request, argument);
    } else {
        errno = ENOTTY;
    }
    pthread_mutex_unlock(&fake_kernel_lock);
    fake_bus_settle();
    return result;
}

/// poll(2) as libc does it; its return is noted for the event log: the loop takes its input after
/// it, so the writes that follow a return make one turn's frame (fake_transfers.c).
int poll(struct pollfd *descriptors, nfds_t count, int timeout) {
    int result = real_poll()(descriptors, count, timeout);
    int saved = errno;
    fake_bus_note_poll();
    errno = saved;
    return result;
}

ssize_t read(int fd, void *buffer, size_t count) {
    const struct fake_device_kind *kind = kind_for_fd(fd);
    if (!kind || !kind->on_read) return real_read()(fd, buffer, count);
    pthread_mutex_lock(&fake_kernel_lock);
    ssize_t result = kind->on_read(fd, buffer, count);
    pthread_mutex_unlock(&fake_kernel_lock);
    return result;
}

ssize_t write(int fd, const void *buffer, size_t count) {
    const struct fake_device_kind *kind = kind_for_fd(fd);
    if (!kind || !kind->on_write) return real_write()(fd, buffer, count);
    pthread_mutex_lock(&fake_kernel_lock);
    ssize_t result = kind->on_write(fd, buffer, count);
    pthread_mutex_unlock(&fake_kernel_lock);
    fake_bus_settle();
    return result;
}

// MARK: stat, access, realpath

/// Makes a successful stat of a kind's path report a character device.
static void as_device(const char *path, mode_t *mode, dev_t *rdev) {
    const struct fake_device_kind *kind = kind_for_path(path);
    if (!kind) return;
    *mode = (*mode & ~S_IFMT & 07777) | S_IFCHR;
    *rdev = kind->device_number ? kind->device_number(path) : 0;
}

#define STAT_PATH(name, type, real, follow)                                        \
    int name(const char *path, type *status) {                                     \
        if (!fake_kernel_is_translated(path)) return real()(path, status);         \
        char backing[PATH_MAX];                                                    \
        if (fake_kernel_backing_path(path, backing, sizeof backing) != 0) {        \
            errno = ENAMETOOLONG;                                                  \
            return -1;                                                             \
        }                                                                          \
        int result = real()(backing, status);                                      \
        if (result == 0) as_device(path, &status->st_mode, &status->st_rdev);      \
        return result;                                                             \
    }

STAT_PATH(stat, struct stat, real_stat, 1)
STAT_PATH(lstat, struct stat, real_lstat, 0)
STAT_PATH(stat64, struct stat64, real_stat64, 1)
STAT_PATH(lstat64, struct stat64, real_lstat64, 0)

int fstatat(int dirfd, const char *path, struct stat *status, int flags) {
    if (!fake_kernel_is_translated(path)) return real_fstatat()(dirfd, path, status, flags);
    return (flags & AT_SYMLINK_NOFOLLOW) ? lstat(path, status) : stat(path, status);
}

int fstatat64(int dirfd, const char *path, struct stat64 *status, int flags) {
    if (!fake_kernel_is_translated(path)) return real_fstatat64()(dirfd, path, status, flags);
    return (flags & AT_SYMLINK_NOFOLLOW) ? lstat64(path, status) : stat64(path, status);
}

int fstat(int fd, struct stat *status) {
    int result = real_fstat()(fd, status);
    if (result == 0 && kind_for_fd(fd)) {
        status->st_mode = (status->st_mode & 07777) | S_IFCHR;
    }
    return result;
}

int fstat64(int fd, struct stat64 *status) {
    int result = real_fstat64()(fd, status);
    if (result == 0 && kind_for_fd(fd)) {
        status->st_mode = (status->st_mode & 07777) | S_IFCHR;
    }
    return result;
}

int access(const char *path, int mode) {
    if (!fake_kernel_is_translated(path)) return real_access()(path, mode);
    if (mode != F_OK && is_denied(path)) {
        errno = EACCES;
        return -1;
    }
    char backing[PATH_MAX];
    if (fake_kernel_backing_path(path, backing, sizeof backing) != 0) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return real_access()(backing, mode);
}

int faccessat(int dirfd, const char *path, int mode, int flags) {
    if (!fake_kernel_is_translated(path)) return real_faccessat()(dirfd, path, mode, flags);
    return access(path, mode);
}

char *realpath(const char *path, char *resolved) {
    if (!fake_kernel_is_translated(path)) return real_realpath()(path, resolved);
    char backing[PATH_MAX];
    char full[PATH_MAX];
    if (fake_kernel_backing_path(path, backing, sizeof backing) != 0 || !real_realpath()(backing, full)) return NULL;
    // Report the path as the program knows it: without the root.
    size_t rootLength = strlen(root);
    const char *inside = strncmp(full, root, rootLength) == 0 ? full + rootLength : full;
    char *out = resolved ? resolved : malloc(PATH_MAX);
    if (!out) return NULL;
    snprintf(out, PATH_MAX, "%s", inside);
    return out;
}

// MARK: Configuration from the environment

__attribute__((constructor(101))) static void fake_kernel_configure_from_environment(void) {
    const char *directory = getenv("FAKE_KERNEL_ROOT");
    if (directory && *directory) fake_kernel_enable(directory);
    const char *deny = getenv("FAKE_KERNEL_DENY");
    if (deny && *deny) {
        char list[PATH_MAX];
        snprintf(list, sizeof list, "%s", deny);
        for (char *save = NULL, *path = strtok_r(list, ":", &save); path; path = strtok_r(NULL, ":", &save)) {
            fake_kernel_deny(path);
        }
    }
}
