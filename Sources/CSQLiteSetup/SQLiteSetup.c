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
}

int reminders_sqlite_setup(void) {
    pthread_once(&once, setup);
    return result;
}
