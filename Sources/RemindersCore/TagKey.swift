import Foundation

/// A tag's identity: the key its row (and its server record) is stored
/// under, derived from the title the same way on every device.
///
/// Two devices that tag with "Work" and "work", or "Café" and "CAFÉ", must
/// end with one tag, so the key ignores case and how an accent is encoded:
/// it is the title in canonical decomposition, then full Unicode case
/// folding without a locale ("Straße" and "STRASSE" fold alike; a Turkish
/// device folds "I" as any other), then canonical composition. These are
/// the steps of Unicode's canonical caseless matching, so two titles have
/// one key exactly when Unicode calls them equal without regard to case.
/// The spelling a user sees is the tag's `title`, an ordinary field.
public enum TagKey {
    /// The key of a tag title. Any Unicode text has one; the empty title
    /// has the empty key.
    public static func of(_ title: String) -> String {
        // ASCII text is its own canonical form both ways and folds to its
        // lower case: the common title skips Foundation's three passes,
        // each a copy through NSString on Linux.
        if title.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: Queries.noCaseKey(title), as: UTF8.self)
        }
        return folded(title)
    }

    /// The key by Unicode's rules, for any text.
    static func folded(_ title: String) -> String {
        title.decomposedStringWithCanonicalMapping
            .folding(options: .caseInsensitive, locale: nil)
            .precomposedStringWithCanonicalMapping
    }
}
