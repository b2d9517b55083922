import Crypto
import Foundation
import ICalendar

/// A VTODO in the app's terms, and back.
///
/// Import reads each field the app models from its properties. What the app
/// does not model (X- properties, ATTACH, GEO, other alarms, parameters) is
/// kept in the reminder's `icalendar` column as the text of a VTODO, and it
/// syncs with the reminder. A modelled property whose text differs from
/// what export would write (`PRIORITY:2`, `STATUS:CANCELLED`, a UTC due
/// time) is kept there too, as it was written: export writes it back
/// unchanged while it still means the reminder's value, and the app's own
/// form once the reminder has changed. So exporting an imported file gives
/// back every property it had.
struct TodoMapping {
    /// The device's time zone: due dates are its wall clock.
    var timeZone: TimeZone
    /// Time zones the file defines (VTIMEZONE), by TZID.
    var zones: TimeZones

    /// The fields the app models and the properties that carry them.
    enum Field: CaseIterable {
        case title, notes, due, priority, status, completed, tags, rule, parent, position, flag, repeatOf, occurrence

        var property: String {
            switch self {
            case .title: "SUMMARY"
            case .notes: "DESCRIPTION"
            case .due: "DUE"
            case .priority: "PRIORITY"
            case .status: "STATUS"
            case .completed: "COMPLETED"
            case .tags: "CATEGORIES"
            case .rule: "RRULE"
            case .parent: "RELATED-TO"
            case .position: "X-APPLE-SORT-ORDER"
            case .flag: "X-REMINDERS-FLAGGED"
            case .repeatOf: "X-REMINDERS-REPEAT-OF"
            case .occurrence: "X-REMINDERS-OCCURRENCE"
            }
        }
    }

    /// Properties export writes from the record of the import alone: the
    /// times and revision of the version imported.
    static let versionProperties: Set<String> = ["DTSTAMP", "LAST-MODIFIED", "SEQUENCE"]
    /// The app's own bookkeeping in the kept text, never exported: the
    /// hash of the VTODO imported and the fingerprint of the reminder it
    /// became, which tell whether either changed since.
    static let sourceMarker = "X-REMINDERS-IMPORTED-SOURCE"
    static let stateMarker = "X-REMINDERS-IMPORTED-STATE"
    /// Written by export: the hash of the to-do as written, less its times
    /// (`exportedHash`). A to-do read back that still hashes so is this
    /// app's own export, unedited since (any property, kept ones too): it
    /// says nothing newer than the reminder had then, and what changed
    /// here since stays. Never kept.
    static let exportedMarker = "X-REMINDERS-EXPORTED-STATE"
    /// The due date a to-do with a DTSTART was imported with, kept beside
    /// it: export moves the start as the due date moved since (a series
    /// completed, a date put off), so that the two keep their distance and
    /// the start never stays behind on an occurrence done (RFC 5545 counts
    /// a repeating to-do's occurrences from its DTSTART).
    static let dueMarker = "X-REMINDERS-IMPORTED-DUE"
    /// The `RRULE` parameter for "after completion", a rule part RFC 5545
    /// does not have.
    static let fromCompletionParameter = "X-REMINDERS-FROM"

    // MARK: Reading

    /// The value of `field` the properties give, as a comparable string
    /// (nil: not given); a RELATED-TO or series UID reads as its id.
    func read(_ field: Field, _ properties: [ICalProperty]) throws(ICalError) -> String? {
        switch field {
        case .title:
            return properties.first.map { $0.text.trimmingWhitespaceAndNewlines() }
        case .notes:
            return properties.first.map { $0.text.replacingOccurrences(of: "\r\n", with: "\n") }
        case .due, .occurrence:
            guard let property = properties.first else { return nil }
            return try due(property).description
        case .priority:
            guard let property = properties.first else { return nil }
            guard let value = Int(property.value.trimmingWhitespace()), (0...9).contains(value) else {
                throw ICalError(line: property.line, "PRIORITY '\(ICalParser.clip(property.value))' is not a number from 0 to 9")
            }
            let priority = Self.priority(value)
            return priority == .none ? nil : priority.name
        case .status:
            guard let property = properties.first else { return nil }
            return ["COMPLETED", "CANCELLED"].contains(property.value.uppercased()) ? "completed" : "incomplete"
        case .completed:
            guard let property = properties.first else { return nil }
            return ICalendarTime.timestamp(try moment(property), in: timeZone)
        case .tags:
            let keys = tags(properties).map { TagKey.of($0) }
            return keys.isEmpty ? nil : keys.sorted().joined(separator: ",")
        case .rule:
            return properties.lazy.compactMap { self.rule($0) }.first
        case .parent:
            return properties.first { Self.isParentLink($0) }.map { Self.id(forUID: $0.text) }
        case .position:
            return properties.first.flatMap { Int($0.value.trimmingWhitespace()) }.map(String.init)
        case .flag:
            return properties.first.map { $0.value.uppercased() == "TRUE" ? "true" : "false" }
        case .repeatOf:
            return properties.first.map { Self.id(forUID: $0.text) }
        }
    }

