// SPDX-License-Identifier: Apache-2.0
#include "CExif.h"

ExifData *photomap_exif_load(const unsigned char *data, unsigned int size) {
    ExifData *exif = exif_data_new();
    if (!exif) return NULL;
    exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_unset_option(exif, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    exif_data_load_data(exif, data, size);
    return exif;
}

ExifEntry *photomap_exif_entry(ExifData *exif, ExifIfd ifd, unsigned int tag) {
    return exif_content_get_entry(exif->ifd[ifd], (ExifTag)tag);
}
