// Counts the heap allocations of the process, for crownpager-bench's allocations per frame.
#ifndef CROWNPAGER_ALLOCATION_COUNTER_H
#define CROWNPAGER_ALLOCATION_COUNTER_H

// The number of malloc, calloc, realloc, aligned_alloc, memalign and posix_memalign calls so far.
unsigned long long crownpager_allocation_count(void);

// 1 when this program's own malloc is the one called (the counter counts), 0 otherwise (e.g. a
// sanitizer's allocator took precedence, and the count stays 0).
int crownpager_allocation_counting(void);

#endif
