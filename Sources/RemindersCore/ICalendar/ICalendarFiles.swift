import Crypto
import Foundation
import ICalendar

/// The iCalendar files an import reads: one `.ics` file (one or more
/// VCALENDARs), a vdir folder (one `.ics` per item, `displayname` and
/// `color` files), or a folder of vdir folders, as vdirsyncer and todoman
/// lay them out.
public struct ICalendarCollection: Sendable {
    /// The file or folder, for messages.
    public var origin: String
    /// The vdir folder, absolute, for the record of what this device saw
    /// there; nil for a file.
    public var folder: String?
    /// The list's name (NAME, X-WR-CALNAME, `displayname`).
    public var name: String?
    /// "#rrggbb" (X-APPLE-CALENDAR-COLOR, COLOR, `color`).
    public var color: String?
    /// A list id the calendar names: X-WR-RELCALID, or a vdir folder
    /// named by a UUID.
    public var listID: String?
    /// The name for a list when the calendar gives none: the file's or
    /// folder's name.
    public var fallbackName: String
    /// RFC 7986 IMAGE, when it is an image the app can show.
    public var cover: Data?
    /// The list's place among lists (a vdir's `order`, X-APPLE-CALENDAR-ORDER).
    public var position: Int?
    var items: [Item]

    struct Item {
        var todo: ImportedTodo
        var file: String
        var sourceHash: String
        /// For a vdir item: the file's SHA-256.
        var fileSHA: String?
    }

    /// How many VEVENTs and other components that are not to-dos it held.
    public var skipped: Int
}

public enum ICalendarFiles {
    /// Files larger than this are refused before they are read: 10,000
    /// reminders take about 4 MB.
    public static let maximumFileBytes = 32 * 1024 * 1024

