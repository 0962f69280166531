// SPDX-License-Identifier: Apache-2.0
#include "CPNG.h"

// The image data's zlib checksum (Adler-32 of the inflated rows) is neither computed nor compared, by
// the check (inflateValidate) or by libpng (PNG_IGNORE_ADLER32, libpng >= 1.6.26): every byte of the
// image data is already under its chunk's CRC-32, which the check verifies, and the stream must still
// inflate to exactly the image's rows. It was a fifth of the check's time. Both or neither, so that a
// decode accepts exactly what the check accepts.
#if defined(PNG_IGNORE_ADLER32) && ZLIB_VERNUM >= 0x1290
#define PHOTOMAP_PNG_SKIPS_ADLER32 1
#else
#define PHOTOMAP_PNG_SKIPS_ADLER32 0
#endif

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

static inline uint32_t photomap_png_u32(const unsigned char *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline int photomap_png_fail(char *message, size_t message_size, const char *text) {
    snprintf(message, message_size, "%s", text);
    return 0;
}

// Follows the image data's rows as inflate produces them: every row starts with a filter type (0-4).
struct photomap_png_rows {
    uint64_t row_bytes[7];   // bytes of one row of each pass, filter byte included (0: the pass is empty)
    uint64_t rows[7];        // rows in each pass
    int passes;
    int pass;
    uint64_t row;            // row within the pass
    uint64_t left;           // bytes left in the current row (0: the next byte is a filter type)
    int done;                // every row seen
};

static inline void photomap_png_rows_skip_empty(struct photomap_png_rows *r) {
    while (r->pass < r->passes && (r->row_bytes[r->pass] == 0 || r->rows[r->pass] == 0)) r->pass++;
    if (r->pass == r->passes) r->done = 1;
}

// Returns 0 when a byte is past the image's end or a filter type is invalid.
static inline int photomap_png_rows_take(struct photomap_png_rows *r, const unsigned char *bytes, size_t count) {
    size_t i = 0;
    while (i < count) {
        if (r->done) return 0;
        if (r->left == 0) {
            if (bytes[i] > 4) return 0;
            r->left = r->row_bytes[r->pass] - 1;
            i++;
        } else {
            uint64_t step = count - i < r->left ? count - i : r->left;
            r->left -= step;
            i += (size_t)step;
        }
        if (r->left == 0) {
            if (++r->row == r->rows[r->pass]) {
                r->row = 0;
                r->pass++;
                photomap_png_rows_skip_empty(r);
            }
        }
    }
    return 1;
}

int photomap_png_check(const unsigned char *data, size_t size, unsigned int max_side,
        unsigned int *width, unsigned int *height, char *message, size_t message_size) {
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (size < 8 || memcmp(data, signature, 8) != 0) return photomap_png_fail(message, message_size, "no PNG signature");
    size_t offset = 8;
    int seen_header = 0, seen_palette = 0, in_data = 0, after_data = 0, color = 0, depth = 0, interlaced = 0;
    uint64_t data_limit = 8000000;
    struct photomap_png_rows rows;
    memset(&rows, 0, sizeof rows);
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    int inflating = 0, ended = 0, result = 0;
    unsigned char scratch[16384];
    for (;;) {
        if (size - offset < 12) { photomap_png_fail(message, message_size, "the file ends before the image does"); break; }
        uint32_t length = photomap_png_u32(data + offset);
        const unsigned char *type = data + offset + 4;
        if (length > 0x7FFFFFFFu) { photomap_png_fail(message, message_size, "a chunk length over 2^31"); break; }
        int letters = 1;
        for (int i = 0; i < 4; i++) {
            unsigned char c = type[i];
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) letters = 0;
        }
        if (!letters) { photomap_png_fail(message, message_size, "an invalid chunk type"); break; }
        if ((uint64_t)length > (uint64_t)(size - offset - 12)) {
            photomap_png_fail(message, message_size, "the file ends before the image does");
            break;
        }
        const unsigned char *body = type + 4;
        int is_idat = memcmp(type, "IDAT", 4) == 0;
        // libpng's limits on a chunk's size: 8 MB, or what the image's rows could take for IDAT.
        if ((uint64_t)length > (is_idat ? data_limit : 8000000u)) {
            photomap_png_fail(message, message_size, "chunk data is too large");
            break;
        }
        uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), type, length + 4);
        if (crc != photomap_png_u32(body + length)) { photomap_png_fail(message, message_size, "a chunk's CRC does not match"); break; }
        offset += 12 + (size_t)length;
        if (!seen_header) {
            if (memcmp(type, "IHDR", 4) != 0 || length != 13) { photomap_png_fail(message, message_size, "no IHDR first"); break; }
            uint32_t w = photomap_png_u32(body), h = photomap_png_u32(body + 4);
            depth = body[8];
            color = body[9];
            interlaced = body[12];
            if (w == 0 || h == 0 || w > 0x7FFFFFFFu || h > 0x7FFFFFFFu) {
                photomap_png_fail(message, message_size, "an invalid image size");
                break;
            }
            int channels = 0, depth_ok = 0;
            switch (color) {
            case 0: channels = 1; depth_ok = depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16; break;
            case 2: channels = 3; depth_ok = depth == 8 || depth == 16; break;
            case 3: channels = 1; depth_ok = depth == 1 || depth == 2 || depth == 4 || depth == 8; break;
            case 4: channels = 2; depth_ok = depth == 8 || depth == 16; break;
            case 6: channels = 4; depth_ok = depth == 8 || depth == 16; break;
            default: break;
            }
            if (!depth_ok || body[10] != 0 || body[11] != 0 || interlaced > 1) {
                photomap_png_fail(message, message_size, "an invalid IHDR");
                break;
            }
            *width = w;
            *height = h;
            if (w > max_side || h > max_side) return 2;
            static const int x0[7] = {0, 4, 0, 2, 0, 1, 0}, y0[7] = {0, 0, 4, 0, 2, 0, 1};
            static const int dx[7] = {8, 8, 4, 4, 2, 2, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};
            rows.passes = interlaced ? 7 : 1;
            for (int p = 0; p < rows.passes; p++) {
                uint64_t pw = interlaced ? (w > (uint32_t)x0[p] ? (w - x0[p] + dx[p] - 1) / dx[p] : 0) : w;
                uint64_t ph = interlaced ? (h > (uint32_t)y0[p] ? (h - y0[p] + dy[p] - 1) / dy[p] : 0) : h;
                rows.row_bytes[p] = pw ? (pw * channels * depth + 7) / 8 + 1 : 0;
                rows.rows[p] = ph;
            }
            photomap_png_rows_skip_empty(&rows);
            // libpng's bound on one IDAT chunk (png_check_chunk_length): the rows plus deflate's overhead.
            uint64_t factor = (uint64_t)w * channels * (depth > 8 ? 2 : 1) + 1 + (interlaced ? 6 : 0);
            uint64_t limit = h > 0xFFFFFFFFu / factor ? 0x7FFFFFFFu : h * factor;
            if (factor > 32566) factor = 32566;
            limit += 6 + 5 * (limit / factor + 1);
            if (limit > 0x7FFFFFFFu) limit = 0x7FFFFFFFu;
            data_limit = limit > 8000000u ? limit : 8000000u;
            seen_header = 1;
            continue;
        }
        if (memcmp(type, "IEND", 4) == 0) {
            if (length != 0) { photomap_png_fail(message, message_size, "an IEND with data"); break; }
            if (!ended || !rows.done) { photomap_png_fail(message, message_size, "the image data is incomplete"); break; }
            result = 1;
            break;
        }
        if (is_idat) {
            if (after_data) { photomap_png_fail(message, message_size, "IDAT chunks apart"); break; }
            if (color == 3 && !seen_palette) { photomap_png_fail(message, message_size, "no PLTE before the image data"); break; }
            in_data = 1;
            if (!inflating) {
                // Window bits 0: the window the stream's header claims, as libpng reads it.
                if (inflateInit2(&stream, 0) != Z_OK) { photomap_png_fail(message, message_size, "out of memory"); break; }
                inflating = 1;
#if PHOTOMAP_PNG_SKIPS_ADLER32
                inflateValidate(&stream, 0);
#endif
            }
            if (length > 0 && ended) { photomap_png_fail(message, message_size, "data after the image data's end"); break; }
            stream.next_in = (unsigned char *)body;
            stream.avail_in = length;
            int failed = 0;
            // On while input is left, or while the last call filled the scratch (output may be pending).
            while (!ended && (stream.avail_in > 0 || stream.avail_out == 0)) {
                stream.next_out = scratch;
                stream.avail_out = sizeof scratch;
                int status = inflate(&stream, Z_NO_FLUSH);
                size_t produced = sizeof scratch - stream.avail_out;
                if (!photomap_png_rows_take(&rows, scratch, produced)) {
                    photomap_png_fail(message, message_size, rows.done ? "more image data than rows" : "an invalid row filter type");
                    failed = 1;
                    break;
                }
                if (status == Z_STREAM_END) {
                    ended = 1;
                } else if (status != Z_OK && !(status == Z_BUF_ERROR && stream.avail_in == 0)) {
                    photomap_png_fail(message, message_size, stream.msg ? stream.msg : "invalid image data");
                    failed = 1;
                    break;
                }
            }
            if (failed) break;
            if (ended && stream.avail_in > 0) { photomap_png_fail(message, message_size, "data after the image data's end"); break; }
            continue;
        }
        if (in_data) after_data = 1;
        if (memcmp(type, "PLTE", 4) == 0) {
            if (seen_palette || in_data || color == 0 || color == 4 || length == 0 || length % 3 != 0 || length / 3 > 256 ||
                (color == 3 && length / 3 > (1u << depth))) {
                photomap_png_fail(message, message_size, "an invalid PLTE");
                break;
            }
            seen_palette = 1;
            continue;
        }
        if (memcmp(type, "IHDR", 4) == 0) { photomap_png_fail(message, message_size, "a second IHDR"); break; }
        if (!(type[0] & 0x20)) { photomap_png_fail(message, message_size, "an unknown critical chunk"); break; }
    }
    if (inflating) inflateEnd(&stream);
    return result;
}

int photomap_png_decode(const unsigned char *data, size_t size, unsigned int max_side,
        unsigned int *width, unsigned int *height, unsigned char **pixels,
        char *message, size_t message_size) {
    struct photomap_png_reader reader;
    png_structp png;
    png_infop info;
    unsigned char *volatile output = NULL;
    if (pixels) *pixels = NULL;
    // The check decides what is accepted, for a decode as for a check; libpng only makes the pixels.
    int checked = photomap_png_check(data, size, max_side, width, height, message, message_size);
    if (checked != 1 || !pixels) return checked;
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
#if PHOTOMAP_PNG_SKIPS_ADLER32
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    if (setjmp(reader.jump)) {
        snprintf(message, message_size, "%s", reader.message);
        png_destroy_read_struct(&png, &info, NULL);
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
    output = malloc(stride * *height);
    if (!output) png_error(png, "out of memory");
    // Each pass fills in the rows the earlier ones left: the image's own rows hold them in between.
    for (int pass = 0; pass < passes; pass++) {
        for (unsigned int y = 0; y < *height; y++) png_read_row(png, output + y * stride, NULL);
    }
    png_read_end(png, info);
    png_destroy_read_struct(&png, &info, NULL);
    *pixels = output;
    return 1;
}
