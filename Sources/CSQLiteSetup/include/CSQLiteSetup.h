#ifndef CSQLITESETUP_H
#define CSQLITESETUP_H

#include <stddef.h>

/// Sets SQLite's process-wide options once, before the first connection:
/// SQLite reads them only until it initializes. Safe to call from any
/// thread, any number of times. Returns SQLite's result code of the
/// setting (SQLITE_OK, or SQLITE_MISUSE when a connection was opened
/// before the first call, which leaves SQLite's defaults in place).
///
/// Also registers, for every connection opened after the first call, the
/// SQL function `reminders_fold(text)` (see `reminders_fold`).
int reminders_sqlite_setup(void);

/// Writes `text` (UTF-8, `length` bytes) to `out` with its Latin letters'
/// diacritics removed: a letter with accents, composed ("é") or followed by
/// combining marks ("e" and U+0301), becomes its base letter ("e"); every
/// other byte is copied. Never writes more than `length` bytes; returns how
/// many it wrote. Case is kept: the search index folds case itself.
size_t reminders_fold(const unsigned char *text, size_t length, unsigned char *out);

#endif
