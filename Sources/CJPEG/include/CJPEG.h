// SPDX-License-Identifier: Apache-2.0
#ifndef PHOTOMAP_CJPEG_H
#define PHOTOMAP_CJPEG_H

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>
// The bytes a decode by photomap_jpeg_read with these arguments would hold (see photomap_jpeg_prepare),
// from the header alone; 0 with `message` set when the header is refused or unreadable.
unsigned long long photomap_jpeg_plan(const unsigned char *data, unsigned long size,
        unsigned int max_side, unsigned long long max_pixels,
        unsigned int min_long, unsigned int min_short, int channels,
        char *message, size_t message_size);

// Decodes a JPEG held in memory, every scanline, into rows of `channels` bytes a pixel: 4 (RGBA),
// 3 (RGB), or 0 to keep nothing (each scanline into one scratch row: the full check, without the
// image's memory), at the scale photomap_jpeg_prepare chooses. The check always decodes at 1/8: every
// block's Huffman-coded data is still read and checked (that is where truncation and corruption show),
// but its inverse DCT makes one pixel instead of 64. A header over the limits of photomap_jpeg_prepare,
// or whose decode would hold more than `max_memory` bytes, is refused before anything is allocated;
// libjpeg itself is held to that much (its whole-image buffers past it fail), and the decode stops
// past PHOTOMAP_JPEG_MAX_SCANS scans.
// Returns 1 and sets the full size in *width/*height, the decoded one in *out_width/*out_height and
// *pixels (free with free(); NULL for the check); returns 0 with `message` set on any error, including
// truncated data, which libjpeg would otherwise pad with grey and call a success; returns 2 with
// `message` set when the file is refused for the memory or the scans its decode would take.
int photomap_jpeg_read(const unsigned char *data, unsigned long size, unsigned int max_side,
        unsigned long long max_pixels, unsigned long long max_memory,
        unsigned int min_long, unsigned int min_short, int channels, int *width,
        int *height, int *out_width, int *out_height, unsigned char **pixels,
        char *message, size_t message_size);

// Encodes RGBA rows as a JPEG in memory (alpha dropped), baseline or (`progressive`) in libjpeg's
// progression of scans: the squares and medium images of imported photos, and the tests' images. Returns 1 and sets *output (free with free()) on success,
// 0 with `message` set on error.
int photomap_jpeg_encode(const unsigned char *rgba, int width, int height, int quality,
        int progressive, unsigned char **output, unsigned long *output_size, char *message,
        size_t message_size);

#endif
