// SPDX-License-Identifier: Apache-2.0
#ifndef PHOTOMAP_CPNG_H
#define PHOTOMAP_CPNG_H

// libpng's simplified png_image_* API reports errors through return values and png_image.message
// instead of longjmp, which Swift code cannot survive: photomap encodes with it. Reading uses the
// classic API (its simplified reader stops after the image's rows and leaves the chunks' memory to
// libpng), in photomap_png_decode, which keeps its setjmp inside this C function.
#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
// PNG_FORMAT_RGBA is a macro expression, which Swift does not import.
static const unsigned int photomap_png_format_rgba = PNG_FORMAT_RGBA;

// The whole-file check of a PNG in memory, as strict as a decode and stricter than libpng where libpng
// only warns, without libpng and without unfiltering: what the cache runs on every image it stores.
// The signature; every chunk's length and CRC; IHDR first and valid (no side over max_side); only
// known critical chunks, in their order (PLTE once before the image data, when the colour type has
// one; IDAT chunks consecutive); the image data inflated (zlib, with the window its header claims,
// as libpng does) to exactly the rows the header implies, each starting with a valid filter type (its
// zlib checksum only where PHOTOMAP_PNG_SKIPS_ADLER32 is 0); IEND, empty, last. Returns 1 and the size
// when whole; 2 with the size when a side is over max_side; 0 with `message` set otherwise. Every file
// it accepts, libpng decodes.
int photomap_png_check(const unsigned char *data, size_t size, unsigned int max_side,
        unsigned int *width, unsigned int *height, char *message, size_t message_size);

// Decodes a PNG held in memory into 8-bit RGBA rows (free *pixels with free()) after
// photomap_png_check has accepted it, or with `pixels` NULL only checks it: so a decode accepts
// exactly what the check accepts, and libpng only makes the pixels. Returns as photomap_png_check.
int photomap_png_decode(const unsigned char *data, size_t size, unsigned int max_side,
        unsigned int *width, unsigned int *height, unsigned char **pixels,
        char *message, size_t message_size);

#endif
