import Foundation
@testable import RemindersTUI
import RemindersCore
import RemindersViewModels
import Synchronization
import TestSupport

/// One recorded session: from a starting place and size, a seeded random
/// sequence of input played into the off-screen app, every frame kept. The
/// seed, the place and the size decide the input, so a run replays
/// exactly, whatever the app does.
struct RecordingRun: Sendable, CustomStringConvertible {
    var seed: UInt64
    var entry: Entry
    var width: Int
    var height: Int
    var colorMode: ColorMode
    var steps: Int

    /// Where a run starts its random part: a few keys from Home, so that
    /// every screen gets its share of random input.
    enum Entry: String, Sendable {
        case home, personalList, workSharing, search, newReminder, editList, tags, allList

        var keys: [Key] {
            let down = Key.character("j")
            return switch self {
            case .home: []
            case .personalList: Array(repeating: down, count: 5) + [.enter]
            case .workSharing: Array(repeating: down, count: 6) + [.character("S")]
            case .search: [.character("/"), .character("r"), .character("e")]
            case .newReminder: Array(repeating: down, count: 6) + [.enter, .character("a")]
            case .editList: Array(repeating: down, count: 5) + [.character("e")]
            case .tags: [.character("t")]
            case .allList: [down, down, .enter]
            }
        }
    }

    /// The recording's file name, without its extension.
    var name: String { "seed-\(String(seed, radix: 16))-\(width)x\(height)" }

    var description: String {
        "seed 0x\(String(seed, radix: 16)) from \(entry), \(width)x\(height) at the start, \(colorMode), \(steps) steps"
    }

    /// Every run of the recording: each seed from each starting size. The
    /// seeds take turns at the places and the color modes, so that every
    /// screen and every theme is drawn.
    static let all: [RecordingRun] = {
        let seeds: [(UInt64, Entry, ColorMode)] = [
            (0x5EED_0001, .home, .indexed256), (0x5EED_0002, .personalList, .indexed256),
            (0x5EED_0003, .workSharing, .direct), (0x5EED_0004, .search, .basic(16)),
            (0x5EED_0005, .newReminder, .monochrome), (0x5EED_0006, .editList, .indexed256),
            (0x5EED_0007, .tags, .direct), (0x5EED_0008, .allList, .indexed256),
        ]
        let sizes = [(80, 24), (100, 30), (60, 20)]
        return seeds.flatMap { seed, entry, mode in
            sizes.map { RecordingRun(seed: seed, entry: entry, width: $0.0, height: $0.1, colorMode: mode, steps: 150) }
        }
    }()

    /// The run's input: the keys to its place (on a usable size, when it
    /// starts too small), then the random part.
    var inputs: [RecordedInput] {
        var inputs = entry.keys.map(RecordedInput.key)
        if RecordedInput.isTooSmall((width, height)), !inputs.isEmpty {
            inputs = [.resize(width: 80, height: 24)] + inputs + [.resize(width: width, height: height)]
        }
        let random = RecordedInput.sequence(seed: seed, count: max(0, steps - inputs.count), home: (width, height))
        return inputs + random
    }
}

/// What the recorder feeds the app between two frames.
enum RecordedInput: Equatable {
    case key(Key)
    /// Moves the toast clock and the completion timer on.
    case wait(seconds: Int)
    case resize(width: Int, height: Int)

    var label: String {
        switch self {
        case .key(let key): "key \(key)"
        case .wait(let seconds): "wait \(seconds)s"
        case .resize(let width, let height): "resize \(width)x\(height)"
        }
    }

    /// Every key the key table binds, in table order, once each.
    static let boundKeys: [Key] = {
        var keys: [Key] = []
        // Single keys: a sequence's keys are each bound on their own
        // somewhere or mean nothing alone.
        for binding in KeyMap.standard.bindings {
            for sequence in binding.keys where sequence.keys.count == 1 {
                if let key = sequence.keys.first, !keys.contains(key) { keys.append(key) }
            }
        }
        return keys
    }()

