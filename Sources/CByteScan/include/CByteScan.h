// Byte scans sixteen bytes an instruction (SSE2, part of every x86-64 processor), for the output's hot loops:
// where the first byte of a kind is. Each function is static inline so that Swift inlines it at its call.
// Other processors take the portable loop, a byte at a time.
#ifndef CBYTESCAN_H
#define CBYTESCAN_H

#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Which bytes a scan looks for.
enum {
    BT_SCAN_JSON_ESCAPE = 0,   // a control character (below 0x20), a quote or a backslash
    BT_SCAN_NOT_PRINTABLE = 1, // anything but printable ASCII (0x20 to 0x7E)
    BT_SCAN_NON_ASCII = 2      // a byte with its high bit set
};

static inline int bt_scan_byte(uint8_t x, int kind) {
    switch (kind) {
    case BT_SCAN_JSON_ESCAPE: return x < 0x20 || x == 0x22 || x == 0x5C;
    case BT_SCAN_NOT_PRINTABLE: return x < 0x20 || x >= 0x7F;
    default: return x >= 0x80;
    }
}

#if defined(__SSE2__)
// One bit per byte of the sixteen at p: set for the bytes the scan looks for.
static inline unsigned bt_scan_mask(const uint8_t *p, int kind) {
    __m128i x = _mm_loadu_si128((const __m128i *)p);
    __m128i m;
    switch (kind) {
    case BT_SCAN_JSON_ESCAPE:
        // x <= 0x1F exactly when min(x, 0x1F) == x (unsigned).
        m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(0x22)), _mm_cmpeq_epi8(x, _mm_set1_epi8(0x5C))),
                         _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1F)), x));
        break;
    case BT_SCAN_NOT_PRINTABLE:
        // Below 0x20, or 0x7F and above (max(x, 0x7F) == x).
        m = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1F)), x),
                         _mm_cmpeq_epi8(_mm_max_epu8(x, _mm_set1_epi8(0x7F)), x));
        break;
    default:
        m = x;
        break;
    }
    return (unsigned)_mm_movemask_epi8(m);
}
#endif

// The index of the first byte of p[from..<n] the scan looks for, or n.
static inline ptrdiff_t bt_scan_first(const uint8_t *p, ptrdiff_t n, ptrdiff_t from, int kind) {
    ptrdiff_t i = from < 0 ? 0 : from;
#if defined(__SSE2__)
    for (; i + 16 <= n; i += 16) {
        unsigned m = bt_scan_mask(p + i, kind);
        if (m) return i + __builtin_ctz(m);
    }
    if (i < n && n >= 16) {
        // The last sixteen bytes, less those already scanned.
        ptrdiff_t start = n - 16;
        unsigned m = bt_scan_mask(p + start, kind) & ~((1u << (i - start)) - 1u);
        return m ? start + __builtin_ctz(m) : n;
    }
#endif
    for (; i < n; i++) {
        if (bt_scan_byte(p[i], kind)) return i;
    }
    return n;
}

#endif
