#ifndef REMINDERS_CNCURSES_SHIM_H
#define REMINDERS_CNCURSES_SHIM_H

// Wide-character ncurses (libncursesw). The two defines must come before the
// header so that cchar_t, setcchar, mvadd_wch and wget_wch are declared.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>
#include <stdlib.h>
#include <string.h>

#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <ncurses.h>
#endif

// Swift cannot import ncurses' function-like macros, and its globals
// (stdscr, COLORS, LINES, COLS) are mutable C globals that Swift 6 treats as
// unsafe. Everything the TUI needs from them goes through these shims.

// MARK: Signals

// The full-screen app's signal handling, in C so that the handler does only
// what is safe in a handler (Swift's runtime gives no such promise): it
// notes SIGTERM and SIGHUP, writes a byte to the main loop's wake pipe, and
// leaves errno as it found it. SIGWINCH only wakes the loop, which then
// reads the size itself: the thread that catches a signal may not be the
// one asleep in poll(), so ncurses' own handler could miss a resize.
//
// The state lives in function-local statics (a header's file-scope statics
// are not always emitted for Swift), and only TerminalApp.swift calls these,
// so there is one copy of it.
static inline volatile sig_atomic_t *reminders_termination_flag(void) {
    static volatile sig_atomic_t flag = 0;
    return &flag;
}

static inline volatile int *reminders_signal_wake_descriptor(void) {
    static volatile int descriptor = -1;
    return &descriptor;
}

static inline struct sigaction *reminders_previous_resize_action(void) {
    static struct sigaction action;
    return &action;
}

static inline void reminders_signal_handler(int signal_number) {
    int saved = errno;
    if (signal_number == SIGTERM || signal_number == SIGHUP) *reminders_termination_flag() = 1;
    int descriptor = *reminders_signal_wake_descriptor();
    if (descriptor >= 0) {
        char byte = 1;
        (void)write(descriptor, &byte, 1);
    }
    errno = saved;
}

static inline void reminders_install_signal_handlers(int wake_descriptor) {
    *reminders_signal_wake_descriptor() = wake_descriptor;
    *reminders_termination_flag() = 0;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = reminders_signal_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    sigaction(SIGWINCH, &action, reminders_previous_resize_action());
}

static inline void reminders_restore_signal_handlers(void) {
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    sigaction(SIGWINCH, reminders_previous_resize_action(), NULL);
    *reminders_signal_wake_descriptor() = -1;
}

static inline int reminders_termination_was_requested(void) { return *reminders_termination_flag() != 0; }

// MARK: Globals

// The terminal's size as the kernel has it now (ioctl is variadic: Swift
// reaches it only through overlays that differ by platform). 0 on success.
// Also the command line's, for fitting rows to the terminal.
static inline int reminders_terminal_size(int *rows, int *columns) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

static inline WINDOW *reminders_stdscr(void) { return stdscr; }
static inline int reminders_colors(void) { return COLORS; }
static inline int reminders_color_pairs(void) { return COLOR_PAIRS; }
static inline int reminders_lines(void) { return LINES; }
static inline int reminders_cols(void) { return COLS; }

static inline void reminders_getmaxyx(WINDOW *window, int *rows, int *columns) {
    int y = 0, x = 0;
    getmaxyx(window, y, x);
    *rows = y;
    *columns = x;
}

// MARK: Attributes and colors

static inline unsigned int reminders_color_pair(int pair) { return (unsigned int)COLOR_PAIR(pair); }
static inline unsigned int reminders_a_normal(void) { return (unsigned int)A_NORMAL; }
static inline unsigned int reminders_a_bold(void) { return (unsigned int)A_BOLD; }
static inline unsigned int reminders_a_dim(void) { return (unsigned int)A_DIM; }
static inline unsigned int reminders_a_underline(void) { return (unsigned int)A_UNDERLINE; }
static inline unsigned int reminders_a_reverse(void) { return (unsigned int)A_REVERSE; }
static inline unsigned int reminders_a_standout(void) { return (unsigned int)A_STANDOUT; }
static inline unsigned int reminders_a_italic(void) { return (unsigned int)A_ITALIC; }

/// Defines a color pair; above 32767 pairs only the extended call works.
static inline int reminders_init_pair(int pair, int foreground, int background) {
    return init_extended_pair(pair, foreground, background);
}

// MARK: Drawing

/// Puts one cell: a base character plus up to CCHARW_MAX-1 zero-width
/// characters (combining marks), with attributes and an extended color pair
/// (passed through setcchar's opts so that pairs above 32767 work).
static inline int reminders_put_cell(int row, int column, const wchar_t *characters, unsigned int attributes, int pair) {
    cchar_t cell;
    memset(&cell, 0, sizeof cell);
    int extendedPair = pair;
    if (setcchar(&cell, characters, (attr_t)attributes, 0, &extendedPair) == ERR) return ERR;
    return mvwadd_wch(stdscr, row, column, &cell);
}

