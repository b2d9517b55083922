import Crypto
import Foundation
import ICalendar

/// A VTODO read for import: the reminder it says, and what is kept.
struct ImportedTodo {
    var uid: String
    var reminder: Reminder
    var tags: [String]
    /// The UID a RELATED-TO names as parent, before the import checks it.
    var parentUID: String?
    /// The UID of the series a completed occurrence came from.
    var repeatOfUID: String?
    /// X-APPLE-SORT-ORDER, if given.
    var position: Int?
    /// The kept properties and components, as a VTODO.
    var kept: ICalComponent
    /// SEQUENCE and LAST-MODIFIED, which order versions of one to-do.
    var version: TodoVersion
    /// Which fields the file gave: a field it leaves out (no COMPLETED
    /// time) does not count as a change.
    var givesCompletedAt: Bool
    /// Where it starts in its file.
    var line: Int
    /// It gives a repeat rule (with a due date to repeat) that this
    /// version cannot follow: why (the first rule's problem). The rule is
    /// kept and exported as written, and the reminder does not repeat here.
    var unfollowedRule: String?
    /// It is this app's own export (from any device) with nothing in it
    /// changed since but its times (`TodoMapping.exportedMarker`).
    var isUneditedExport = false
}

/// The revision of a to-do: SEQUENCE first, then LAST-MODIFIED (RFC 5545
/// 3.8.7.4 and 3.8.7.3). nil parts are unknown.
struct TodoVersion: Equatable {
    var sequence: Int?
    var lastModified: Date?

    var isKnown: Bool { sequence != nil || lastModified != nil }

    /// Whether `self` is known to be later than `other`; unknown parts
    /// compare as equal.
    func isNewer(than other: TodoVersion) -> Bool {
        let mine = sequence ?? 0, theirs = other.sequence ?? 0
        if mine != theirs { return mine > theirs }
        guard let a = lastModified, let b = other.lastModified else { return false }
        return a > b
    }
}

extension TodoMapping {
    /// The UID of a VTODO that has none (RFC 5545 asks for one; some tools
    /// leave it out): an id derived from where it is (`place`: a vdir
    /// file's name, or the calendar's id or name) and, `byText`, from its
    /// title, notes and dates. Importing the same file again finds the
    /// to-do rather than making it twice, and export writes the id as its
    /// UID from then on. Known by its text, a to-do whose title, notes or
    /// dates are edited elsewhere is a new one: nothing else names it.
    /// (Its status and stamps are left out: completed elsewhere, it is
    /// the same to-do.)
    static func uid(forUnnamed todo: ICalComponent, in place: String, byText: Bool) -> String {
        var parts = ["icalendar-no-uid", place]
        if byText {
            for name in ["SUMMARY", "DESCRIPTION", "DTSTART", "DUE"] {
                parts.append(todo.properties.filter { $0.name == name }.map(\.value).joined(separator: "\n"))
            }
        }
        return derivedID(parts.joined(separator: "\u{1F}"))
    }

