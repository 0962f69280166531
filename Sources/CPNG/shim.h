#ifndef PHOTOMAP_CPNG_SHIM_H
#define PHOTOMAP_CPNG_SHIM_H

// libpng's simplified png_image_* API reports errors through return values and png_image.message
// instead of longjmp, which Swift code cannot survive: photomap decodes and encodes with it. The
// one use of the classic API, photomap_png_check, keeps its setjmp inside this C function.
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

// Checks a PNG held in memory the way a decoder would, without keeping the image: every chunk's
// CRC, the header (no side over max_side, checked before anything is allocated), every row of every
// interlace pass inflated and unfiltered into one scratch row, and the chunks after the image up to
// IEND. Returns 1 and sets the size when the file is whole; 2 with the size set when a side is over
// max_side (nothing read past the header); 0 with `message` set otherwise.
static inline int photomap_png_check(const unsigned char *data, size_t size, unsigned int max_side,
                                     unsigned int *width, unsigned int *height, char *message, size_t message_size) {
    struct photomap_png_reader reader;
    png_structp png;
    png_infop info;
    png_bytep volatile row = NULL;
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
        return 0;
    }
    png_set_read_fn(png, &reader, photomap_png_read);
    png_read_info(png, info);
    *width = png_get_image_width(png, info);
    *height = png_get_image_height(png, info);
    if (*width > max_side || *height > max_side) {
        png_destroy_read_struct(&png, &info, NULL);
        return 2;
    }
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    row = malloc(png_get_rowbytes(png, info));
    if (!row) png_error(png, "out of memory");
    for (int pass = 0; pass < passes; pass++) {
        for (unsigned int y = 0; y < *height; y++) png_read_row(png, row, NULL);
    }
    png_read_end(png, info);
    png_destroy_read_struct(&png, &info, NULL);
    free(row);
    return 1;
}

#endif
