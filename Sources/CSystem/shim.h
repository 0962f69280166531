// SPDX-License-Identifier: Apache-2.0
#ifndef PHOTOMAP_CSYSTEM_SHIM_H
#define PHOTOMAP_CSYSTEM_SHIM_H

#include <stddef.h>
// mallopt: Swift's Glibc module leaves <malloc.h> out.
#include <malloc.h>

// glibc's wcwidth: <wchar.h> declares it only under _XOPEN_SOURCE, which Swift's Glibc module is
// built without, so its prototype is given here (the function is in every glibc).
extern int wcwidth(wchar_t character);

// O_TMPFILE: glibc defines it only under _GNU_SOURCE, and as an expression Swift does not import;
// __O_TMPFILE, its value, is always there. 0 where neither is.
#include <fcntl.h>
static inline int photomap_o_tmpfile(void) {
#if defined(O_TMPFILE)
    return O_TMPFILE;
#elif defined(__O_TMPFILE)
    return __O_TMPFILE;
#else
    return 0;
#endif
}

#endif
