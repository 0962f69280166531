#ifndef PHOTOMAP_CXML2_SHIM_H
#define PHOTOMAP_CXML2_SHIM_H

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

// Stops the parse at a document type declaration, before any entity is declared: XMP has none, and one is
// how an XML bomb or an external entity comes in. The context's `_private` points at the flag it raises.
static void photomap_xml_refuse_doctype(void *context, const xmlChar *name, const xmlChar *publicID,
                                        const xmlChar *systemID) {
    xmlParserCtxtPtr parser = (xmlParserCtxtPtr)context;
    if (parser->_private) *(int *)parser->_private = 1;
    xmlStopParser(parser);
}

// The tree of an XML document of `length` bytes at `bytes`, read without the network, a DTD or entity
// expansion, and refused (NULL, `*doctype` raised) when it declares a document type. NULL when it is not
// well-formed, with libxml2's message in `error`.
static inline xmlDocPtr photomap_xml_read_tree(const char *bytes, int length, int *doctype,
                                               photomap_xml_error *error) {
    xmlParserCtxtPtr parser = xmlNewParserCtxt();
    if (!parser) return NULL;
    parser->_private = doctype;
    parser->sax->internalSubset = photomap_xml_refuse_doctype;
    xmlDocPtr document = xmlCtxtReadMemory(parser, bytes, length, NULL, NULL,
                                           XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlErrorPtr last = xmlCtxtGetLastError(parser);
    if (error && last && last->level >= XML_ERR_ERROR) {
        error->failed = 1;
        error->line = last->line;
        snprintf(error->message, sizeof error->message, "%s", last->message ? last->message : "malformed XML");
    }
    int wellFormed = parser->wellFormed;
    xmlFreeParserCtxt(parser);
    if (document && (!wellFormed || *doctype)) {
        xmlFreeDoc(document);
        return NULL;
    }
    return document;
}

// Releases what libxml2 allocated (xmlFree is a function pointer variable Swift cannot call safely).
static inline void photomap_xml_free(void *pointer) {
    xmlFree(pointer);
}

#endif
