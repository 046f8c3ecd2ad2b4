#ifndef CRYPTOREPORT_LIBXML2_SHIM_H
#define CRYPTOREPORT_LIBXML2_SHIM_H

// Debian builds libxml2 with ICU. Its encoding header then pulls in ICU's
// declarations, which clash with Foundation's copy in a clean build
// ("'UErrorCode' has different definitions"). We never use the ICU converter,
// so hide it before any other libxml2 header is read.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

// xmlFree is a global function pointer, which Swift 6 treats as unsafe shared
// mutable state; call it from C instead.
static inline void cryptoreport_xmlFree(void *pointer) {
    xmlFree(pointer);
}

// Silence libxml2's default error printer (it writes to stderr); errors are
// reported through our own types instead.
static void cryptoreport_xmlIgnoreError(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static inline void cryptoreport_xmlSilenceErrors(void) {
    xmlSetGenericErrorFunc(NULL, cryptoreport_xmlIgnoreError);
}

#endif
