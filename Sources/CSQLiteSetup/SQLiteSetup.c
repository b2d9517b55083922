#include <pthread.h>
#include <sqlite3.h>
#include <string.h>
#include "CSQLiteSetup.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int result = SQLITE_OK;

// Made from Unicode's decompositions (NFD): a letter that decomposes into
// an ASCII letter and combining marks folds to that letter.
// U+00C0-U+024F (Latin-1 Supplement, Latin Extended-A and -B): each letter's base, or 0.
static const char latinBase[0x190] = {
    /* U+00C0 */ 'A', 'A', 'A', 'A', 'A', 'A', 0, 'C', 'E', 'E', 'E', 'E', 'I', 'I', 'I', 'I',
    /* U+00D0 */ 0, 'N', 'O', 'O', 'O', 'O', 'O', 0, 0, 'U', 'U', 'U', 'U', 'Y', 0, 0,
    /* U+00E0 */ 'a', 'a', 'a', 'a', 'a', 'a', 0, 'c', 'e', 'e', 'e', 'e', 'i', 'i', 'i', 'i',
    /* U+00F0 */ 0, 'n', 'o', 'o', 'o', 'o', 'o', 0, 0, 'u', 'u', 'u', 'u', 'y', 0, 'y',
    /* U+0100 */ 'A', 'a', 'A', 'a', 'A', 'a', 'C', 'c', 'C', 'c', 'C', 'c', 'C', 'c', 'D', 'd',
    /* U+0110 */ 0, 0, 'E', 'e', 'E', 'e', 'E', 'e', 'E', 'e', 'E', 'e', 'G', 'g', 'G', 'g',
    /* U+0120 */ 'G', 'g', 'G', 'g', 'H', 'h', 0, 0, 'I', 'i', 'I', 'i', 'I', 'i', 'I', 'i',
    /* U+0130 */ 'I', 0, 0, 0, 'J', 'j', 'K', 'k', 0, 'L', 'l', 'L', 'l', 'L', 'l', 0,
    /* U+0140 */ 0, 0, 0, 'N', 'n', 'N', 'n', 'N', 'n', 0, 0, 0, 'O', 'o', 'O', 'o',
    /* U+0150 */ 'O', 'o', 0, 0, 'R', 'r', 'R', 'r', 'R', 'r', 'S', 's', 'S', 's', 'S', 's',
    /* U+0160 */ 'S', 's', 'T', 't', 'T', 't', 0, 0, 'U', 'u', 'U', 'u', 'U', 'u', 'U', 'u',
    /* U+0170 */ 'U', 'u', 'U', 'u', 'W', 'w', 'Y', 'y', 'Y', 'Z', 'z', 'Z', 'z', 'Z', 'z', 0,
    /* U+0180 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* U+0190 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* U+01A0 */ 'O', 'o', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'U',
    /* U+01B0 */ 'u', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* U+01C0 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'A', 'a', 'I',
    /* U+01D0 */ 'i', 'O', 'o', 'U', 'u', 'U', 'u', 'U', 'u', 'U', 'u', 'U', 'u', 0, 'A', 'a',
    /* U+01E0 */ 'A', 'a', 0, 0, 0, 0, 'G', 'g', 'K', 'k', 'O', 'o', 'O', 'o', 0, 0,
    /* U+01F0 */ 'j', 0, 0, 0, 'G', 'g', 0, 0, 'N', 'n', 'A', 'a', 0, 0, 0, 0,
    /* U+0200 */ 'A', 'a', 'A', 'a', 'E', 'e', 'E', 'e', 'I', 'i', 'I', 'i', 'O', 'o', 'O', 'o',
    /* U+0210 */ 'R', 'r', 'R', 'r', 'U', 'u', 'U', 'u', 'S', 's', 'T', 't', 0, 0, 'H', 'h',
    /* U+0220 */ 0, 0, 0, 0, 0, 0, 'A', 'a', 'E', 'e', 'O', 'o', 'O', 'o', 'O', 'o',
    /* U+0230 */ 'O', 'o', 'Y', 'y', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* U+0240 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

// U+1E00-U+1EFF (Latin Extended Additional: Vietnamese and others): each letter's base, or 0.
static const char latinAdditionalBase[0x100] = {
    /* U+1E00 */ 'A', 'a', 'B', 'b', 'B', 'b', 'B', 'b', 'C', 'c', 'D', 'd', 'D', 'd', 'D', 'd',
    /* U+1E10 */ 'D', 'd', 'D', 'd', 'E', 'e', 'E', 'e', 'E', 'e', 'E', 'e', 'E', 'e', 'F', 'f',
    /* U+1E20 */ 'G', 'g', 'H', 'h', 'H', 'h', 'H', 'h', 'H', 'h', 'H', 'h', 'I', 'i', 'I', 'i',
    /* U+1E30 */ 'K', 'k', 'K', 'k', 'K', 'k', 'L', 'l', 'L', 'l', 'L', 'l', 'L', 'l', 'M', 'm',
    /* U+1E40 */ 'M', 'm', 'M', 'm', 'N', 'n', 'N', 'n', 'N', 'n', 'N', 'n', 'O', 'o', 'O', 'o',
    /* U+1E50 */ 'O', 'o', 'O', 'o', 'P', 'p', 'P', 'p', 'R', 'r', 'R', 'r', 'R', 'r', 'R', 'r',
    /* U+1E60 */ 'S', 's', 'S', 's', 'S', 's', 'S', 's', 'S', 's', 'T', 't', 'T', 't', 'T', 't',
    /* U+1E70 */ 'T', 't', 'U', 'u', 'U', 'u', 'U', 'u', 'U', 'u', 'U', 'u', 'V', 'v', 'V', 'v',
    /* U+1E80 */ 'W', 'w', 'W', 'w', 'W', 'w', 'W', 'w', 'W', 'w', 'X', 'x', 'X', 'x', 'Y', 'y',
    /* U+1E90 */ 'Z', 'z', 'Z', 'z', 'Z', 'z', 'h', 't', 'w', 'y', 0, 0, 0, 0, 0, 0,
    /* U+1EA0 */ 'A', 'a', 'A', 'a', 'A', 'a', 'A', 'a', 'A', 'a', 'A', 'a', 'A', 'a', 'A', 'a',
    /* U+1EB0 */ 'A', 'a', 'A', 'a', 'A', 'a', 'A', 'a', 'E', 'e', 'E', 'e', 'E', 'e', 'E', 'e',
    /* U+1EC0 */ 'E', 'e', 'E', 'e', 'E', 'e', 'E', 'e', 'I', 'i', 'I', 'i', 'O', 'o', 'O', 'o',
    /* U+1ED0 */ 'O', 'o', 'O', 'o', 'O', 'o', 'O', 'o', 'O', 'o', 'O', 'o', 'O', 'o', 'O', 'o',
    /* U+1EE0 */ 'O', 'o', 'O', 'o', 'U', 'u', 'U', 'u', 'U', 'u', 'U', 'u', 'U', 'u', 'U', 'u',
    /* U+1EF0 */ 'U', 'u', 'Y', 'y', 'Y', 'y', 'Y', 'y', 'Y', 'y', 0, 0, 0, 0, 0, 0,
};

size_t reminders_fold(const unsigned char *text, size_t length, unsigned char *out) {
    size_t written = 0;
    size_t at = 0;
    while (at < length) {
        unsigned char byte = text[at];
        if (byte < 0x80) {
            out[written++] = byte;
            at += 1;
            continue;
        }
        if (byte >= 0xC2 && byte <= 0xDF && at + 1 < length && (text[at + 1] & 0xC0) == 0x80) {
            unsigned int point = ((byte & 0x1Fu) << 6) | (text[at + 1] & 0x3Fu);
            // Combining diacritical marks go.
            if (point >= 0x300 && point <= 0x36F) {
                at += 2;
                continue;
            }
            if (point >= 0xC0 && point < 0x250 && latinBase[point - 0xC0]) {
                out[written++] = (unsigned char)latinBase[point - 0xC0];
                at += 2;
                continue;
            }
        } else if (byte == 0xE1 && at + 2 < length && text[at + 1] >= 0xB8 && text[at + 1] <= 0xBB
                   && (text[at + 2] & 0xC0) == 0x80) {
            unsigned int point = 0x1000u | ((text[at + 1] & 0x3Fu) << 6) | (text[at + 2] & 0x3Fu);
            if (latinAdditionalBase[point - 0x1E00]) {
                out[written++] = (unsigned char)latinAdditionalBase[point - 0x1E00];
                at += 3;
                continue;
            }
        }
        out[written++] = byte;
        at += 1;
    }
    return written;
}

// reminders_fold(text) in SQL: text as `reminders_fold` folds it; any
// other value as it is. ASCII text (most of it) is returned untouched.
static void fold_function(sqlite3_context *context, int count, sqlite3_value **values) {
    (void)count;
    if (sqlite3_value_type(values[0]) != SQLITE_TEXT) {
        sqlite3_result_value(context, values[0]);
        return;
    }
    const unsigned char *text = sqlite3_value_text(values[0]);
    int length = sqlite3_value_bytes(values[0]);
    int at = 0;
    while (at < length && text[at] < 0x80) at++;
    if (at == length) {
        sqlite3_result_value(context, values[0]);
        return;
    }
    unsigned char *out = sqlite3_malloc(length > 0 ? length : 1);
    if (!out) {
        sqlite3_result_error_nomem(context);
        return;
    }
    size_t written = reminders_fold(text, (size_t)length, out);
    sqlite3_result_text(context, (const char *)out, (int)written, sqlite3_free);
}

static int register_functions(sqlite3 *db, char **error, const struct sqlite3_api_routines *api) {
    (void)error;
    (void)api;
    return sqlite3_create_function_v2(db, "reminders_fold", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                      NULL, fold_function, NULL, NULL, NULL);
}

static void setup(void) {
    // Memory statistics put one process-wide mutex around every allocation
    // SQLite makes. Nothing here reads them, and with connections working
    // on several threads at once (the screens' reads, a send reading ahead
    // while it stores an answer, the server's thread) that mutex is where
    // they wait for each other.
    result = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    // Every connection opened from here on knows `reminders_fold`, which
    // the search index's triggers call.
    sqlite3_auto_extension((void (*)(void))register_functions);
}

int reminders_sqlite_setup(void) {
    pthread_once(&once, setup);
    return result;
}