    /// The due date of a DUE property, on this device's wall clock.
    func due(_ property: ICalProperty) throws(ICalError) -> DueDate {
        let value = try dateTime(property)
        if value.isDate {
            guard let date = DueDate(year: value.year, month: value.month, day: value.day) else {
                throw ICalError(line: property.line, "\(property.name) \(value) is outside the years \(DueDate.years)")
            }
            return date
        }
        if !value.isUTC, property.parameter("TZID") == nil {
            guard let date = DueDate(year: value.year, month: value.month, day: value.day,
                                     hour: value.hour, minute: value.minute) else {
                throw ICalError(line: property.line, "\(property.name) \(value) is outside the years \(DueDate.years)")
            }
            return date
        }
        let date = DueDate(moment: try moment(property), in: timeZone)
        guard DueDate.years.contains(date.year) else {
            throw ICalError(line: property.line, "\(property.name) \(value) is outside the years \(DueDate.years)")
        }
        return date
    }

    /// A DATE or DATE-TIME value, checked.
    func dateTime(_ property: ICalProperty) throws(ICalError) -> ICalDateTime {
        do {
            return try ICalDateTime(parsing: property.value.trimmingWhitespace())
        } catch {
            throw ICalError(line: property.line, "\(property.name): \(error.message)")
        }
    }

    /// The moment a DATE-TIME names: UTC, in its TZID, or floating (on
    /// this device's clock). A DATE is its midnight here.
    func moment(_ property: ICalProperty) throws(ICalError) -> Date {
        let value = try dateTime(property)
        var zone = timeZone
        if value.isUTC {
            zone = ICalendarTime.utc
        } else if let tzid = property.parameter("TZID") {
            guard let named = zones.zone(tzid) else {
                throw ICalError(line: property.line, "unknown time zone '\(ICalParser.clip(tzid))' in \(property.name)")
            }
            zone = named
        }
        return ICalendarTime.moment(value, in: zone)
    }

    /// PRIORITY's bands: 1-4 high, 5 medium, 6-9 low, 0 none (RFC 5545).
    static func priority(_ value: Int) -> Priority {
        switch value {
        case 1...4: .high
        case 5: .medium
        case 6...9: .low
        default: .none
        }
    }

