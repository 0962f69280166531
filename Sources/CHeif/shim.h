// SPDX-License-Identifier: Apache-2.0
#ifndef PHOTOMAP_CHEIF_SHIM_H
#define PHOTOMAP_CHEIF_SHIM_H

#include <libheif/heif.h>

#endif
