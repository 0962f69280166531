// SPDX-License-Identifier: Apache-2.0
#include "CXML2.h"

static void photomap_xml_record(void *context, xmlErrorPtr error) {
    photomap_xml_error *recorded = (photomap_xml_error *)context;
    if (!recorded || !error || recorded->failed || error->level < XML_ERR_ERROR) return;
    recorded->failed = 1;
    recorded->line = error->line;
    snprintf(recorded->message, sizeof recorded->message, "%s", error->message ? error->message : "malformed XML");
}

xmlTextReaderPtr photomap_xml_open(const char *path, photomap_xml_error *error) {
    xmlTextReaderPtr reader = xmlReaderForFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (reader) xmlTextReaderSetStructuredErrorHandler(reader, photomap_xml_record, error);
    return reader;
}

char *photomap_xml_attribute(xmlTextReaderPtr reader, const char *name) {
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

xmlDocPtr photomap_xml_read_tree(const char *bytes, int length, int *doctype,
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

void photomap_xml_free(void *pointer) {
    xmlFree(pointer);
}
