import CBuildID

/// The build of the code running the engine: the GNU build ID of the
/// executable or shared library this module was linked into, as hex. Two
/// builds of different code have different IDs (the linker hashes the
/// output), so a fact the engine worked out from its own code, such as
/// whether the installed triggers are the ones it writes, can be noted
/// under this ID and trusted by the next start of the same build.
///
/// Nil where there is none to read (a platform without ELF, a binary
/// linked without a build ID): callers then work the fact out each time.
enum BuildIdentity {
    static let current: String? = {
        // An address inside this module's code: the object that holds it.
        let marker: @convention(c) () -> Void = {}
        var bytes = [UInt8](repeating: 0, count: 64)
        let length = reminders_build_id(unsafeBitCast(marker, to: UnsafeRawPointer.self), &bytes, bytes.count)
        guard length > 0 else { return nil }
        return bytes.prefix(length).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }()
}
