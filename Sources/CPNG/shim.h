#ifndef PHOTOMAP_CPNG_SHIM_H
#define PHOTOMAP_CPNG_SHIM_H

// Only libpng's simplified png_image_* API is used: it reports errors through return values
// and png_image.message instead of longjmp, which Swift code cannot survive.
#include <png.h>

// PNG_FORMAT_RGBA is a macro expression, which Swift does not import.
static const unsigned int photomap_png_format_rgba = PNG_FORMAT_RGBA;

#endif
