/* Counts calls to the heap allocation functions of a process (LD_PRELOAD), for scripts/alloc-budget.sh.
 * At exit it writes the count to the file named by MALLOC_COUNT_FILE. Every call is forwarded to glibc's own
 * allocator; free is not counted. Built by the script with: gcc -O2 -shared -fPIC. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
static unsigned long count;
void *malloc(size_t n) { __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED); return __libc_realloc(p, n); }
void *memalign(size_t a, size_t n) { __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
    void *p = __libc_memalign(a, n);
    if (!p && n) return ENOMEM;
    *out = p; return 0;
}
__attribute__((destructor)) static void report(void) {
    const char *path = getenv("MALLOC_COUNT_FILE");
    if (!path) return;
    FILE *f = fopen(path, "w");
    if (f) { fprintf(f, "%lu\n", count); fclose(f); }
}
