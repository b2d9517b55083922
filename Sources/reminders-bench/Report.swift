import Foundation

/// What a figure must stay under, and which statistic is held to it.
struct Goal: Codable, Sendable {
    enum Statistic: String, Codable, Sendable { case median, p95 }

    var limit: Double
    var statistic: Statistic

    static func median(under limit: Double) -> Goal { Goal(limit: limit, statistic: .median) }
    static func p95(under limit: Double) -> Goal { Goal(limit: limit, statistic: .p95) }
}

/// One line of the results: a figure at one size, its statistics and its
/// goal. Durations are in seconds, sizes in bytes, ratios plain.
struct Figure: Encodable, Sendable {
    enum Unit: String, Codable, Sendable { case seconds, bytes, ratio }

    var section: String
    var name: String
    /// Reminders in the data set, nil when the figure does not depend on it.
    var reminders: Int?
    var unit: Unit
    var median: Double
    var min: Double
    var max: Double
    /// Only for figures with enough samples to make it mean something.
    var p95: Double?
    var samples: Int
    var goal: Goal?
    /// Set when a run was stopped at this many seconds before it finished:
    /// the figure is then at least this.
    var stoppedAfter: Double?

    init(section: String, name: String, reminders: Int?, unit: Unit = .seconds, samples: Samples,
         goal: Goal? = nil, stoppedAfter: Double? = nil) {
        var samples = samples
        if let stoppedAfter, samples.isEmpty { samples.add(stoppedAfter) }
        self.stoppedAfter = stoppedAfter
        self.section = section
        self.name = name
        self.reminders = reminders
        self.unit = unit
        median = samples.median
        min = samples.min
        max = samples.max
        p95 = samples.count >= 10 ? samples.percentile(95) : nil
        self.samples = samples.count
        self.goal = goal
    }

    /// Whether the goal is met; nil without a goal.
    var passed: Bool? {
        guard let goal else { return nil }
        if stoppedAfter != nil { return false }
        let value = goal.statistic == .p95 ? (p95 ?? max) : median
        return value < goal.limit
    }

    private enum CodingKeys: String, CodingKey {
        case section, name, reminders, unit, median, min, max, p95, samples, goal, passed, stoppedAfter
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(section, forKey: .section)
        try container.encode(name, forKey: .name)
        try container.encode(reminders, forKey: .reminders)
        try container.encode(unit, forKey: .unit)
        try container.encode(median, forKey: .median)
        try container.encode(min, forKey: .min)
        try container.encode(max, forKey: .max)
        try container.encode(p95, forKey: .p95)
        try container.encode(samples, forKey: .samples)
        try container.encode(goal, forKey: .goal)
        try container.encode(passed, forKey: .passed)
        try container.encode(stoppedAfter, forKey: .stoppedAfter)
    }
}

/// Everything one run measured.
struct Report: Encodable, Sendable {
    var machine: Machine
    var mode: String
    var startedAt: String
    var durationSeconds: Double
    var figures: [Figure]

    /// The first line of the table; the smoke test looks for it.
    static let header = "| Figure | Reminders | Median | Spread (min–max) | p95 | Goal | |"

    /// A Markdown table: readable in a terminal, and pasted as is into the
    /// README.
    func table() -> String {
        var lines = [Self.header, "|---|--:|--:|--:|--:|--:|:-:|"]
        for figure in figures {
            let name = "\(figure.section): \(figure.name)"
            let size = figure.reminders.map(Self.grouped) ?? ""
            let spread = figure.stoppedAfter != nil ? "stopped, unfinished"
                : figure.samples > 1 ? "\(Self.format(figure.min, figure.unit))–\(Self.format(figure.max, figure.unit))" : "(1 run)"
            let p95 = figure.p95.map { Self.format($0, figure.unit) } ?? ""
            let goal = figure.goal.map { (goal: Goal) -> String in
                (goal.statistic == .p95 ? "p95 < " : "< ") + Self.format(goal.limit, figure.unit, rounded: true)
            } ?? ""
            let mark = figure.passed.map { $0 ? "pass" : "**MISS**" } ?? ""
            let median = (figure.stoppedAfter != nil ? "> " : "") + Self.format(figure.median, figure.unit)
            lines.append("| \(name) | \(size) | \(median) | \(spread) | \(p95) | \(goal) | \(mark) |")
        }
        let met = figures.compactMap(\.passed)
        lines.append("")
        lines.append("Goals met: \(met.filter { $0 }.count) of \(met.count). Machine: \(machine.summary). "
                     + "Mode: \(mode); run took \(Self.format(durationSeconds, .seconds)).")
        return lines.joined(separator: "\n")
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }

    static func format(_ value: Double, _ unit: Figure.Unit, rounded: Bool = false) -> String {
        guard value.isFinite else { return "–" }
        switch unit {
        case .seconds:
            if value >= 1 { return String(format: rounded ? "%.0f s" : "%.2f s", value) }
            let ms = value * 1000
            if rounded { return String(format: "%g ms", ms) }
            if ms >= 100 { return String(format: "%.0f ms", ms) }
            if ms >= 10 { return String(format: "%.1f ms", ms) }
            return String(format: "%.2f ms", ms)
        case .bytes:
            let mib = value / 1024 / 1024
            return rounded ? String(format: "%g MB", mib) : String(format: "%.1f MB", mib)
        case .ratio:
            return String(format: "%.1f×", value)
        }
    }
}