    /// Reads a VTODO (and the VTODOs that override its occurrences).
    /// `now` stands in for a COMPLETED time the file does not give.
    /// `madeUID` stands in for a UID the to-do does not have
    /// (`uid(forUnnamed:)`).
    func importTodo(_ todo: ICalComponent, overrides: [ICalComponent], now: Date, madeUID: String? = nil) throws(ICalError) -> ImportedTodo {
        let uidProperty = todo.property("UID")
        let uid: String
        if let uidProperty {
            uid = uidProperty.text.trimmingWhitespace()
            guard !uid.isEmpty, uid.count <= 255, !uid.unicodeScalars.contains(where: Validation.isControl) else {
                throw ICalError(line: uidProperty.line, "UID must be 1 to 255 characters without control characters")
            }
        } else {
            guard let madeUID else { throw ICalError(line: todo.line, "a VTODO without a UID") }
            uid = madeUID
        }
        var fields: [Field: [ICalProperty]] = [:]
        var others: [ICalProperty] = []
        var exportedState: String?
        for property in todo.properties where property.name != "UID" {
            if property.name == Self.exportedMarker {
                exportedState = property.value
            } else if let field = Field.allCases.first(where: { $0.property == property.name }),
               field != .parent || Self.isParentLink(property) {
                fields[field, default: []].append(property)
            } else {
                others.append(property)
            }
        }
        func value(_ field: Field) throws(ICalError) -> String? {
            try read(field, fields[field] ?? [])
        }
        var title = try value(.title) ?? ""
        if title.isEmpty { title = "Untitled" }
        do {
            title = try Validation.title(title)
        } catch {
            throw ICalError(line: fields[.title]?.first?.line ?? todo.line, "SUMMARY: \(error)")
        }
        var notes = try value(.notes) ?? ""
        do {
            notes = try Validation.notes(notes)
        } catch {
            throw ICalError(line: fields[.notes]?.first?.line ?? todo.line, "DESCRIPTION: \(error)")
        }
        let due = try value(.due).flatMap(DueDate.init)
        let priority = try value(.priority).flatMap(Priority.init(name:)) ?? .none
        let givesCompletedAt = fields[.completed] != nil
        let completedAtGiven = try value(.completed)
        let isCompleted = try value(.status) == "completed" || completedAtGiven != nil
        var version = TodoVersion()
        if let sequence = todo.property("SEQUENCE") {
            guard let number = Int(sequence.value.trimmingWhitespace()), number >= 0 else {
                throw ICalError(line: sequence.line, "SEQUENCE '\(ICalParser.clip(sequence.value))' is not a whole number")
            }
            version.sequence = number
        }
        if let modified = todo.property("LAST-MODIFIED") {
            version.lastModified = try moment(modified)
        }
        var completedAt: String?
        if isCompleted {
            let stamp = try todo.property("DTSTAMP").map { property throws(ICalError) in try moment(property) }
            completedAt = completedAtGiven ?? ICalendarTime.timestamp(version.lastModified ?? stamp ?? now, in: timeZone)
        }
        let rules = fields[.rule] ?? []
        var rule = rules.lazy.compactMap { self.rule($0) }.first
        let unfollowed = rule == nil && due != nil ? rules.first.map(ruleProblem) : nil
        // A rule repeats a due date; without one it is kept, not followed.
        if due == nil { rule = nil }
        let parentLink = fields[.parent]?.first
        let alarm = mappedAlarm(todo, due: due)
        let lead = alarm.flatMap { $0.lead > 0 ? $0.lead : nil }
        // A series moved off its occurrence, or the copy of one completed
        // so, names the occurrence.
        let repeatOf = try value(.repeatOf)
        let reminder = Reminder(
            id: Self.id(forUID: uid), remindersListID: "", title: title, notes: notes, dueDate: due,
            priority: priority, isFlagged: try value(.flag) == "true",
            status: isCompleted ? .completed : .incomplete, completedAt: completedAt, position: 0,
            parentID: parentLink.map { Self.id(forUID: $0.text) }, repeatRule: rule,
            repeatOf: repeatOf, alertBefore: lead,
            occurrence: rule == nil && repeatOf == nil ? nil : try value(.occurrence).flatMap(DueDate.init).flatMap { $0 == due ? nil : $0 })
        let tags = tags(fields[.tags] ?? [])
        let item = ExportedReminder(reminder: reminder, tags: tags.sorted { TagKey.of($0) < TagKey.of($1) }, parentUID: parentLink?.text,
                                    repeatOfUID: fields[.repeatOf]?.first?.text)

        // What is kept: the UID as written unless it is the id, each
        // modelled property written otherwise than export would, every
        // property the app does not model, and the components.
        var kept = ICalComponent("VTODO")
        if let uidProperty, uid != reminder.id { kept.properties.append(uidProperty.content) }
        for field in Field.allCases {
            let given = (fields[field] ?? []).map(\.content)
            guard !given.isEmpty else { continue }
            if field == .rule {
                // Rules the app cannot follow are kept as written; so is the one it follows, unless written so.
                let canonical = write(.rule, item).map(\.content)
                kept.properties += given.filter { self.rule($0) == nil || rule == nil || [$0] != canonical }
                continue
            }
            if given != write(field, item).map(\.content) { kept.properties += given }
        }
        kept.properties += others.map(\.content)
        for (index, component) in todo.components.enumerated() {
            if let alarm, index == alarm.index, alarm.lead > 0,
               component.content == Self.alarm(lead: alarm.lead, title: title).content { continue }
            kept.components.append(component.content)
        }
        kept.components += overrides.map(\.content)
        kept.renameTimeZones(zones.location(naming:))
        if let position = fields[.position]?.first, Int(position.value.trimmingWhitespace()) == nil {
            throw ICalError(line: position.line, "X-APPLE-SORT-ORDER '\(ICalParser.clip(position.value))' is not a whole number")
        }
        return ImportedTodo(
            uid: uid, reminder: reminder, tags: tags, parentUID: parentLink?.text, repeatOfUID: item.repeatOfUID,
            position: try value(.position).flatMap { Int($0) }, kept: kept, version: version,
            givesCompletedAt: givesCompletedAt, line: todo.line, unfollowedRule: unfollowed,
            isUneditedExport: exportedState.map { $0 == Self.exportedHash(todo, siblings: overrides) } ?? false)
    }

