// SPDX-License-Identifier: Apache-2.0
// The headers of the C library photomap's CXML2 (Sources/CXML2) wraps: through pkg-config's flags.
#include <stdio.h>
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, whose headers clash with the copy inside Foundation
// (_FoundationICU). Only the encoding handler's layout depends on it, and photomap never touches one.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
