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
/// SQL function `reminders_fold(text)` (see `reminders_fold`) and the
/// collation `reminders_title` (see `reminders_title_compare`).
int reminders_sqlite_setup(void);

/// Writes `text` (UTF-8, `length` bytes) to `out` as the search index holds
/// it: a Latin, Greek or Cyrillic letter with diacritics, composed ("é",
/// "ά") or followed by combining marks, becomes its base letter; a letter
/// read as another (đ, ø, ł, ß, æ, œ, the "fi" ligature) becomes that; and
/// non-ASCII letters are lowered (SQLite's LIKE, which short searches use,
/// folds ASCII only; the trigram index folds case itself). Every other byte
/// is copied. Never writes more than `length` bytes; returns how many it
/// wrote. What it folds is part of the search index: a change to it needs
/// a migration that rebuilds the index, as v12 did.
size_t reminders_fold(const unsigned char *text, size_t length, unsigned char *out);

/// Below, at or above zero as title `a` sorts before, with or after title
/// `b` (UTF-8, lengths in bytes): by their letters as `reminders_fold`
/// folds them with ASCII lowered ("Éclair" by "eclair", before "zebra"), a
/// prefix first; texts with the same letters as SQLite's NOCASE orders
/// them, then byte for byte, so only equal texts are equal. The SQL
/// collation `reminders_title` compares this way, and an index keeps its
/// order: a change to it (or to the fold) needs a migration that rebuilds
/// the indexes that use it, as v13 built `reminders_open_title`.
int reminders_title_compare(const unsigned char *a, size_t aLength, const unsigned char *b, size_t bLength);

/// Reads up to `count` bytes from the start of the file at `path` (a
/// full path) into `buffer`, through SQLite's own file layer rather than
/// open(2) and close(2). Closing any descriptor of a file drops every
/// POSIX lock the process holds on it, SQLite's among them: a process
/// that holds the file open as a database and reads its header with a
/// descriptor of its own would lose the lock that tells other processes
/// it is in use, and the next one to close it would take the database for
/// unused and delete its write-ahead log and index while this one still
/// reads and writes them. SQLite keeps such a descriptor open until the
/// process's locks on the file are gone. Returns the number of bytes read
/// (fewer at the end of the file, 0 for an empty one), or -1 when the file
/// cannot be opened for reading.
long reminders_read_file_start(const char *path, unsigned char *buffer, int count);

#endif
