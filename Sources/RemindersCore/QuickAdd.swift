import Foundation

/// A reminder typed on one line, "Pay rent tomorrow 9am #bills !! ^Home",
/// read into its parts: the title, a due date (`NaturalDate`), `#tags`,
/// a priority (`!` low, `!!` medium, `!!!` high, the marks rows show),
/// `^List` (the list, by title) and `*` (flagged). Each mark is a word of
/// its own, anywhere in the text; what is left is the title.
///
/// A repeat is read before the date: "every …" anywhere ("Mow lawn every
/// monday", "Pills every day 8am"), or "daily", "weekly", "monthly",
/// "yearly" after the first word and at the end or before the date
/// ("Stretch daily 7am"; "Daily standup" and "Submit monthly report" keep
/// their words), or a weekday in the plural after "on" or before the date
/// ("Swim on wednesdays", "Standup mondays at 9"; "Garfield hates mondays"
/// keeps its words), the longest run from there that reads as a rule
/// (`RepeatRule(parsing:)`, "every 2 weeks on mon,thu until dec 31"). A
/// time alone beside it is that time on the rule's first day from the next
/// time it comes, as is a part of a day just after it ("Bins every thursday
/// night").
///
/// The due date is the longest run of words that reads as one at the end
/// of what is left ("Call Sun" is due on Sunday), with a "by", "due" or
/// "before" just before it ("Taxes by apr 15" is "Taxes"). At the start or in the
/// middle, only a run that cannot be part of a title is taken: two words
/// or more ("Dentist fri 10am bring x-ray"), or a word that is a date by
/// itself (`tomorrow`, `+3d`, `2026-12-01`); "Sun cream" keeps its sun.
/// In the middle it is taken only when there is one such run. The title
/// always keeps a word: "Friday" alone is a title.
///
/// Pure: the lists are given as titles, and the caller resolves the name.
public struct QuickAdd: Equatable, Sendable {
    /// What is left of the text: the words that are not marks or the date.
    public var title: String
    public var due: DueDate?
    /// Tag titles, in the order typed, without the `#`.
    public var tags: [String]
    /// Nil when the text has no priority mark.
    public var priority: Priority?
    /// The list's title as given with `^` (as `listTitles` spells it when
    /// one matched), nil when the text names none.
    public var listName: String?
    public var isFlagged: Bool
    /// The repeat the text names, nil when none.
    public var repeatRule: RepeatRule?

