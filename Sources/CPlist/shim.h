#include <plist/plist.h>
#include <stdint.h>
#include <stdlib.h>

/* libplist renamed PLIST_UINT to PLIST_INT in 2.3 and kept PLIST_UINT as a macro; 2.2 (Debian 12) only has the
   enumerator. These helpers give Swift one spelling that compiles against 2.2 through 2.7. */
static inline int ipc_plist_is_integer(plist_t node) {
    return plist_get_node_type(node) == PLIST_UINT;
}

/* libplist 2.3 changed plist_from_memory's arity; the format-specific parsers kept theirs. The return value is
   void in 2.2 and plist_err_t later, so it is ignored and success is judged by the output node. */
static inline plist_t ipc_plist_parse(const char *data, uint32_t length) {
    plist_t node = NULL;
    if (plist_is_binary(data, length)) {
        plist_from_bin(data, length, &node);
    } else {
        plist_from_xml(data, length, &node);
    }
    return node;
}

/* A signed view of the integer value: libplist stores 64 bits and reports them unsigned. */
static inline int64_t ipc_plist_get_int(plist_t node) {
    uint64_t value = 0;
    plist_get_uint_val(node, &value);
    return (int64_t)value;
}
