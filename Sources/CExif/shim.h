#ifndef PHOTOMAP_CEXIF_SHIM_H
#define PHOTOMAP_CEXIF_SHIM_H

#include <stddef.h>
#include <libexif/exif-data.h>
#include <libexif/exif-utils.h>

// Parses an EXIF block ("Exif\0\0" and the TIFF structure after it) as it is: libexif's defaults
// would add entries the file lacks and convert formats to the specification's (hiding a GPS value
// of the wrong type), and would drop tags its table does not know (OffsetTimeOriginal in older
// versions). NULL when out of memory.
static inline ExifData *photomap_exif_load(const unsigned char *data, unsigned int size) {
    ExifData *exif = exif_data_new();
    if (!exif) return NULL;
    exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_unset_option(exif, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    exif_data_load_data(exif, data, size);
    return exif;
}

// The entry of `tag` in one IFD (0, EXIF, GPS, …), or NULL.
static inline ExifEntry *photomap_exif_entry(ExifData *exif, ExifIfd ifd, unsigned int tag) {
    return exif_content_get_entry(exif->ifd[ifd], (ExifTag)tag);
}

#endif
