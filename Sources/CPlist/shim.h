#include <plist/plist.h>
#include <stdint.h>
#include <stdlib.h>

/* libplist renamed PLIST_UINT to PLIST_INT in 2.3 and kept PLIST_UINT as a macro; 2.2 (Debian 12) only has the
   enumerator. These helpers give Swift one spelling that compiles against 2.2 through 2.7. */
static inline int ipc_plist_is_integer(plist_t node) {
    return plist_get_node_type(node) == PLIST_UINT;
}

/* libplist 2.3 changed plist_from_memory's arity; the format-specific parsers kept theirs. The return value is
   void in 2.2 and plist_err_t later, so it is ignored and success is judged by the output node. The bytes are taken
   as `const void *` so that Swift can lend a [UInt8] directly. */
static inline plist_t ipc_plist_parse(const void *bytes, uint32_t length) {
    const char *data = (const char *)bytes;
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

/* A node serialized on its own as a bplist00 document, for reading a date as the file says it: the date object is
   marker 0x33 and the big-endian float64 of seconds since 2001-01-01 that libplist keeps for every date it parsed
   (XML or binary), bit for bit. The date getters cannot give that value on every version: plist_get_date_val
   (2.2, deprecated in 2.7) truncates to 32-bit seconds, so dates from 2069-01-19 on wrap to 1932, and
   plist_get_unix_date_val (2.7+) does not exist in 2.2 and drops the fraction; plist.h has no version macro to
   choose between them. plist_to_bin exists in every version with the same parameters; its result is void in 2.2
   and plist_err_t later, so it is ignored and success judged by the buffer. Free the buffer with
   ipc_plist_mem_free. */
static inline char *ipc_plist_to_bin(plist_t node, uint32_t *length) {
    char *bytes = NULL;
    *length = 0;
    plist_to_bin(node, &bytes, length);
    return bytes;
}

/* Frees what libplist allocated for the caller: plist_mem_free from 2.3 on (PLIST_UINT is a macro only from 2.3),
   free() before, which is what plist_mem_free calls. */
static inline void ipc_plist_mem_free(void *pointer) {
#ifdef PLIST_UINT
    plist_mem_free(pointer);
#else
    free(pointer);
#endif
}
