// SPDX-License-Identifier: Apache-2.0
#include "CJPEG.h"

// libjpeg reports fatal errors by calling error_exit, which must not return: the default exits
// the process. Swift cannot survive a longjmp across its frames, so this one C function owns the
// setjmp, and every libjpeg call that can fail happens inside it.

struct photomap_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    // Set when a decode stops at one of photomap's limits, not at an error in the data.
    int over_limit;
};

static void photomap_jpeg_error_exit(j_common_ptr info) {
    struct photomap_jpeg_error *error = (struct photomap_jpeg_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->jump, 1);
}

static void photomap_jpeg_ignore_message(j_common_ptr info) {
    (void)info;
}

// A progressive file may repeat its scans without end, each one a pass over the whole image (a 1 MB
// file of 3,000 scans keeps a core busy for minutes): decodes stop past this many, as libjpeg-turbo
// advises (djpeg -maxscans, TurboJPEG's scan limit).
#define PHOTOMAP_JPEG_MAX_SCANS 500

// The progress monitor libjpeg calls at least once a scan while it reads the image's data.
static void photomap_jpeg_count_scans(j_common_ptr info) {
    struct photomap_jpeg_error *error = (struct photomap_jpeg_error *)info->err;
    if (info->is_decompressor && ((j_decompress_ptr)info)->input_scan_number > PHOTOMAP_JPEG_MAX_SCANS) {
        snprintf(error->message, sizeof error->message, "more than %d scans", PHOTOMAP_JPEG_MAX_SCANS);
        error->over_limit = 1;
        longjmp(error->jump, 1);
    }
}

// Reads the header and chooses the scale: the smallest of libjpeg's (1/8, 1/4, 1/2, 1) that keeps the
// long side at least `min_long` and the short side at least `min_short` pixels (or the image's own,
// when smaller); 1/8 when `channels` is 0. Returns the bytes the decode will hold: the whole image's DCT
// coefficients when the file has several scans (progressive, or components in scans of their own:
// libjpeg keeps them all until the last scan), the output of `channels` bytes a pixel, and libjpeg's
// row buffers and tables. Returns 0 with `message` set when the header declares a side over `max_side`
// or more than `max_pixels` pixels. Runs inside its caller's setjmp.
static unsigned long long photomap_jpeg_prepare(j_decompress_ptr info, unsigned int max_side,
                                                unsigned long long max_pixels, unsigned int min_long,
                                                unsigned int min_short, int channels, char *message,
                                                size_t message_size) {
    jpeg_read_header(info, TRUE);
    unsigned long long declared = (unsigned long long)info->image_width * info->image_height;
    if (declared == 0 || info->image_width > max_side || info->image_height > max_side) {
        snprintf(message, message_size, "implausible size %ux%u", info->image_width, info->image_height);
        return 0;
    }
    if (declared > max_pixels) {
        snprintf(message, message_size, "declared size %ux%u is over the limit of %llu megapixels",
                 info->image_width, info->image_height, max_pixels / 1000000ULL);
        return 0;
    }
    unsigned int long_side = info->image_width > info->image_height ? info->image_width : info->image_height;
    unsigned int short_side = info->image_width > info->image_height ? info->image_height : info->image_width;
    unsigned int want_long = long_side < min_long ? long_side : min_long;
    unsigned int want_short = short_side < min_short ? short_side : min_short;
    unsigned int denom = 8;
    while (channels && denom > 1
           && ((long_side + denom - 1) / denom < want_long || (short_side + denom - 1) / denom < want_short))
        denom /= 2;
    info->scale_num = 1;
    info->scale_denom = denom;
    info->out_color_space = JCS_RGB;
    jpeg_calc_output_dimensions(info);
    unsigned long long bytes = (unsigned long long)info->output_width * (channels ? info->output_height : 1) * 4;
    if (jpeg_has_multiple_scans(info)) {
        for (int c = 0; c < info->num_components; c++) {
            jpeg_component_info *component = &info->comp_info[c];
            unsigned long long across = (component->width_in_blocks + component->h_samp_factor - 1)
                                        / component->h_samp_factor * component->h_samp_factor;
            unsigned long long down = (component->height_in_blocks + component->v_samp_factor - 1)
                                      / component->v_samp_factor * component->v_samp_factor;
            bytes += across * down * DCTSIZE2 * sizeof(JCOEF);
        }
    }
    bytes += (unsigned long long)info->image_width * info->num_components * info->max_v_samp_factor * DCTSIZE * 2
             + (1ULL << 20);
    return bytes;
}

