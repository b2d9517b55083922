import Foundation
import GRDB
import RemindersCore

/// The state of `TagsViewModel`.
public struct TagsState: ViewState {
    /// Every tag, used or not, with its count of open reminders.
    public var tags: [TagSummary]
    /// False until the first read arrived.
    public var isLoaded: Bool
    public var errorMessage: String?

    /// The defaults are the state before the first read.
    public init(tags: [TagSummary] = [], isLoaded: Bool = false, errorMessage: String? = nil) {
        self.tags = tags
        self.isLoaded = isLoaded
        self.errorMessage = errorMessage
    }
}

/// The tags screen: every tag with its count; create, rename, delete.
/// Opening a tag's reminders is `ListDetailViewModel(filter: .tag(title))`.
public final class TagsViewModel: ViewModel {
    public let core: ViewModelCore<TagsState>
    /// Starts observing the tags at once.
    public init(environment: AppEnvironment) {
        core = ViewModelCore(environment: environment, initial: TagsState(tags: [], isLoaded: false), label: "tags")
        observe({ db in try Queries.allTags(db) }, apply: { state, tags in
            state.tags = tags
            state.isLoaded = true
        })
    }

    /// Creates a tag (a leading "#" dropped); `createdID` is its title
    /// (`TagKey.of` it is the tag's id). A tag with the same key stays as
    /// it is.
    @discardableResult
    public func create(_ title: String) -> ActionResult {
        perform {
            let tag = try Validation.tag(title)
            // A tag with its key was there already: nothing was made.
            if let existing = try store.createTag(tag) {
                return ActionResult(message: "#\(existing) is there already", createdID: existing)
            }
            return ActionResult(message: "Created #\(tag)", createdID: tag)
        }
    }

    /// Renames a tag on every reminder (search follows). A new spelling of
    /// the same key changes only the spelling; renaming onto another
    /// existing tag merges the two.
    /// The result's undo takes it back (a merge too).
    @discardableResult
    public func rename(_ old: String, to new: String) -> ActionResult {
        perform {
            let tag = try Validation.tag(new)
            // Named so already (the prompt left as it was): nothing to do,
            // and nothing to undo.
            if try environment.writer.read({ db in try Queries.tagTitle(db, old) }) == tag {
                return ActionResult(message: "#\(tag) is named so already")
            }
            let rename = try store.renameTag(old, to: tag)
            // Merged, the tag keeps the spelling it had: say which.
            let message = rename.merged ? "Merged #\(rename.old.title) into #\(rename.new)" : "Renamed #\(rename.old.title) to #\(rename.new)"
            return ActionResult(message: message, undo: .undoRename(rename), createdID: rename.new)
        }
    }

    /// Deletes a tag; its reminders stay, without it. The result's undo
    /// puts it back on them.
    @discardableResult
    public func delete(_ title: String) -> ActionResult {
        perform {
            let links = try store.deleteTag(title)
            return ActionResult(message: "Deleted #\(links.title)", undo: .restoreTag(links))
        }
    }
}
