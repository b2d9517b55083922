/// Repeated measurements of one figure, with the statistics the table shows.
struct Samples: Sendable {
    private(set) var values: [Double] = []

    init(_ values: [Double] = []) {
        self.values = values
    }

    mutating func add(_ value: Double) {
        values.append(value)
    }

    var count: Int { values.count }
    var isEmpty: Bool { values.isEmpty }
    var min: Double { values.min() ?? .nan }
    var max: Double { values.max() ?? .nan }

    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Nearest-rank percentile: the smallest value with at least `p` percent
    /// of the samples at or below it.
    func percentile(_ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }
}
