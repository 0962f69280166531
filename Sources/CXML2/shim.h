#ifndef PHOTOMAP_CXML2_SHIM_H
#define PHOTOMAP_CXML2_SHIM_H

#include <stdio.h>
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, whose headers clash with the copy inside Foundation
// (_FoundationICU). Only the encoding handler's layout depends on it, and photomap never touches one.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
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

static void photomap_xml_record(void *context, xmlErrorPtr error) {
    photomap_xml_error *recorded = (photomap_xml_error *)context;
    if (!recorded || !error || recorded->failed || error->level < XML_ERR_ERROR) return;
    recorded->failed = 1;
    recorded->line = error->line;
    snprintf(recorded->message, sizeof recorded->message, "%s", error->message ? error->message : "malformed XML");
}

// A streaming reader over the file at `path` that never reaches the network, loads no DTD and expands
// no entity, its errors kept in `error`. NULL when the file cannot be opened.
static inline xmlTextReaderPtr photomap_xml_open(const char *path, photomap_xml_error *error) {
    xmlTextReaderPtr reader = xmlReaderForFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (reader) xmlTextReaderSetStructuredErrorHandler(reader, photomap_xml_record, error);
    return reader;
}

// The value of the current element's attribute `name`, to be released with photomap_xml_free; NULL when absent.
static inline char *photomap_xml_attribute(xmlTextReaderPtr reader, const char *name) {
    return (char *)xmlTextReaderGetAttribute(reader, (const xmlChar *)name);
}

// Releases what libxml2 allocated (xmlFree is a function pointer variable Swift cannot call safely).
static inline void photomap_xml_free(void *pointer) {
    xmlFree(pointer);
}

#endif
