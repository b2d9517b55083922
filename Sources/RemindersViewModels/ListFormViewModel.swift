import Foundation
import GRDB
import RemindersCore
import Synchronization

/// Where the cover image in the list form comes from.
public enum CoverSource: Equatable, Sendable {
    /// No cover.
    case none
    /// The cover the list already has (editing, untouched).
    case existing
    /// One of the sample covers of Assets/ (`SampleCovers.names`).
    case sample(String)
    /// A PNG file the user named.
    case file(String)

    /// For the form: "none", "current", "forest", "/path/to/file.png".
    public var label: String {
        switch self {
        case .none: "none"
        case .existing: "current"
        case .sample(let name): name
        case .file(let path): path
        }
    }
}

/// The fields of the list form.
public struct ListFields: Equatable, Sendable {
    public var title: String
    /// "#rrggbb", one of `RemindersStore.palette` (any valid color works).
    public var color: String
    /// Where the cover comes from.
    public var coverSource: CoverSource
    /// The chosen cover's PNG bytes (checked), nil for none.
    public var coverPNG: Data?

    /// Fields for a new list: no title, the palette's first color, no cover.
    public init(title: String = "", color: String = RemindersStore.palette[0],
                coverSource: CoverSource = .none, coverPNG: Data? = nil) {
        self.title = title
        self.color = color
        self.coverSource = coverSource
        self.coverPNG = coverPNG
    }
}

/// A field of the list form, to attach error messages to.
public enum ListField: String, CaseIterable, Hashable, Sendable {
    case title, color, cover
}

/// The state of `ListFormViewModel`.
public struct ListFormState: ViewState {
    /// Nil for a new list.
    public var listID: String?
    /// The fields as edited.
    public var fields: ListFields
    /// A message per field that failed the last `validate()` or `save()`.
    public var fieldErrors: [ListField: String]
    /// Why the last `save()` was refused by the store, or nil.
    public var saveError: String?
    public var errorMessage: String?

    /// The defaults are the state of a new list's form.
    public init(listID: String? = nil, fields: ListFields = ListFields(), fieldErrors: [ListField: String] = [:],
                saveError: String? = nil, errorMessage: String? = nil) {
        self.listID = listID
        self.fields = fields
        self.fieldErrors = fieldErrors
        self.saveError = saveError
        self.errorMessage = errorMessage
    }

    /// Whether saving creates a list (rather than edits one).
    public var isNew: Bool { listID == nil }
    /// The colors to choose from.
    public var palette: [String] { RemindersStore.palette }
    /// The sample covers to choose from.
    public var sampleCovers: [String] { SampleCovers.names }
}

/// The form for a new list or an edit: title, color, cover image.
public final class ListFormViewModel: ViewModel {
    public let core: ViewModelCore<ListFormState>
    /// The title and color as the list had them when the form read it (or
    /// as the form last saved them): a save writes only what differs, so
    /// a change made elsewhere meanwhile to the other stays. Nil for a
    /// list not saved yet.
    private let baseline: Mutex<ListFields?>
    /// A new list, in the next palette color after those in use.
    public init(environment: AppEnvironment) {
        let color = (try? environment.writer.read { db in try RemindersStore.nextColor(db) }) ?? RemindersStore.palette[0]
        baseline = Mutex(nil)
        core = ViewModelCore(environment: environment,
                   initial: ListFormState(listID: nil, fields: ListFields(color: color), fieldErrors: [:]),
                   label: "list-form")
    }

    /// Editing a list; throws `CoreError.notFound` when it does not exist.
    public init(environment: AppEnvironment, listID: String) throws {
        let found = try environment.writer.read { db -> (RemindersList, Data?)? in
            guard let list = try Queries.list(db, id: listID) else { return nil }
            return (list, try Queries.cover(db, listID: listID))
        }
        guard let (list, cover) = found else { throw CoreError.notFound("list \(listID) not found") }
        let fields = ListFields(title: list.title, color: list.color,
                                coverSource: cover == nil ? .none : .existing, coverPNG: cover)
        baseline = Mutex(fields)
        core = ViewModelCore(environment: environment,
                   initial: ListFormState(listID: listID, fields: fields, fieldErrors: [:]),
                   label: "list-form")
    }

