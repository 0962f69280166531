#ifndef PHOTOMAP_CSYSTEM_SHIM_H
#define PHOTOMAP_CSYSTEM_SHIM_H

#include <stddef.h>
// mallopt: Swift's Glibc module leaves <malloc.h> out.
#include <malloc.h>

// glibc's wcwidth: <wchar.h> declares it only under _XOPEN_SOURCE, which Swift's Glibc module is
// built without, so its prototype is given here (the function is in every glibc).
extern int wcwidth(wchar_t character);

#endif