    /// The tags of CATEGORIES properties: each value that is a valid tag,
    /// first spelling of each key.
    func tags(_ properties: [ICalProperty]) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for property in properties {
            for value in ICalText.list(property.value) {
                guard let tag = try? Validation.tag(value), seen.insert(TagKey.of(tag)).inserted else { continue }
                result.append(tag)
            }
        }
        return result
    }

    /// An RRULE the app can follow, as its canonical text; nil for a rule
    /// it cannot (kept as it was written, and exported so).
    func rule(_ property: ICalProperty) -> String? {
        try? RepeatRule(rrule: Self.ruleText(property)).rrule
    }

    /// Why an RRULE is one the app cannot follow ("FREQ=SOMETIMES is not a
    /// frequency…", "BYSETPOS is not supported…").
    func ruleProblem(_ property: ICalProperty) -> String {
        do throws(RepeatRuleError) {
            _ = try RepeatRule(rrule: Self.ruleText(property))
            return "it reads, yet not as a repeat"
        } catch {
            return error.message
        }
    }

    /// An RRULE's value, with "after completion" from its parameter.
    private static func ruleText(_ property: ICalProperty) -> String {
        var text = property.value
        if property.parameter(fromCompletionParameter)?.uppercased() == "COMPLETION" { text += ";FROM=COMPLETION" }
        return text
    }

    /// RELATED-TO names a parent when its RELTYPE is PARENT or absent.
    static func isParentLink(_ property: ICalProperty) -> Bool {
        (property.parameter("RELTYPE")?.uppercased() ?? "PARENT") == "PARENT"
    }

    /// The reminder id of an iCalendar UID: the UID itself when it is a
    /// UUID (lower-cased, the form of every id here), otherwise an id
    /// derived from it, so that every device importing the same file gives
    /// the reminder the same id.
    static func id(forUID uid: String) -> String {
        let trimmed = uid.trimmingWhitespace()
        if isUUID(trimmed) { return trimmed.lowercased() }
        // Foundation reads a few more spellings as a UUID (its `sscanf`
        // skips spaces): they keep the ids they always had.
        if let uuid = UUID(uuidString: trimmed) { return uuid.uuidString.lowercased() }
        return derivedID("icalendar-uid", trimmed)
    }

    /// Whether `text` is a UUID written as 8-4-4-4-12 hex digits in either
    /// case, checked without `UUID(uuidString:)`'s trip through `sscanf`.
    static func isUUID(_ text: String) -> Bool {
        guard text.utf8.count == 36 else { return false }
        for (offset, byte) in text.utf8.enumerated() {
            switch offset {
            case 8, 13, 18, 23: guard byte == UInt8(ascii: "-") else { return false }
            default:
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                     UInt8(ascii: "A")...UInt8(ascii: "F"): continue
                default: return false
                }
            }
        }
        return true
    }

    /// The lead of the first alarm that reads as "so long before the due
    /// time": a TRIGGER duration of zero or less relative to the due date
    /// (RELATED=END, or no RELATED in a to-do without DTSTART), or a
    /// DATE-TIME trigger at or before a timed due date. nil for none such;
    /// "0" reads as at the due time.
    func alarmLead(_ alarm: ICalComponent, todo: ICalComponent, due: DueDate?) -> Int? {
        guard let action = alarm.property("ACTION")?.value.uppercased(), action == "DISPLAY" || action == "AUDIO",
              let trigger = alarm.property("TRIGGER") else { return nil }
        if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" {
            guard let due, due.hasTime, let at = try? moment(trigger), let dueMoment = due.moment(in: timeZone) else { return nil }
            let lead = Int(dueMoment.timeIntervalSince(at).rounded())
            return (0...AlertBefore.maximumSeconds).contains(lead) ? lead : nil
        }
        let related = trigger.parameter("RELATED")?.uppercased() ?? (todo.property("DTSTART") == nil ? "END" : "START")
        guard related == "END", let duration = try? ICalDuration(parsing: trigger.value.trimmingWhitespace()),
              duration.totalSeconds <= 0 else { return nil }
        let lead = -duration.totalSeconds
        return lead <= AlertBefore.maximumSeconds ? lead : nil
    }

    /// The first alarm that maps to a lead, and its lead ("at the due
    /// time" as 0).
    func mappedAlarm(_ todo: ICalComponent, due: DueDate?) -> (index: Int, lead: Int)? {
        for (index, alarm) in todo.components.enumerated() where alarm.name == "VALARM" {
            if let lead = alarmLead(alarm, todo: todo, due: due) { return (index, lead) }
        }
        return nil
    }

    // MARK: Writing

    /// The properties export writes for `field` from the reminder.
    func write(_ field: Field, _ item: ExportedReminder) -> [ICalProperty] {
        let reminder = item.reminder
        switch field {
        case .title:
            return [.text("SUMMARY", reminder.title)]
        case .notes:
            return reminder.notes.isEmpty ? [] : [.text("DESCRIPTION", reminder.notes)]
        case .due:
            guard let due = reminder.dueDate else { return [] }
            return [Self.dueProperty(due)]
        case .priority:
            switch reminder.priority {
            case .none: return []
            case .high: return [ICalProperty("PRIORITY", "1")]
            case .medium: return [ICalProperty("PRIORITY", "5")]
            case .low: return [ICalProperty("PRIORITY", "9")]
            }
        case .status:
            return [ICalProperty("STATUS", reminder.isCompleted ? "COMPLETED" : "NEEDS-ACTION")]
        case .completed:
            guard reminder.isCompleted, let at = reminder.completedAt.flatMap({ ICalendarTime.moment(timestamp: $0, in: timeZone) }) else {
                return []
            }
            return [ICalProperty("COMPLETED", ICalendarTime.utcText(at))]
        case .tags:
            guard !item.tags.isEmpty else { return [] }
            return [ICalProperty("CATEGORIES", item.tags.map(ICalText.escape).joined(separator: ","))]
        case .rule:
            guard let text = reminder.repeatRule, let rule = try? RepeatRule(rrule: text) else { return [] }
            var plain = rule
            plain.fromCompletion = false
            return [ICalProperty("RRULE", plain.rrule, parameters: rule.fromCompletion
                                 ? [ICalParameter(Self.fromCompletionParameter, "COMPLETION")] : [])]
        case .parent:
            guard let uid = item.parentUID else { return [] }
            return [.text("RELATED-TO", uid, parameters: [ICalParameter("RELTYPE", "PARENT")])]
        case .position:
            return [ICalProperty("X-APPLE-SORT-ORDER", String(reminder.position))]
        case .flag:
            return reminder.isFlagged ? [ICalProperty("X-REMINDERS-FLAGGED", "TRUE")] : []
        case .repeatOf:
            guard let uid = item.repeatOfUID else { return [] }
            return [.text("X-REMINDERS-REPEAT-OF", uid)]
        case .occurrence:
            guard value(.occurrence, item) != nil, let occurrence = reminder.occurrence else { return [] }
            return [Self.dueProperty(occurrence, name: field.property)]
        }
    }

    /// The reminder's value of `field`, in the form `read` returns.
    func value(_ field: Field, _ item: ExportedReminder) -> String? {
        let reminder = item.reminder
        switch field {
        case .title: return reminder.title
        case .notes: return reminder.notes.isEmpty ? nil : reminder.notes
        case .due: return reminder.dueDate?.description
        case .priority: return reminder.priority == .none ? nil : reminder.priority.name
        case .status: return reminder.isCompleted ? "completed" : "incomplete"
        case .completed: return reminder.isCompleted ? reminder.completedAt : nil
        case .tags:
            let keys = item.tags.map { TagKey.of($0) }
            return keys.isEmpty ? nil : keys.sorted().joined(separator: ",")
        case .rule: return reminder.repeatRule.flatMap { try? RepeatRule(rrule: $0).rrule }
        case .parent: return reminder.parentID
        case .position: return String(reminder.position)
        case .flag: return reminder.isFlagged ? "true" : nil
        case .repeatOf: return reminder.repeatOf
        case .occurrence: return reminder.repeatRule != nil || reminder.repeatOf != nil ? reminder.occurrence?.description : nil
        }
    }

    /// `DUE;VALUE=DATE:20261124`, or a floating `DUE:20261124T090000`
    /// (under another `name`, a date of the same form).
    static func dueProperty(_ due: DueDate, name: String = "DUE") -> ICalProperty {
        if let time = due.time {
            let value = ICalDateTime(year: due.year, month: due.month, day: due.day, hour: time.hour, minute: time.minute)
            return ICalProperty(name, value.description)
        }
        let value = ICalDateTime(year: due.year, month: due.month, day: due.day)
        return ICalProperty(name, value.description, parameters: [ICalParameter("VALUE", "DATE")])
    }

    /// The alarm export writes for a lead: a display alarm so long before
    /// the due date.
    static func alarm(lead: Int, title: String) -> ICalComponent {
        ICalComponent("VALARM", properties: [
            ICalProperty("ACTION", "DISPLAY"),
            .text("DESCRIPTION", title),
            ICalProperty("TRIGGER", ICalDuration(isNegative: lead > 0, days: lead / 86_400, seconds: lead % 86_400).description,
                         parameters: [ICalParameter("RELATED", "END")]),
        ])
    }

    /// A fingerprint of what a reminder says, the fields export writes from
    /// it: equal fingerprints, equal to-dos.
    static func fingerprint(_ fields: [String?]) -> String {
        let text = fields.map { $0.map { "+" + $0 } ?? "-" }.joined(separator: "\u{1F}")
        return hexDigits(SHA256.hash(data: Data(text.utf8)).prefix(16))
    }

    func fingerprint(_ item: ExportedReminder) -> String {
        // The occurrence last, and only when there is one: a reminder never
        // moved keeps the fingerprint it had before occurrences were written.
        let occurrence = value(.occurrence, item).map { [$0] } ?? []
        return Self.fingerprint(Field.allCases.filter { $0 != .position && $0 != .occurrence }.map { value($0, item) }
                                + [item.reminder.alertBefore.map(String.init)] + occurrence)
    }
}

/// A reminder as export writes it, with what its to-do names besides it.
struct ExportedReminder {
    var reminder: Reminder
    /// Tag titles as shown, sorted by key.
    var tags: [String]
    /// The UIDs of its parent and series, if any.
    var parentUID: String?
    var repeatOfUID: String?
}
