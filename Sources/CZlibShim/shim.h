#ifndef BLETRACE_CZLIB_SHIM_H
#define BLETRACE_CZLIB_SHIM_H
#include <zlib.h>
/* inflateInit2 is a macro; give Swift a function to call. */
static inline int bletrace_inflate_init(z_stream *strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
#endif
