// Heap allocations counted by interposition: malloc and its kin are defined in the executable,
// which the dynamic linker searches before libc, so the Swift runtime's allocations come here
// too. Each counts, then calls glibc's own allocator (the __libc_ entry points glibc exports for
// exactly this). The definitions are weak: a sanitizer's runtime, linked statically with strong
// ones, wins without a duplicate-symbol error, and then nothing is counted.
#include "AllocationCounter.h"

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static unsigned long long allocations;
static int counting;

static void count(void) {
    __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&counting, 1, __ATOMIC_RELAXED);
}

unsigned long long crownpager_allocation_count(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }

int crownpager_allocation_counting(void) { return __atomic_load_n(&counting, __ATOMIC_RELAXED); }

__attribute__((weak)) void *malloc(size_t size) {
    count();
    return __libc_malloc(size);
}

__attribute__((weak)) void *calloc(size_t count_, size_t size) {
    count();
    return __libc_calloc(count_, size);
}

__attribute__((weak)) void *realloc(void *pointer, size_t size) {
    count();
    return __libc_realloc(pointer, size);
}

__attribute__((weak)) void free(void *pointer) { __libc_free(pointer); }

__attribute__((weak)) void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

__attribute__((weak)) void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

__attribute__((weak)) int posix_memalign(void **result, size_t alignment, size_t size) {
    // glibc's rule: a power of two, a multiple of the pointer size.
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}
