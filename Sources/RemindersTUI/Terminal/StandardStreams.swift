// The C library's stream globals are mutable C state the compiler cannot
// check; the import says so here only, not in every file.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// The process's standard C streams, which ncurses draws to and reads from.
/// Only the main thread uses them, when the terminal starts.
enum StandardStreams {
    static var input: UnsafeMutablePointer<FILE> { stdin }
    static var output: UnsafeMutablePointer<FILE> { stdout }
}