static inline int reminders_ccharw_max(void) { return CCHARW_MAX; }

// MARK: Input

/// Reads one key without waiting (nodelay). Returns OK for a character,
/// KEY_CODE_YES for a function key, ERR when nothing was there.
static inline int reminders_get_wch(unsigned int *code) {
    wint_t value = 0;
    int result = wget_wch(stdscr, &value);
    *code = (unsigned int)value;
    return result;
}

static inline int reminders_key_code_yes(void) { return KEY_CODE_YES; }
static inline int reminders_key_f(int n) { return KEY_F(n); }
static inline int reminders_key_up(void) { return KEY_UP; }
static inline int reminders_key_down(void) { return KEY_DOWN; }
static inline int reminders_key_left(void) { return KEY_LEFT; }
static inline int reminders_key_right(void) { return KEY_RIGHT; }
static inline int reminders_key_home(void) { return KEY_HOME; }
static inline int reminders_key_end(void) { return KEY_END; }
static inline int reminders_key_npage(void) { return KEY_NPAGE; }
static inline int reminders_key_ppage(void) { return KEY_PPAGE; }
static inline int reminders_key_backspace(void) { return KEY_BACKSPACE; }
static inline int reminders_key_dc(void) { return KEY_DC; }
static inline int reminders_key_ic(void) { return KEY_IC; }
static inline int reminders_key_enter(void) { return KEY_ENTER; }
static inline int reminders_key_btab(void) { return KEY_BTAB; }
static inline int reminders_key_resize(void) { return KEY_RESIZE; }
static inline int reminders_key_mouse(void) { return KEY_MOUSE; }
static inline int reminders_key_sr(void) { return KEY_SR; }
static inline int reminders_key_sf(void) { return KEY_SF; }

// MARK: Mouse

static inline unsigned long reminders_button1_pressed(void) { return (unsigned long)BUTTON1_PRESSED; }
static inline unsigned long reminders_button1_released(void) { return (unsigned long)BUTTON1_RELEASED; }
static inline unsigned long reminders_button1_clicked(void) { return (unsigned long)BUTTON1_CLICKED; }
static inline unsigned long reminders_button1_double_clicked(void) { return (unsigned long)BUTTON1_DOUBLE_CLICKED; }
static inline unsigned long reminders_button4_pressed(void) { return (unsigned long)BUTTON4_PRESSED; }
#ifdef BUTTON5_PRESSED
static inline unsigned long reminders_button5_pressed(void) { return (unsigned long)BUTTON5_PRESSED; }
#else
static inline unsigned long reminders_button5_pressed(void) { return 0; }
#endif

/// Turns on the mouse events the app uses: left clicks and the wheel.
static inline void reminders_enable_mouse(void) {
    mmask_t wanted = BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED;
#ifdef BUTTON5_PRESSED
    wanted |= BUTTON5_PRESSED;
#endif
    mousemask(wanted, NULL);
    mouseinterval(0);
}

/// Reads the pending mouse event. Returns ERR when there is none.
static inline int reminders_get_mouse(int *row, int *column, unsigned long *buttons) {
    MEVENT event;
    memset(&event, 0, sizeof event);
    if (getmouse(&event) != OK) return ERR;
    *row = event.y;
    *column = event.x;
    *buttons = (unsigned long)event.bstate;
    return OK;
}

// MARK: Terminal capabilities

/// A boolean terminfo capability, including extended ones such as "RGB" and
/// "Tc": 1 present, 0 absent, -1 not a boolean capability.
static inline int reminders_tigetflag(const char *name) {
    return tigetflag((char *)name);
}

/// Non-NULL when the terminfo string capability exists.
static inline int reminders_has_tigetstr(const char *name) {
    char *value = tigetstr((char *)name);
    return value != NULL && value != (char *)-1;
}

// MARK: Text

static inline int reminders_wcwidth(unsigned int scalar) { return wcwidth((wchar_t)scalar); }

/// Sets the locale from the environment (LC_ALL, LC_CTYPE, LANG) so that
/// ncurses and wcwidth work in UTF-8. Returns 1 when the character type is
/// UTF-8.
static inline int reminders_setlocale_from_environment(void) {
    const char *result = setlocale(LC_ALL, "");
    if (result == NULL) return 0;
    const char *ctype = setlocale(LC_CTYPE, NULL);
    if (ctype == NULL) return 0;
    return strstr(ctype, "UTF-8") != NULL || strstr(ctype, "utf8") != NULL || strstr(ctype, "UTF8") != NULL || strstr(ctype, "utf-8") != NULL;
}

/// Switches the character type to a UTF-8 locale when the environment's is
/// not (e.g. LANG unset gives "C"): C.UTF-8 exists on every glibc.
static inline int reminders_force_utf8_ctype(void) {
    return setlocale(LC_CTYPE, "C.UTF-8") != NULL;
}

#endif