    /// Reads `path`: a file, a vdir folder, or a folder of them.
    /// - throws: `CoreError.invalidInput` naming the file and line.
    public static func read(_ path: String, timeZone: TimeZone, now: Date) throws -> [ICalendarCollection] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CoreError.notFound("\(path): no such file or folder")
        }
        guard isDirectory.boolValue else {
            return try readFile(path, timeZone: timeZone, now: now)
        }
        let folder = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        let entries = try contents(folder)
        if entries.contains(where: { $0.hasSuffix(".ics") }) || entries.contains("displayname") {
            return [try readFolder(folder, timeZone: timeZone, now: now)]
        }
        var collections: [ICalendarCollection] = []
        for entry in entries.sorted() {
            let child = folder + "/" + entry
            var childIsDirectory: ObjCBool = false
            guard !entry.hasPrefix("."), FileManager.default.fileExists(atPath: child, isDirectory: &childIsDirectory),
                  childIsDirectory.boolValue else { continue }
            let inner = try contents(child)
            guard inner.contains(where: { $0.hasSuffix(".ics") }) || inner.contains("displayname") else { continue }
            collections.append(try readFolder(child, timeZone: timeZone, now: now))
        }
        guard !collections.isEmpty else {
            throw CoreError.invalidInput("\(path): no .ics files here or in its folders")
        }
        return collections
    }

    private static func contents(_ folder: String) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw CoreError.invalidInput("\(folder): cannot read the folder")
        }
    }

    /// The bytes of a file, refused when too large.
    static func bytes(_ path: String) throws -> [UInt8] {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maximumFileBytes else {
            throw CoreError.invalidInput("\(path): \(size / 1_048_576) MB is larger than the \(maximumFileBytes / 1_048_576) MB an import reads")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CoreError.invalidInput("\(path): cannot read the file")
        }
        return [UInt8](data)
    }

    static func parse(_ bytes: [UInt8], path: String) throws -> [ICalComponent] {
        do throws(ICalError) {
            let calendars = try ICalParser.parse(bytes)
            guard !calendars.isEmpty else { throw ICalError(line: 0, "not iCalendar: the file is empty") }
            return calendars
        } catch {
            throw CoreError.invalidInput(error.line > 0 ? "\(path):\(error.line): \(error.message)" : "\(path): \(error.message)")
        }
    }

    static func readFile(_ path: String, timeZone: TimeZone, now: Date) throws -> [ICalendarCollection] {
        let calendars = try parse(try bytes(path), path: path)
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return try calendars.map { calendar in
            var collection = ICalendarCollection(
                origin: path, folder: nil, name: nil, color: nil, listID: nil, fallbackName: stem,
                cover: nil, position: nil, items: [], skipped: 0)
            try describe(&collection, from: calendar, path: path)
            try addItems(of: calendar, to: &collection, file: path, fileSHA: nil, timeZone: timeZone, now: now)
            return collection
        }
    }

    static func readFolder(_ folder: String, timeZone: TimeZone, now: Date) throws -> ICalendarCollection {
        let name = URL(fileURLWithPath: folder).lastPathComponent
        var collection = ICalendarCollection(
            origin: folder, folder: folder, name: nil, color: nil,
            listID: UUID(uuidString: name)?.uuidString.lowercased(), fallbackName: name,
            cover: nil, position: nil, items: [], skipped: 0)
        if let text = metadata(folder + "/displayname") {
            collection.name = try listName(text, path: folder + "/displayname")
        }
        if let text = metadata(folder + "/color") {
            collection.color = color(text)
        }
        collection.position = metadata(folder + "/order").flatMap { Int($0) }
        for entry in try contents(folder).sorted() where entry.hasSuffix(".ics") && !entry.hasPrefix(".") {
            let path = folder + "/" + entry
            let bytes = try bytes(path)
            let sha = hexDigits(SHA256.hash(data: bytes))
            let before = collection.items.count
            for calendar in try parse(bytes, path: path) {
                try addItems(of: calendar, to: &collection, file: path, fileSHA: sha, timeZone: timeZone, now: now)
            }
            // A vdir holds one item per file, which its export rewrites in place.
            if collection.items.count - before > 1 {
                throw CoreError.invalidInput(
                    "\(path): a vdir file holds one to-do, and this one holds \(collection.items.count - before) (import it on its own: reminders import FILE)")
            }
        }
        return collection
    }

    /// A vdir metadata file's text, trimmed; nil when absent or empty.
    private static func metadata(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path),
              let text = String(data: data, encoding: .utf8)?.trimmingWhitespaceAndNewlines(),
              !text.isEmpty else { return nil }
        return text
    }

    private static func listName(_ text: String, path: String, line: Int = 0) throws -> String {
        do {
            return try Validation.title(text, of: "list name")
        } catch {
            throw CoreError.invalidInput(line > 0 ? "\(path):\(line): \(error)" : "\(path): \(error)")
        }
    }

    /// "#rrggbb" from "#RRGGBB", "#RRGGBBAA" or a basic CSS color name; nil otherwise.
    static func color(_ text: String) -> String? {
        var hex = text.trimmingWhitespace().lowercased()
        if let named = cssNames[hex] { return named }
        if hex.hasPrefix("#") { hex.removeFirst() }
        if hex.count == 8 { hex = String(hex.prefix(6)) }
        return try? Validation.color(hex)
    }

    /// The sixteen basic CSS color names (CSS Color 3), which RFC 7986
    /// COLOR values commonly are.
    static let cssNames: [String: String] = [
        "black": "#000000", "silver": "#c0c0c0", "gray": "#808080", "white": "#ffffff", "maroon": "#800000",
        "red": "#ff0000", "purple": "#800080", "fuchsia": "#ff00ff", "green": "#008000", "lime": "#00ff00",
        "olive": "#808000", "yellow": "#ffff00", "navy": "#000080", "blue": "#0000ff", "teal": "#008080",
        "aqua": "#00ffff",
    ]

    /// The list's name, color, id and cover from VCALENDAR properties.
    private static func describe(_ collection: inout ICalendarCollection, from calendar: ICalComponent, path: String) throws {
        if let name = calendar.property("NAME") ?? calendar.property("X-WR-CALNAME") {
            collection.name = try listName(name.text, path: path, line: name.line)
        }
        if let color = calendar.property("X-APPLE-CALENDAR-COLOR") ?? calendar.property("COLOR") {
            collection.color = Self.color(color.value)
        }
        if let id = calendar.property("X-WR-RELCALID"), let uuid = UUID(uuidString: id.text.trimmingWhitespace()) {
            collection.listID = uuid.uuidString.lowercased()
        }
        if let order = calendar.property("X-APPLE-CALENDAR-ORDER") {
            collection.position = Int(order.value.trimmingWhitespace())
        }
        if let image = calendar.property("IMAGE") {
            collection.cover = coverImage(image)
        }
    }

    /// The bytes of an IMAGE given inline (VALUE=BINARY with base64, or a
    /// data: URI) when they are an image the app shows; nil otherwise (a
    /// URL is not fetched).
    static func coverImage(_ property: ICalProperty) -> Data? {
        var base64: Substring?
        if property.parameter("VALUE")?.uppercased() == "BINARY", property.parameter("ENCODING")?.uppercased() == "BASE64" {
            base64 = Substring(property.value)
        } else if property.value.hasPrefix("data:"), let comma = property.value.firstIndex(of: ","),
                  property.value[..<comma].hasSuffix(";base64") {
            base64 = property.value[property.value.index(after: comma)...]
        }
        guard let base64, let data = Data(base64Encoded: String(base64)), data.count <= Validation.maxCoverBytes,
              (try? CoverImage(png: data)) != nil else { return nil }
        return data
    }

    private static func addItems(of calendar: ICalComponent, to collection: inout ICalendarCollection, file: String,
                                 fileSHA: String?, timeZone: TimeZone, now: Date) throws {
        let mapping = TodoMapping(timeZone: timeZone, zones: TimeZones(calendar: calendar))
        var overrides: [String: [ICalComponent]] = [:]
        var masters: [ICalComponent] = []
        for component in calendar.components {
            switch component.name {
            case "VTODO":
                if component.property("RECURRENCE-ID") != nil {
                    guard let uid = component.property("UID")?.text else {
                        throw CoreError.invalidInput("\(file):\(component.line): a VTODO with RECURRENCE-ID needs the UID of the to-do "
                                                     + "whose occurrence it is")
                    }
                    overrides[uid, default: []].append(component)
                } else {
                    masters.append(component)
                }
            case "VTIMEZONE":
                break
            default:
                collection.skipped += 1
            }
        }
        var unnamed: [String: Int] = [:]
        for todo in masters {
            let uid = todo.property("UID")?.text
            var madeUID: String?
            if uid == nil {
                // A vdir file holds one to-do, and its name stays through
                // edits made elsewhere; in a calendar file, the calendar and
                // the to-do's own text are all there is to know it by.
                let made = collection.folder != nil
                    ? TodoMapping.uid(forUnnamed: todo, in: URL(fileURLWithPath: file).lastPathComponent, byText: false)
                    : TodoMapping.uid(forUnnamed: todo, in: collection.listID ?? collection.name ?? collection.fallbackName, byText: true)
                // The same text twice in a file ("Milk" on a list twice) is two to-dos.
                let before = unnamed[made, default: 0]
                unnamed[made] = before + 1
                madeUID = before == 0 ? made : derivedID(made, String(before))
            }
            let occurrences = uid.flatMap { overrides[$0] } ?? []
            do throws(ICalError) {
                let imported = try mapping.importTodo(todo, overrides: occurrences, now: now, madeUID: madeUID)
                collection.items.append(ICalendarCollection.Item(
                    todo: imported, file: file, sourceHash: TodoMapping.sourceHash(todo, overrides: occurrences),
                    fileSHA: fileSHA))
                if let uid { overrides[uid] = nil }
            } catch {
                throw CoreError.invalidInput("\(file):\(error.line): \(error.message)")
            }
        }
        if let (_, orphans) = overrides.first, let orphan = orphans.first {
            throw CoreError.invalidInput("\(file):\(orphan.line): a VTODO with RECURRENCE-ID whose UID has no VTODO without one")
        }
    }
}