    /// The longest date phrase tried, in words.
    static let longestPhrase = 7
    /// The longest repeat phrase tried, in words ("every 2 weeks on mon,thu
    /// until dec 31 after completion").
    static let longestRepeat = 10
    /// Words that lead into a due date in a title ("by fri", "due mon"),
    /// taken out with it; "at" and "on" are the date's own words.
    static let dateLeads: Set<String> = ["by", "due", "before"]
    /// Words that start a repeat after a line's first word.
    static let repeatWords = Set(["daily", "weekly", "fortnightly", "weekdays", "monthly", "quarterly", "yearly"])
        .union(pluralWeekdays)
    static let pluralWeekdays: Set<String> = ["mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "sundays"]

    /// The text as a title, with nothing read out of it.
    public init(literal text: String) {
        title = text
        due = nil
        tags = []
        priority = nil
        listName = nil
        isFlagged = false
        repeatRule = nil
    }

    /// Reads the text.
    /// - Parameters:
    ///   - dates: reads the due date ("now", time zone, day/month order).
    ///   - listTitles: the lists there are, so that `^Work Projects` is
    ///     the list "Work Projects" rather than "Work" and a title word.
    ///   - readingRepeats: false when the repeat is given otherwise (an
    ///     option): repeat words then stay in the title.
    ///   - readingDates: false when the due date is given otherwise (an
    ///     option): a date in the text then stays in the title ("Test sat"
    ///     due Monday).
    public init(parsing text: String, dates: NaturalDate, listTitles: [String] = [],
                readingRepeats: Bool = true, readingDates: Bool = true) throws(QuickAddError) {
        let whole: String
        do {
            whole = try Validation.title(text)
        } catch {
            throw .invalidTitle(String(describing: error))
        }
        self.init(literal: whole)
        var words = whole.split(whereSeparator: \.isWhitespace).map(String.init)
        var priorityMark: String?
        var listMark: String?
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "*" {
                isFlagged = true
            } else if !word.isEmpty, word.count <= 3, word.allSatisfy({ $0 == "!" }) {
                let mark = Priority(rawValue: word.count) ?? .none
                if let priorityMark, priority != mark { throw .twoPriorities(priorityMark, word) }
                priority = mark
                priorityMark = word
            } else if word.hasPrefix("#"), word.dropFirst().first?.isLetter == true {
                let tag: String
                do {
                    tag = try Validation.tag(String(word.trimmingSuffix { ",.;:".contains($0) }))
                } catch {
                    throw .badTag(word, String(describing: error))
                }
                if !tags.contains(where: { TagKey.of($0) == TagKey.of(tag) }) { tags.append(tag) }
            } else if word.hasPrefix("^"), let first = word.dropFirst().first, first.isLetter || first.isNumber {
                let (name, used) = Self.listName(words, at: index, titles: listTitles)
                if let listName, listName.lowercased() != name.lowercased(), let listMark {
                    throw .twoLists(listMark, word)
                }
                listName = name
                listMark = word
                words.removeSubrange(index..<index + used)
                continue
            } else {
                index += 1
                continue
            }
            words.remove(at: index)
        }
        // Just after the repeat, a part of a day ("Bins every thursday
        // night", "every sunday evening at 7") or, ending the line, an hour
        // ("Gym every tuesday 9") is its time.
        var repeatTime: (time: (hour: Int, minute: Int), evening: Bool)?
        if readingRepeats, let (range, rule) = Self.repeatPhrase(in: words, dates: dates) {
            repeatRule = rule
            let next = range.upperBound < words.count ? words[range.upperBound] : nil
            if let next, let dayPart = NaturalDate.dayPart(next) {
                repeatTime = dayPart
                words.removeSubrange(range.lowerBound..<range.upperBound + 1)
            } else if let next, range.upperBound == words.count - 1, let time = try? dates.time(next) {
                repeatTime = (time, false)
                words.removeSubrange(range.lowerBound..<range.upperBound + 1)
            } else {
                words.removeSubrange(range)
            }
        }
        if readingDates, let (range, due) = Self.datePhrase(in: words, dates: dates),
           // "every monday" alone is a title, not "every" due Monday.
           range.lowerBound == 0 || words[range.lowerBound - 1].lowercased() != "every" {
            self.due = due
            if let repeatRule, var time = try? dates.time(words[range].joined(separator: " ")) {
                // "evening at 7" is 19:00.
                if repeatTime?.evening == true, time.hour < 12 { time.hour += 12 }
                // The time's next day (today, or tomorrow once it has passed), then the rule's.
                self.due = dates.due(of: repeatRule, at: time, on: nil)
            } else if let repeatTime, !due.hasTime {
                self.due = due.at(repeatTime.time)
            }
            // "Taxes by apr 15": the word that leads into the date goes with it.
            let leads = range.lowerBound > 1 && Self.dateLeads.contains(words[range.lowerBound - 1].lowercased())
            words.removeSubrange(leads ? range.lowerBound - 1..<range.upperBound : range)
        }
        if due == nil, let repeatRule, let repeatTime {
            due = dates.due(of: repeatRule, at: repeatTime.time, on: nil)
        }
        // A date written as one (2026-02-30) that is none is a mistake, not
        // a title word: said, as --due says it.
        if readingDates, due == nil, let word = words.first(where: Self.isWrittenAsADate) {
            do throws(NaturalDateError) {
                _ = try dates.parse(word)
            } catch {
                throw .badDate(String(describing: error))
            }
        }
        guard hasMarks else { return }
        title = words.joined(separator: " ")
        guard !title.isEmpty else { throw .noTitle(whole) }
    }

    /// The list `^` named, found among `lists` by title, ignoring case
    /// (`^home` is "Home"); nil when the text names none.
    public func list(in lists: [RemindersList]) throws(QuickAddError) -> RemindersList? {
        guard let listName else { return nil }
        let matches = lists.filter { $0.title.lowercased() == listName.lowercased() }
        guard let match = matches.first else { throw .noSuchList(listName) }
        guard matches.count == 1 else { throw .ambiguousList(listName, ids: matches.map(\.id)) }
        return match
    }