    static let movingKeys: [Key] = [.up, .down, .left, .right, .enter, .escape, .tab]
    /// Typed text: letters, digits, punctuation, and characters of two
    /// columns or several bytes.
    static let typedCharacters = Array("abcdefghijklmnopqrstuvwxyz ABCMXZ0123456789-#:/.,!?'é日🙂")
    static let waits = [1, 3, 6, 30, 61]
    static let sizes: [(width: Int, height: Int)] = [(80, 24), (100, 30), (60, 20), (120, 40)]

    static func isTooSmall(_ size: (width: Int, height: Int)) -> Bool {
        size.width < AppController.minimumSize.width || size.height < AppController.minimumSize.height
    }

    /// `count` inputs drawn from `seed`, for a run that starts at `home`.
    /// Typed text comes in bursts of one to six characters; every input is
    /// one step. Now and then the terminal takes another size for a few
    /// steps and comes back (more often from a size too small to use).
    static func sequence(seed: UInt64, count: Int, home: (width: Int, height: Int)) -> [RecordedInput] {
        var generator = SeededGenerator(seed: seed)
        // Not `Int.random(in:using:)`: its algorithm may change between
        // Swift versions, and the sequence must not.
        func pick(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        let homeIsTooSmall = isTooSmall(home)
        var inputs: [RecordedInput] = []
        var stepsUntilHome: Int?
        while inputs.count < count {
            if let steps = stepsUntilHome {
                if steps == 0 {
                    inputs.append(.resize(width: home.width, height: home.height))
                    stepsUntilHome = nil
                    continue
                }
                stepsUntilHome = steps - 1
            }
            switch pick(100) {
            case 0..<48:
                inputs.append(.key(boundKeys[pick(boundKeys.count)]))
            case 48..<64:
                inputs.append(.key(movingKeys[pick(movingKeys.count)]))
            case 64..<90:
                for _ in 0...pick(6) {
                    inputs.append(.key(.character(typedCharacters[pick(typedCharacters.count)])))
                }
            case 90..<(homeIsTooSmall ? 92 : 97):
                inputs.append(.wait(seconds: waits[pick(waits.count)]))
            default:
                guard stepsUntilHome == nil else { continue }
                let others = sizes.filter { $0 != home }
                let size = others[pick(others.count)]
                inputs.append(.resize(width: size.width, height: size.height))
                stepsUntilHome = 4 + pick(homeIsTooSmall ? 30 : 16)
            }
        }
        return Array(inputs.prefix(count))
    }
}

/// A frame as the recording keeps it: each row's text (trailing spaces
/// removed) with a signature of every cell of the row (text, width, colors,
/// attributes), and the cursor.
struct RecordedFrame: Equatable {
    var label: String
    var width: Int
    var height: Int
    var rows: [Row]
    var cursor: String

    struct Row: Equatable {
        var signature: String
        var text: String
    }

    init(label: String, width: Int, height: Int, rows: [Row], cursor: String) {
        self.label = label
        self.width = width
        self.height = height
        self.rows = rows
        self.cursor = cursor
    }

    init(label: String, buffer: CellBuffer) {
        let lines = buffer.textLines()
        self.init(label: label, width: buffer.width, height: buffer.height,
                  rows: (0..<buffer.height).map { Row(signature: Self.signature(buffer, row: $0), text: lines[$0]) },
                  cursor: buffer.cursor.map { "\($0.row),\($0.column)" } ?? "-")
    }

    /// The whole frame in one value: equal hashes, equal frames.
    var hash: String {
        var hash = FNV1a()
        hash.add("\(width)x\(height) \(cursor)")
        for row in rows { hash.add(row.signature) }
        return hash.hex
    }

    static func signature(_ buffer: CellBuffer, row: Int) -> String {
        var hash = FNV1a()
        for column in 0..<buffer.width {
            let cell = buffer[row, column]
            hash.add(cell.text)
            hash.add(bytes: [0x1F, cell.width, cell.style.attributes.rawValue])
            hash.add(cell.style.foreground)
            hash.add(cell.style.background)
        }
        return hash.hex
    }