    /// The fields as edited; setting them clears the errors of the fields
    /// that changed.
    public var fields: ListFields {
        get { state.fields }
        set {
            update { state in
                if state.fields.title != newValue.title { state.fieldErrors[.title] = nil }
                if state.fields.color != newValue.color { state.fieldErrors[.color] = nil }
                if state.fields.coverSource != newValue.coverSource { state.fieldErrors[.cover] = nil }
                state.fields = newValue
            }
        }
    }

    public var title: String {
        get { fields.title }
        set { fields.title = newValue }
    }

    /// "#rrggbb".
    public var color: String {
        get { fields.color }
        set { fields.color = newValue }
    }

    /// Chooses the next (+1) or previous (-1) palette color.
    public func cycleColor(by offset: Int = 1) {
        let palette = RemindersStore.palette
        let index = palette.firstIndex(of: fields.color.lowercased()) ?? -1
        let count = palette.count
        fields.color = palette[((index + offset) % count + count) % count]
    }

    /// Chooses a sample cover by name. Returns the error message (also in
    /// `fieldErrors[.cover]`) or nil.
    @discardableResult
    public func chooseSampleCover(_ name: String) -> String? {
        guard let png = SampleCovers.png(named: name) else {
            return coverError("no sample cover named '\(name)' (there are \(SampleCovers.names.joined(separator: ", ")))")
        }
        fields.coverSource = .sample(name)
        fields.coverPNG = png
        return nil
    }

    /// Chooses a PNG file; it is read and checked now so the form can say
    /// what is wrong at once. Returns the error message or nil. A leading
    /// "~/" means the home folder.
    @discardableResult
    public func chooseCoverFile(path: String) -> String? {
        let path = Self.expandingHome(path.trimmingCharacters(in: .whitespaces))
        guard !path.isEmpty else { return coverError("enter the path of a PNG or JPEG file") }
        do {
            let png = try CoverImage.load(path: path)
            fields.coverSource = .file(path)
            fields.coverPNG = png
            return nil
        } catch {
            return coverError(Self.describe(error))
        }
    }

    /// "~" and "~/…" as a shell reads them: the home is $HOME (what the
    /// user set), and only without it the password file's.
    static func expandingHome(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + path.dropFirst(1)
    }

    /// Removes the cover (one key in the form).
    public func removeCover() {
        fields.coverSource = .none
        fields.coverPNG = nil
    }

    private func coverError(_ message: String) -> String {
        update { $0.fieldErrors[.cover] = message }
        return message
    }

    /// Checks the fields; returns (and records) a message per bad field.
    @discardableResult
    public func validate() -> [ListField: String] {
        var errors = state.fieldErrors.filter { $0.key == .cover }
        do { _ = try Validation.title(fields.title, of: "list title") } catch { errors[.title] = Self.describe(error) }
        do { _ = try Validation.color(fields.color) } catch { errors[.color] = Self.describe(error) }
        update { $0.fieldErrors = errors }
        return errors
    }

    /// Whether another list has this form's title (any case), for a word
    /// of warning once saved.
    public func titleIsSharedWithAnotherList() -> Bool {
        let title = fields.title
        let id = state.listID ?? ""
        return (try? store.writer.read { db in try Queries.isListTitleShared(db, title: title, by: id) }) ?? false
    }

    /// Validates, then creates or updates the list and its cover.
    @discardableResult
    public func save() -> FormSaveResult<ListField> {
        let errors = validate()
        guard errors.isEmpty else { return .invalid(errors) }
        let fields = self.fields
        update { $0.saveError = nil }
        do {
            let id: String
            let was = baseline.withLock { $0 }
            if let listID = state.listID {
                try store.updateList(id: listID, title: was?.title == fields.title ? nil : fields.title,
                                     color: was?.color == fields.color ? nil : fields.color)
                id = listID
            } else {
                id = try store.createList(title: fields.title, color: fields.color).id
                update { $0.listID = id }
            }
            // The cover only when the user chose one, or chose none: a
            // list read without one may have got one elsewhere meanwhile.
            if fields.coverSource != .existing,
               was == nil || was?.coverSource != fields.coverSource || was?.coverPNG != fields.coverPNG {
                try store.setCover(listID: id, png: fields.coverPNG)
            }
            baseline.withLock { $0 = fields }
            return .saved(id: id)
        } catch {
            let message = Self.describe(error)
            update { $0.saveError = message }
            return .failed(message)
        }
    }
}