    /// `2026-02-30`, `2026-2-3T09:00`: digits in a date's shape.
    static func isWrittenAsADate(_ word: String) -> Bool {
        let day = word.split(separator: "T", maxSplits: 1).first.map(String.init) ?? word
        let parts = day.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0].count == 4 && parts.allSatisfy { (1...4).contains($0.count) && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// Whether the text held anything besides the title.
    public var hasMarks: Bool {
        due != nil || !tags.isEmpty || priority != nil || listName != nil || isFlagged || repeatRule != nil
    }

    /// Where a repeat is among the words, as the type's comment says; a
    /// word is always left for the title.
    private static func repeatPhrase(in words: [String], dates: NaturalDate) -> (Range<Int>, RepeatRule)? {
        for start in words.indices {
            let word = words[start].lowercased()
            let isEvery = word == "every"
            guard isEvery || (start > 0 && repeatWords.contains(word)) else { continue }
            // A weekday in the plural repeats after "on" ("Swim on
            // wednesdays", which takes the "on") or before the date
            // ("Standup mondays at 9"), not alone ("Garfield hates mondays").
            let isPluralDay = pluralWeekdays.contains(word)
            let afterOn = isPluralDay && start > 1 && words[start - 1].lowercased() == "on"
            for end in stride(from: min(words.count, start + longestRepeat), to: start, by: -1)
            where end - start < words.count {
                // "Submit monthly report" keeps its words: a bare frequency
                // is a repeat only at the end, or before the date.
                let beforeADate = end < words.count && dates.date(words: Array(words[end...]), endingTheText: true) != nil
                if !isEvery, end < words.count, !beforeADate { continue }
                if isPluralDay, !afterOn, !beforeADate { continue }
                let phrase = words[start..<end].joined(separator: " ")
                if let rule = try? RepeatRule(parsing: phrase, untilDate: { try? dates.parse($0) }) {
                    return ((afterOn ? start - 1 : start)..<end, rule)
                }
            }
        }
        return nil
    }

    /// The list `^` names at `index`: the longest run of words from there
    /// that is a list's title, else the one word.
    private static func listName(_ words: [String], at index: Int, titles: [String]) -> (String, Int) {
        let first = String(words[index].dropFirst())
        let known = Dictionary(titles.map { ($0.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        for count in stride(from: min(words.count - index, 8), through: 1, by: -1) {
            let name = ([first] + words[index + 1..<index + count]).joined(separator: " ")
            if let title = known[name.lowercased()] { return (title, count) }
        }
        return (first, 1)
    }

    /// Where the due date is among the words, as the type's comment says.
    private static func datePhrase(in words: [String], dates: NaturalDate) -> (Range<Int>, DueDate)? {
        let count = words.count
        guard count > 1 else { return nil }
        let longest = min(longestPhrase, count - 1)
        func date(_ range: Range<Int>) -> DueDate? { dates.date(words: Array(words[range])) }
        // Words that cannot be a title's, or a phrase of several; but "Fri
        // night drinks" and "Sunday morning run" keep theirs.
        func unmistakable(_ range: Range<Int>) -> Bool {
            NaturalDate.standsAlone(words[range.lowerBound])
                || (range.count > 1 && NaturalDate.dayPart(words[range.upperBound - 1]) == nil)
        }

        for length in stride(from: longest, through: 1, by: -1) {
            let range = count - length..<count
            if let due = dates.date(words: Array(words[range]), endingTheText: true) { return (range, due) }
        }
        for length in stride(from: longest, through: 1, by: -1) {
            let range = 0..<length
            if unmistakable(range), let due = date(range) { return (range, due) }
        }
        var found: [(Range<Int>, DueDate)] = []
        var start = 1
        while start < count - 1 {
            let match = stride(from: min(longest, count - 1 - start), through: 1, by: -1).lazy
                .map { start..<start + $0 }
                .compactMap { range in unmistakable(range) ? date(range).map { (range, $0) } : nil }
                .first
            if let match {
                found.append(match)
                start = match.0.upperBound
            } else {
                start += 1
            }
        }
        return found.count == 1 ? found[0] : nil
    }
}

private extension String {
    func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}

/// Why a quick-add line cannot be read; one line for people.
public enum QuickAddError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not a title at all (empty, too long, control characters).
    case invalidTitle(String)
    /// Nothing is left for the title once the marks and date are read.
    case noTitle(String)
    case twoPriorities(String, String)
    case twoLists(String, String)
    case badTag(String, String)
    /// A word written as a date that is none (`2026-02-30`).
    case badDate(String)
    /// `^Name`, and no list has that title.
    case noSuchList(String)
    /// `^Name`, and several lists have that title.
    case ambiguousList(String, ids: [String])

    public var description: String {
        switch self {
        case .invalidTitle(let message): message
        case .noTitle(let text): "'\(text)' leaves no title once the date, #tags, !priority, ^list and * are read"
        case .twoPriorities(let first, let second): "two priorities, '\(first)' and '\(second)': keep one"
        case .twoLists(let first, let second): "two lists, '\(first)' and '\(second)': keep one"
        case .badTag(let word, let message): "'\(word)': \(message)"
        case .badDate(let message): message
        case .noSuchList(let name): "no list is titled '\(name)' (from ^\(name))"
        case .ambiguousList(let name, let ids):
            "more than one list is titled '\(name)' (\(ids.map { String($0.prefix(8)) }.joined(separator: ", ")))"
        }
    }
}
