#ifndef CBUILDID_H
#define CBUILDID_H

#include <stddef.h>

/// Copies to `out` (at most `capacity` bytes) the GNU build ID of the
/// loaded object, executable or shared library, whose code holds `address`,
/// and returns its length: 0 when the object has none or the platform has
/// no ELF objects. The linker makes the ID from the object's contents, so
/// two builds of different code have different IDs.
size_t reminders_build_id(const void *address, unsigned char *out, size_t capacity);

#endif
