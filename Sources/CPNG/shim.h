#ifndef PHOTOMAP_CPNG_SHIM_H
#define PHOTOMAP_CPNG_SHIM_H

// libpng's simplified png_image_* API reports errors through return values and png_image.message
// instead of longjmp, which Swift code cannot survive: photomap encodes with it. Reading uses the
// classic API (its simplified reader stops after the image's rows and leaves the chunks' memory to
// libpng), in photomap_png_decode, which keeps its setjmp inside this C function.
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// PNG_FORMAT_RGBA is a macro expression, which Swift does not import.
static const unsigned int photomap_png_format_rgba = PNG_FORMAT_RGBA;

struct photomap_png_reader {
    const unsigned char *data;
    size_t size;
    size_t offset;
    jmp_buf jump;
    char message[200];
};

static void photomap_png_error(png_structp png, png_const_charp text) {
    struct photomap_png_reader *reader = (struct photomap_png_reader *)png_get_error_ptr(png);
    snprintf(reader->message, sizeof reader->message, "%s", text);
    longjmp(reader->jump, 1);
}

static void photomap_png_warning(png_structp png, png_const_charp text) {
    // Warnings (an odd ancillary chunk, a known-bad ICC profile) leave the image itself whole.
    (void)png;
    (void)text;
}

static void photomap_png_read(png_structp png, png_bytep target, size_t count) {
    struct photomap_png_reader *reader = (struct photomap_png_reader *)png_get_io_ptr(png);
    if (count > reader->size - reader->offset) png_error(png, "the file ends before the image does");
    memcpy(target, reader->data + reader->offset, count);
    reader->offset += count;
}

// Ancillary chunks photomap never reads, skipped unread: no memory for their data (libpng would
// allocate what a tEXt's length field claims, up to 2 GB, and inflate each zTXt up to 8 MB, found by
// scripts/fuzz images). tRNS stays: it is the image's transparency.
static const png_byte photomap_png_ignored_chunks[] = {
    'b', 'K', 'G', 'D', 0, 'c', 'H', 'R', 'M', 0, 'e', 'X', 'I', 'f', 0, 'g', 'A', 'M', 'A', 0, 'h', 'I', 'S', 'T', 0,
    'i', 'C', 'C', 'P', 0, 'i', 'T', 'X', 't', 0, 'o', 'F', 'F', 's', 0, 'p', 'C', 'A', 'L', 0, 'p', 'H', 'Y', 's', 0,
    's', 'B', 'I', 'T', 0, 's', 'C', 'A', 'L', 0, 's', 'P', 'L', 'T', 0, 's', 'R', 'G', 'B', 0, 't', 'E', 'X', 't', 0,
    't', 'I', 'M', 'E', 0, 'z', 'T', 'X', 't', 0,
};

// Decodes a PNG held in memory into 8-bit RGBA rows, or with `pixels` NULL checks it as fully
// without keeping the image: the one reader behind both, so that they accept the same files. Every
// chunk's CRC, the header (no side over max_side, checked before anything is allocated), every row
// of every interlace pass inflated and unfiltered (into the image, or into one scratch row), and the
// chunks after the image up to IEND. Returns 1 and sets the size (and *pixels, free with free())
// when the file is whole; 2 with the size set when a side is over max_side (nothing read past the
// header); 0 with `message` set otherwise.
static inline int photomap_png_decode(const unsigned char *data, size_t size, unsigned int max_side,
                                      unsigned int *width, unsigned int *height, unsigned char **pixels,
                                      char *message, size_t message_size) {
    struct photomap_png_reader reader;
    png_structp png;
    png_infop info;
    png_bytep volatile row = NULL;
    unsigned char *volatile output = NULL;
    if (pixels) *pixels = NULL;
    memset(&reader, 0, sizeof reader);
    reader.data = data;
    reader.size = size;
    png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, photomap_png_error, photomap_png_warning);
    if (!png) {
        snprintf(message, message_size, "out of memory");
        return 0;
    }
    // Made before setjmp, so the error branch sees it as it is (it is not volatile).
    info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        snprintf(message, message_size, "out of memory");
        return 0;
    }
    // A bad CRC in any chunk, ancillary ones too, is damage: libpng would only warn for those.
    png_set_crc_action(png, PNG_CRC_DEFAULT, PNG_CRC_ERROR_QUIT);
    if (setjmp(reader.jump)) {
        snprintf(message, message_size, "%s", reader.message);
        png_destroy_read_struct(&png, &info, NULL);
        free(row);
        free(output);
        return 0;
    }
    png_set_read_fn(png, &reader, photomap_png_read);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, photomap_png_ignored_chunks,
                                (int)(sizeof photomap_png_ignored_chunks / 5));
    png_read_info(png, info);
    *width = png_get_image_width(png, info);
    *height = png_get_image_height(png, info);
    if (*width > max_side || *height > max_side) {
        png_destroy_read_struct(&png, &info, NULL);
        return 2;
    }
    // Any colour type and depth to 8-bit RGBA: palettes and small greys expanded, transparency to
    // alpha, 16 bits scaled, grey to RGB, an opaque alpha where the image has none.
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t stride = png_get_rowbytes(png, info);
    if (stride != (size_t)*width * 4) png_error(png, "an unexpected row layout");
    if (pixels) {
        output = malloc(stride * *height);
        if (!output) png_error(png, "out of memory");
    } else {
        row = malloc(stride);
        if (!row) png_error(png, "out of memory");
    }
    // Each pass fills in the rows the earlier ones left: the image's own rows hold them in between.
    for (int pass = 0; pass < passes; pass++) {
        for (unsigned int y = 0; y < *height; y++) png_read_row(png, output ? output + y * stride : row, NULL);
    }
    png_read_end(png, info);
    png_destroy_read_struct(&png, &info, NULL);
    free(row);
    if (pixels) *pixels = output;
    return 1;
}

#endif
