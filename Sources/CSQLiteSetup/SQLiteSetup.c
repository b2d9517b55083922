#include <pthread.h>
#include <sqlite3.h>
#include "CSQLiteSetup.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int result = SQLITE_OK;

static void setup(void) {
    // Memory statistics put one process-wide mutex around every allocation
    // SQLite makes. Nothing here reads them, and with connections working
    // on several threads at once (the screens' reads, a send reading ahead
    // while it stores an answer, the server's thread) that mutex is where
    // they wait for each other.
    result = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    // A statement inside a transaction keeps the pages it changes as they
    // were, to undo itself alone if it fails (the statement journal). Past
    // 64 KiB SQLite moves that journal to a temporary file, and it stays a
    // file for the rest of the transaction: one reminder's insert, with the
    // capture triggers and the indexes, changes about that much, so a
    // 10,000-reminder import wrote every statement's journal to disk, a
    // fifth of its time. 4 MiB keeps any one row's statement in memory;
    // a statement that changes more still spills. The journal is emptied
    // when the statement (or a savepoint around it) ends, and has nothing
    // to do with durability: the write-ahead log does that.
    if (result == SQLITE_OK) result = sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, 4 * 1024 * 1024);
}

int reminders_sqlite_setup(void) {
    pthread_once(&once, setup);
    return result;
}
