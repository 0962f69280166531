// SPDX-License-Identifier: Apache-2.0
#ifndef PHOTOMAP_CXML2_H
#define PHOTOMAP_CXML2_H

#include <stdio.h>
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, whose headers clash with the copy inside Foundation
// (_FoundationICU). Only the encoding handler's layout depends on it, and photomap never touches one.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
// Descriptions from Flickr: libxml2's HTML parser, driven through its SAX callbacks.
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
// The first error libxml2 reports while reading a file: its line and message. libxml2 would otherwise
// print errors on stderr itself.
typedef struct {
    int failed;
    int line;
    char message[256];
} photomap_xml_error;

// A streaming reader over the file at `path` that never reaches the network, loads no DTD and expands
// no entity, its errors kept in `error`. NULL when the file cannot be opened.
xmlTextReaderPtr photomap_xml_open(const char *path, photomap_xml_error *error);

// The value of the current element's attribute `name`, to be released with photomap_xml_free; NULL when absent.
char *photomap_xml_attribute(xmlTextReaderPtr reader, const char *name);

// The tree of an XML document of `length` bytes at `bytes`, read without the network, a DTD or entity
// expansion, and refused (NULL, `*doctype` raised) when it declares a document type. NULL when it is not
// well-formed, with libxml2's message in `error`.
xmlDocPtr photomap_xml_read_tree(const char *bytes, int length, int *doctype,
        photomap_xml_error *error);

// Releases what libxml2 allocated (xmlFree is a function pointer variable Swift cannot call safely).
void photomap_xml_free(void *pointer);

#endif
