#ifndef TRACKSNAP_CZLIB_SHIM_H
#define TRACKSNAP_CZLIB_SHIM_H

#include <zlib.h>

// inflateInit2 is a macro Swift cannot import.
static inline int cztracksnap_inflate_init2(z_streamp stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}

#endif