unsigned long long photomap_jpeg_plan(const unsigned char *data, unsigned long size,
        unsigned int max_side, unsigned long long max_pixels,
        unsigned int min_long, unsigned int min_short, int channels,
        char *message, size_t message_size) {
    struct jpeg_decompress_struct info;
    struct photomap_jpeg_error error;
    memset(&info, 0, sizeof info);
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = photomap_jpeg_error_exit;
    error.manager.output_message = photomap_jpeg_ignore_message;
    error.message[0] = 0;
    if (setjmp(error.jump)) {
        snprintf(message, message_size, "%s", error.message);
        jpeg_destroy_decompress(&info);
        return 0;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    unsigned long long bytes =
        photomap_jpeg_prepare(&info, max_side, max_pixels, min_long, min_short, channels, message, message_size);
    jpeg_destroy_decompress(&info);
    return bytes;
}

int photomap_jpeg_read(const unsigned char *data, unsigned long size, unsigned int max_side,
        unsigned long long max_pixels, unsigned long long max_memory,
        unsigned int min_long, unsigned int min_short, int channels, int *width,
        int *height, int *out_width, int *out_height, unsigned char **pixels,
        char *message, size_t message_size) {
    struct jpeg_decompress_struct info;
    struct photomap_jpeg_error error;
    struct jpeg_progress_mgr progress;
    unsigned char *volatile output = NULL;
    unsigned char *volatile row = NULL;
    *pixels = NULL;
    memset(&info, 0, sizeof info);
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = photomap_jpeg_error_exit;
    error.manager.output_message = photomap_jpeg_ignore_message;
    error.message[0] = 0;
    error.over_limit = 0;
    if (setjmp(error.jump)) {
        snprintf(message, message_size, "%s", error.message);
        jpeg_destroy_decompress(&info);
        free(output);
        free(row);
        return error.over_limit ? 2 : 0;
    }
    jpeg_create_decompress(&info);
    memset(&progress, 0, sizeof progress);
    progress.progress_monitor = photomap_jpeg_count_scans;
    info.progress = &progress;
    jpeg_mem_src(&info, data, size);
    unsigned long long needed =
        photomap_jpeg_prepare(&info, max_side, max_pixels, min_long, min_short, channels, message, message_size);
    if (needed == 0) {
        jpeg_destroy_decompress(&info);
        return 0;
    }
    if (needed > max_memory) {
        snprintf(message, message_size, "needs %llu MB to decode, over the limit of %llu MB",
                 (needed + (1ULL << 20) - 1) >> 20, max_memory >> 20);
        jpeg_destroy_decompress(&info);
        return 2;
    }
    info.mem->max_memory_to_use = (long)(needed < (unsigned long long)LONG_MAX ? needed : LONG_MAX);
    jpeg_start_decompress(&info);
    size_t stride = (size_t)info.output_width * 3;
    if (channels) output = malloc((size_t)info.output_width * info.output_height * channels);
    if (channels != 3) row = malloc(stride);
    if ((channels && !output) || (channels != 3 && !row)) {
        snprintf(message, message_size, "out of memory");
        jpeg_destroy_decompress(&info);
        free(output);
        free(row);
        return 0;
    }
    while (info.output_scanline < info.output_height) {
        size_t line = info.output_scanline;
        unsigned char *rows[1] = { channels == 3 ? output + line * stride : row };
        jpeg_read_scanlines(&info, rows, 1);
        for (size_t x = 0; channels == 4 && x < info.output_width; x++) {
            unsigned char *target = output + (line * info.output_width + x) * 4;
            target[0] = row[x * 3];
            target[1] = row[x * 3 + 1];
            target[2] = row[x * 3 + 2];
            target[3] = 255;
        }
    }
    jpeg_finish_decompress(&info);
    // A truncated file makes libjpeg warn (JWRN_JPEG_EOF, some only in finish) and fill in the rest:
    // treat any warning as an error.
    if (error.manager.num_warnings > 0) {
        (*error.manager.format_message)((j_common_ptr)&info, error.message);
        snprintf(message, message_size, "%s", error.message);
        jpeg_destroy_decompress(&info);
        free(output);
        free(row);
        return 0;
    }
    *width = (int)info.image_width;
    *height = (int)info.image_height;
    *out_width = (int)info.output_width;
    *out_height = (int)info.output_height;
    jpeg_destroy_decompress(&info);
    free(row);
    *pixels = output;
    return 1;
}

int photomap_jpeg_encode(const unsigned char *rgba, int width, int height, int quality,
        int progressive, unsigned char **output, unsigned long *output_size, char *message,
        size_t message_size) {
    struct jpeg_compress_struct info;
    struct photomap_jpeg_error error;
    unsigned char *volatile row = NULL;
    *output = NULL;
    *output_size = 0;
    memset(&info, 0, sizeof info);
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = photomap_jpeg_error_exit;
    error.manager.output_message = photomap_jpeg_ignore_message;
    if (setjmp(error.jump)) {
        snprintf(message, message_size, "%s", error.message);
        jpeg_destroy_compress(&info);
        free(row);
        // The memory destination may have replaced (and freed) *output without telling us yet:
        // freeing it here could free twice, so the buffer is leaked on this rare error path.
        *output = NULL;
        return 0;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, output, output_size);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    if (progressive) jpeg_simple_progression(&info);
    jpeg_start_compress(&info, TRUE);
    row = malloc((size_t)width * 3);
    if (!row) {
        snprintf(message, message_size, "out of memory");
        jpeg_destroy_compress(&info);
        free(*output);
        *output = NULL;
        return 0;
    }
    while (info.next_scanline < info.image_height) {
        const unsigned char *source = rgba + (size_t)info.next_scanline * width * 4;
        for (int x = 0; x < width; x++) {
            row[x * 3] = source[x * 4];
            row[x * 3 + 1] = source[x * 4 + 1];
            row[x * 3 + 2] = source[x * 4 + 2];
        }
        unsigned char *rows[1] = { row };
        jpeg_write_scanlines(&info, rows, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    free(row);
    return 1;
}
