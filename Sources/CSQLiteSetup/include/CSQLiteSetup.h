#ifndef CSQLITESETUP_H
#define CSQLITESETUP_H

/// Sets SQLite's process-wide options once, before the first connection:
/// SQLite reads them only until it initializes. Safe to call from any
/// thread, any number of times. Returns SQLite's result code of the
/// setting (SQLITE_OK, or SQLITE_MISUSE when a connection was opened
/// before the first call, which leaves SQLite's defaults in place).
int reminders_sqlite_setup(void);

#endif