    /// The hash of a to-do as export wrote it, less its times and revision
    /// (which an export writes anew) and the marker that carries the hash
    /// (`exportedMarker`), with the VTODOs written after it.
    /// Hashed as parsed (names, parameters, values), not as text: no line
    /// is written or folded for it.
    static func exportedHash(_ todo: ICalComponent, siblings: [ICalComponent]) -> String {
        var hasher = SHA256()
        func feed(_ text: String) {
            var text = text
            text.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
            hasher.update(data: [0x1F])
        }
        func feed(_ component: ICalComponent) {
            feed(component.name)
            for property in component.properties where !versionProperties.contains(property.name) && property.name != exportedMarker {
                feed(property.name)
                for parameter in property.parameters {
                    feed(parameter.name)
                    for value in parameter.values { feed(value) }
                }
                feed(property.value)
            }
            for child in component.components { feed(child) }
            feed("END")
        }
        feed(todo)
        for sibling in siblings { feed(sibling) }
        return hexDigits(hasher.finalize().prefix(16))
    }

    /// The hash of a to-do's text as read (and of the VTODOs overriding
    /// its occurrences): equal hashes, the same file content.
    static func sourceHash(_ todo: ICalComponent, overrides: [ICalComponent]) -> String {
        var bytes: [UInt8] = []
        ICalWriter.write(todo.content, into: &bytes)
        for component in overrides { ICalWriter.write(component.content, into: &bytes) }
        return hexDigits(SHA256.hash(data: bytes).prefix(16))
    }

    // MARK: Export

    /// The VTODO for a reminder, followed by the VTODOs kept for its
    /// overridden occurrences. `exists` tells whether a reminder id is on
    /// this device (a kept parent link to one that is not stays).
    func exportTodo(_ item: ExportedReminder, kept: ICalComponent?, now: Date,
                    exists: (String) -> Bool) -> [ICalComponent] {
        let reminder = item.reminder
        let kept = kept ?? ICalComponent("VTODO")
        var fieldsKept: [Field: [ICalProperty]] = [:]
        var others: [ICalProperty] = []
        var version: [String: ICalProperty] = [:]
        var markers: [String: String] = [:]
        for property in kept.properties {
            if property.name == Self.sourceMarker || property.name == Self.stateMarker || property.name == Self.dueMarker {
                markers[property.name] = property.value
            } else if Self.versionProperties.contains(property.name) {
                version[property.name] = property
            } else if property.name != "UID", let field = Field.allCases.first(where: { $0.property == property.name }),
                      field != .parent || Self.isParentLink(property) {
                fieldsKept[field, default: []].append(property)
            } else if property.name != "UID" {
                others.append(property)
            }
        }
        let uid = kept.property("UID")?.text ?? reminder.id
        let unchanged = markers[Self.stateMarker] == fingerprint(item)
        let stamp = ICalendarTime.utcText(now)
        var todo = ICalComponent("VTODO")
        todo.properties.append(.text("UID", uid))
        todo.properties.append(unchanged ? version["DTSTAMP"] ?? ICalProperty("DTSTAMP", stamp) : ICalProperty("DTSTAMP", stamp))
        if unchanged, let modified = version["LAST-MODIFIED"] {
            todo.properties.append(modified)
        } else {
            todo.properties.append(ICalProperty("LAST-MODIFIED", stamp))
        }
        if let sequence = version["SEQUENCE"] {
            let number = Int(sequence.value) ?? 0
            todo.properties.append(unchanged ? sequence : ICalProperty("SEQUENCE", String(number + 1)))
        }
        for field in Field.allCases {
            let shadows = fieldsKept[field] ?? []
            switch field {
            case .rule:
                let followed = shadows.filter { self.rule($0) != nil }
                if !followed.isEmpty, followed.first.flatMap({ self.rule($0) }) == value(.rule, item) {
                    todo.properties += followed
                } else {
                    todo.properties += write(.rule, item)
                }
                // Rules the app cannot follow stay while it follows none
                // (all of them while there is no due date to repeat).
                if reminder.repeatRule == nil {
                    todo.properties += shadows.filter { self.rule($0) == nil || reminder.dueDate == nil }
                }
            case .parent:
                if reminder.parentID == nil {
                    // Links the import could not follow stay; one the user removed goes.
                    todo.properties += shadows.filter { !exists(Self.id(forUID: $0.text)) }
                } else if !shadows.isEmpty, (try? read(.parent, shadows)) == reminder.parentID {
                    todo.properties += shadows
                } else {
                    todo.properties += write(.parent, item)
                }
            default:
                if !shadows.isEmpty, (try? read(field, shadows)) == value(field, item) {
                    todo.properties += shadows
                } else {
                    todo.properties += write(field, item)
                }
            }
        }
        let importedDue = markers[Self.dueMarker].flatMap { DueDate($0) }
        for property in others {
            if property.name == "DTSTART", let importedDue, let due = reminder.dueDate, due != importedDue {
                todo.properties.append(Self.moved(property, by: Self.minutes(from: importedDue, to: due)))
                continue
            }
            if property.name == "PERCENT-COMPLETE" {
                // Kept while it agrees with the status.
                let percent = Int(property.value) ?? 0
                if reminder.isCompleted, percent != 100 { todo.properties.append(ICalProperty("PERCENT-COMPLETE", "100")); continue }
                if !reminder.isCompleted, percent == 100 { continue }
            }
            todo.properties.append(property)
        }
        var siblings: [ICalComponent] = []
        let due = reminder.dueDate
        let mapped = mappedAlarm(kept, due: due)
        let wantedLead = reminder.alertBefore ?? 0
        for (index, component) in kept.components.enumerated() {
            if component.name == "VTODO" { siblings.append(component); continue }
            if let mapped, index == mapped.index, mapped.lead != wantedLead { continue }
            todo.components.append(component)
        }
        if (mapped?.lead ?? 0) != wantedLead, wantedLead > 0 {
            todo.components.append(Self.alarm(lead: wantedLead, title: reminder.title))
        }
        todo.properties.append(ICalProperty(Self.exportedMarker, Self.exportedHash(todo, siblings: siblings)))
        return [todo] + siblings
    }
}