    /// "fg 231 bg 24 bold", for messages and signatures.
    static func describe(_ style: Style) -> String {
        func color(_ color: TermColor) -> String {
            switch color {
            case .default: "default"
            case .indexed(let index): "\(index)"
            case .rgb(let r, let g, let b): "#" + [r, g, b].map { String(format: "%02x", $0) }.joined()
            }
        }
        var words = ["fg \(color(style.foreground))", "bg \(color(style.background))"]
        let names: [(TextAttributes, String)] = [(.bold, "bold"), (.dim, "dim"), (.underline, "underline"),
                                                 (.reverse, "reverse"), (.italic, "italic")]
        words += names.filter { style.attributes.contains($0.0) }.map(\.1)
        return words.joined(separator: " ")
    }

    /// A row's styles as runs of columns, for a message.
    static func styleRuns(_ buffer: CellBuffer, row: Int) -> String {
        var runs: [String] = []
        var start = 0
        for column in 1...buffer.width where column == buffer.width || buffer[row, column].style != buffer[row, start].style {
            runs.append("\(start)-\(column - 1): \(describe(buffer[row, start].style))")
            start = column
        }
        return runs.joined(separator: "; ")
    }
}

/// 64-bit FNV-1a: stable across processes and platforms, unlike `Hasher`.
struct FNV1a {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ text: String) {
        add(bytes: text.utf8)
    }

    mutating func add(bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
    }

    mutating func add(_ color: TermColor) {
        switch color {
        case .default: add(bytes: [0])
        case .indexed(let index): add(bytes: [1, index])
        case .rgb(let r, let g, let b): add(bytes: [2, r, g, b])
        }
    }

    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Plays a run into the off-screen app and keeps every frame.
///
/// What would make two plays differ is pinned: the app's clock and the
/// toast clock move only on `wait`, ticked reminders complete on a timer
/// moved by hand, every row the data starts with has a fixed id (ties in
/// sort orders fall back to ids), there is no sync and no due alerts (both
/// run on real time), and the user and device names are fixed.
enum ScreenRecorder {
    static func play(_ run: RecordingRun) throws -> (frames: [RecordedFrame], buffers: [CellBuffer]) {
        let completions = HandMovedCompletionClock()
        let world = try TestWorld(width: run.width, height: run.height, colorMode: run.colorMode,
                                  data: RecordingData.fill, completionClock: completions)
        defer { world.app.stop() }
        var frames: [RecordedFrame] = []
        var buffers: [CellBuffer] = []
        func keep(_ label: String) {
            let app = world.app
            app.refresh()
            app.tick()
            let buffer = app.render()
            frames.append(RecordedFrame(label: label, buffer: buffer))
            buffers.append(buffer)
        }
        keep("start")
        for input in run.inputs {
            var label = input.label
            switch input {
            case .key(let key):
                world.app.handle(.key(key))
            case .wait(let seconds):
                completions.advance(by: TimeInterval(seconds))
                world.advance(TimeInterval(seconds))
            case .resize(let width, let height):
                world.app.handle(.resize(width: width, height: height))
            }
            // The terminal's part of these is not drawn off-screen.
            world.app.wantsSuspend = false
            world.app.wantsFullRepaint = false
            if world.app.shouldQuit {
                world.restart()
                label += " (quit; started again)"
            }
            keep(label)
        }
        return (frames, buffers)
    }
}

/// The completion batch's timer, moved by the recorder: what falls due
/// runs inside `advance(by:)`, on the recorder's thread. The batch keeps
/// one timer at a time (a new tick cancels the last), and so does this.
final class HandMovedCompletionClock: CompletionClock {
    private struct Timer {
        var id: Int
        var due: TimeInterval
        var action: @Sendable () -> Void
    }

    private struct State {
        var now: TimeInterval = 0
        var timer: Timer?
        var timersMade = 0
    }

    private let state = Mutex(State())

    func schedule(after delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let id = state.withLock { state in
            state.timersMade += 1
            state.timer = Timer(id: state.timersMade, due: state.now + delay, action: action)
            return state.timersMade
        }
        return { [weak self] in
            self?.state.withLock { state in
                if state.timer?.id == id { state.timer = nil }
            }
        }
    }

