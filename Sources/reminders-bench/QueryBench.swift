import Foundation
import GRDB
import RemindersCore
import RemindersViewModels

/// The reads behind each screen on a device holding the world's rows,
/// warm: after two unmeasured runs, as in an app that is already open.
struct QueryBench {
    let world: World
    let runs: Int

    func run() throws -> [Figure] {
        let session = try openDevice(try world.device(), server: world.unusedServer, device: "B")
        defer { try? World.close(session.writer) }
        let clock = DataSet.clock
        let environment = AppEnvironment(store: session.store)
        let pool = session.writer
        let size = world.size
        let goal: Goal? = size >= 100_000 ? .median(under: 0.010) : nil

        let home = try measure {
            _ = try pool.read { db in
                (try Queries.smartCounts(db, clock: clock), try Queries.lists(db), try Queries.tagsInUse(db))
            }
        }
        let detail = ListDetailViewModel(environment: environment, filter: .list(world.data.biggestListID), sort: .due,
                                         limit: 300)
        defer { detail.stop() }
        let detailTime = try measure { detail.refresh() }
        guard detail.state.errorMessage == nil, detail.state.rows.count == min(300, detail.state.totalCount) else {
            throw BenchError("list detail read \(detail.state.rows.count) rows: \(detail.state.errorMessage ?? "no error")")
        }
        let all = try measure {
            _ = try pool.read { db in
                try Queries.reminders(db, filter: .all, sort: .manual, showCompleted: false, clock: clock, limit: 300)
            }
        }
        var hits = 0
        let search = try measure {
            hits = try pool.read { db in
                try Queries.search(db, text: DataSet.searchTerm, showCompleted: false, clock: clock, limit: 500)
            }.hits.count
        }
        // A phrase with few hits takes another path: measured so that
        // neither path regresses unseen.
        var rareHits = 0
        let rare = try measure {
            rareHits = try pool.read { db in
                try Queries.search(db, text: DataSet.rareSearchTerm, showCompleted: false, clock: clock, limit: 500)
            }.hits.count
        }
        // What the due-alert scheduler reads on every change and timer
        // tick (the app and `reminders alerts --watch`), once it raised
        // what was due when it started, as its first read does. Measured
        // in a transaction rolled back after, so that the later phases
        // find the device as it was.
        let catchUp = DueAlertSettings().catchUp
        var alerts = Samples()
        try pool.writeWithoutTransaction { db in
            try db.inTransaction {
                let started = try DueAlertPlan.read(db, clock: clock, defaultHour: DueQueries.defaultHour, catchUp: catchUp)
                for alert in started.due { _ = try alert.claim(db, at: clock.timestamp()) }
                alerts = try measure {
                    _ = try DueAlertPlan.read(db, clock: clock, defaultHour: DueQueries.defaultHour, catchUp: catchUp)
                }
                return .rollback
            }
        }
        let section = "Queries"
        Progress.say("queries \(Report.grouped(size)): home \(Report.format(home.median, .seconds)), "
                     + "list detail \(Report.format(detailTime.median, .seconds)), search \(Report.format(search.median, .seconds)) (\(hits) hits), "
                     + "rare search \(Report.format(rare.median, .seconds)) (\(rareHits) hits)")
        return [
            Figure(section: section, name: "home screen (smart counts + lists + tags in use)", reminders: size,
                   samples: home, goal: goal),
            Figure(section: section, name: "list detail, biggest list by due date (first 300 rows + counts)",
                   reminders: size, samples: detailTime, goal: goal),
            Figure(section: section, name: "search “\(DataSet.searchTerm)” (first 500 hits + snippets)", reminders: size,
                   samples: search, goal: goal),
            Figure(section: section, name: "search “\(DataSet.rareSearchTerm)” (few hits)", reminders: size,
                   samples: rare),
            Figure(section: section, name: "All list, manual order (first 300 rows)", reminders: size, samples: all),
            Figure(section: section, name: "due alerts: the scheduler's plan", reminders: size, samples: alerts, goal: goal),
        ]
    }

    func measure(_ body: () throws -> Void) throws -> Samples {
        for _ in 0..<2 { try body() }
        var samples = Samples()
        for _ in 0..<runs {
            samples.add(try timed(body).seconds)
        }
        return samples
    }
}