extension TodoMapping {
    /// How far a due date moved, in minutes: by the clock when both have a
    /// time, else by whole days.
    static func minutes(from old: DueDate, to new: DueDate) -> Int {
        let days = new.dayNumber - old.dayNumber
        guard let before = old.time, let after = new.time else { return days * 1440 }
        return days * 1440 + (after.hour * 60 + after.minute) - (before.hour * 60 + before.minute)
    }

    /// A DTSTART moved by `minutes` (a DATE by the whole days in them), its
    /// parameters (TZID, VALUE) and form kept; as it was when it does not read.
    static func moved(_ start: ICalProperty, by minutes: Int) -> ICalProperty {
        guard let value = try? ICalDateTime(parsing: start.value),
              let day = DueDate(year: value.year, month: value.month, day: value.day) else { return start }
        let startMinute = (value.hour ?? 0) * 60 + value.minute
        let total = day.dayNumber * 1440 + startMinute + (value.isDate ? minutes - minutes % 1440 : minutes)
        let (dayNumber, minuteOfDay) = (total / 1440, total % 1440)
        guard let date = RepeatRule.date(dayNumber: dayNumber, time: nil) else { return start }
        let shifted = ICalDateTime(year: date.year, month: date.month, day: date.day,
                                   hour: value.isDate ? nil : minuteOfDay / 60, minute: value.isDate ? 0 : minuteOfDay % 60,
                                   second: value.second, isUTC: value.isUTC)
        var property = start.content
        property.value = shifted.description
        return property
    }
}

extension ICalComponent {
    /// Its properties' TZID parameters, and its components', renamed where
    /// `rename` gives a name.
    mutating func renameTimeZones(_ rename: (String) -> String?) {
        for index in properties.indices {
            for parameter in properties[index].parameters.indices where properties[index].parameters[parameter].name == "TZID" {
                let values = properties[index].parameters[parameter].values
                properties[index].parameters[parameter].values = values.map { rename($0) ?? $0 }
            }
        }
        for index in components.indices { components[index].renameTimeZones(rename) }
    }

    /// The component without source lines, for comparing content.
    var content: ICalComponent {
        ICalComponent(name, properties: properties.map(\.content), components: components.map(\.content))
    }
}
