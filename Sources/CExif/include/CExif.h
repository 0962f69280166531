// SPDX-License-Identifier: Apache-2.0
#ifndef PHOTOMAP_CEXIF_H
#define PHOTOMAP_CEXIF_H

#include <stddef.h>
#include <libexif/exif-data.h>
#include <libexif/exif-utils.h>
// Parses an EXIF block ("Exif\0\0" and the TIFF structure after it) as it is: libexif's defaults
// would add entries the file lacks and convert formats to the specification's (hiding a GPS value
// of the wrong type), and would drop tags its table does not know (OffsetTimeOriginal in older
// versions). NULL when out of memory.
ExifData *photomap_exif_load(const unsigned char *data, unsigned int size);

// The entry of `tag` in one IFD (0, EXIF, GPS, …), or NULL.
ExifEntry *photomap_exif_entry(ExifData *exif, ExifIfd ifd, unsigned int tag);

#endif