    func advance(by seconds: TimeInterval) {
        let due = state.withLock { state -> Timer? in
            state.now += seconds
            guard let timer = state.timer, timer.due <= state.now else { return nil }
            state.timer = nil
            return timer
        }
        due?.action()
    }
}

/// The recording's data: lists and reminders with fixed ids (which sort
/// after every generated id), dates around the pinned day, two covers,
/// wide characters and a title too long for 80 columns. Its own, not the
/// app's sample data, so that a change to the samples leaves it alone.
enum RecordingData {
    static func fill(_ store: RemindersStore) throws {
        let today = DueDate(moment: store.clock.now, in: store.clock.timeZone, includingTime: false)
        func day(_ offset: Int, _ hour: Int? = nil, _ minute: Int = 0) -> DueDate {
            var date = today.adding(days: offset)
            if let hour { date.time = (hour, minute) }
            return date
        }
        let lists = [
            RemindersList(id: "list-1", title: "Personal", color: "#4a99ef", position: 0),
            RemindersList(id: "list-2", title: "Work", color: "#e8524a", position: 1),
            RemindersList(id: "list-3", title: "Groceries", color: "#5cc15a", position: 2),
            RemindersList(id: "list-4", title: "Trip to 京都", color: "#a86fe0", position: 3),
        ]
        let completedAt = store.clock.timestamp()
        let reminders: [(list: Int, title: String, notes: String, due: DueDate?, priority: Priority, flagged: Bool,
                         done: Bool, tags: [String])] = [
            (0, "Call mom", "Ask about the weekend", day(0, 18), .none, true, false, ["family"]),
            (0, "Renew passport", "Photos are in the desk drawer\nForm DS-82", day(-2), .high, false, false, ["errands"]),
            (0, "Book dentist appointment", "", day(3), .medium, false, false, ["health"]),
            (0, "Read \"The Pragmatic Programmer\"", "Chapters 4 and 5", nil, .low, false, false, ["reading"]),
            (1, "Prepare sprint demo", "Show sync between two terminals", day(0, 14, 30), .high, true, false, ["work"]),
            (1, "Review pull requests", "", day(1, 10), .medium, false, false, ["work"]),
            (1, "Write the quarterly report, with the numbers from the benchmark table and a summary for the board",
             "", day(7), .none, false, false, ["work", "writing"]),
            (1, "Expense receipts", "", day(-1, 17), .low, false, false, ["errands"]),
            (2, "Milk", "Oat, 2 cartons", day(0), .none, false, false, []),
            (2, "Coffee beans", "", nil, .none, true, false, []),
            (2, "Tomatoes", "", nil, .none, false, false, []),
            (2, "Bread", "Sourdough", day(1), .none, false, false, []),
            (2, "Eggs", "", nil, .none, false, true, []),
            (3, "予約を確認する", "宿と電車", day(10), .medium, false, false, ["travel"]),
            (3, "Pack the 🎒 backpack", "Charger\nAdapter", day(9, 8), .none, true, false, ["travel", "errands"]),
            (3, "Exchange ¥", "", nil, .none, false, true, []),
        ]
        try store.writer.write { db in
            for list in lists { try list.insert(db) }
            for (index, item) in reminders.enumerated() {
                try Reminder(id: String(format: "reminder-%02d", index), remindersListID: lists[item.list].id, title: item.title,
                             notes: item.notes, dueDate: item.due, priority: item.priority, isFlagged: item.flagged,
                             status: item.done ? .completed : .incomplete, completedAt: item.done ? completedAt : nil,
                             position: index).insert(db)
            }
            for (list, cover) in [(0, "sunrise"), (1, "ocean")] {
                if let png = SampleCovers.png(named: cover) {
                    try RemindersListCover(remindersListID: lists[list].id, image: png).insert(db)
                }
            }
        }
        for (index, item) in reminders.enumerated() where !item.tags.isEmpty {
            try store.updateReminder(id: String(format: "reminder-%02d", index), ReminderChanges(tags: item.tags))
        }
    }
}
