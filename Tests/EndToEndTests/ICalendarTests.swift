import Foundation
import ICalendar
import RemindersCore
import Testing
import TestSupport

/// `reminders export --ics/--vdir` and `reminders import` through the built
/// binary: samples in the styles other apps write, bad input, and real
/// clients from PyPI (todoman, vdirsyncer, radicale, python icalendar).
@Suite("iCalendar, end to end", .serialized)
struct ICalendarEndToEndTests {
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/icalendar")

    /// A device with the sample lists and a few reminders that use every field.
    func seeded() throws -> CommandRunner {
        let cli = try CommandRunner(now: "2026-11-25T10:00:00Z")
        try cli.ok("seed")
        func add(_ arguments: String...) throws -> String {
            let result = try cli.run(["add", "--literal"] + arguments)
            #expect(result.status == 0, "\(result)")
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let parent = try add("Plan trip, part 1; \"quotes\"", "--list", "Personal", "--due", "2026-12-03 18:30",
                             "--priority", "high", "--tag", "Travel", "--tag", "Été", "--alert-before", "1h",
                             "--notes", "Line one\nLine two\\ with backslash")
        _ = try add("Book flights", "--parent", parent)
        _ = try add("Water plants", "--list", "Personal", "--due", "2026-11-26", "--repeat", "every 3 days after completion")
        let weekly = try add("Weekly review", "--list", "Work", "--due", "2026-11-27 09:00",
                             "--repeat-rule", "FREQ=WEEKLY;BYDAY=MO,FR", "--flag")
        #expect(try cli.run("complete", weekly).status == 0)
        // A series put off for one occurrence: due Tuesday, standing for Monday.
        let bins = try add("Bins", "--list", "Personal", "--due", "2026-11-30 19:00", "--repeat", "every monday")
        #expect(try cli.run("edit", bins, "--due", "2026-12-01 19:00").status == 0)
        return cli
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func icsRoundTripsThroughAFreshDevice() throws {
        let a = try seeded()
        defer { a.cleanUp() }
        let b = try CommandRunner(now: "2026-11-25T10:00:00Z")
        defer { b.cleanUp() }
        let file = b.home.appendingPathComponent("all.ics").path
        let written = try a.run("export", "--ics", "--output", file)
        #expect(written.status == 0 && written.stderr.hasPrefix("Wrote 3 lists"), "\(written)")
        let imported = try b.run("import", file)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout.hasPrefix("Imported 19 new, 0 updated, 0 unchanged; new lists: "), "\(imported)")
        #expect(try b.ok("export", "--json") == a.ok("export", "--json"))
        #expect(try b.ok("import", file).hasPrefix("Imported 0 new, 0 updated, 19 unchanged"))
        // One list alone: one VCALENDAR.
        let work = try a.ok("export", "--ics", "Work")
        #expect(work.components(separatedBy: "BEGIN:VCALENDAR").count == 2)
        #expect(work.contains("X-WR-CALNAME:Work"))
    }

    @Test func samplesInOtherAppsStylesImportAsExpectedAndExportWithNothingLost() throws {
        let expected = try json(String(contentsOf: Self.fixtures.appendingPathComponent("expected.json"), encoding: .utf8))
        for (name, todos) in expected.sorted(by: { $0.key < $1.key }) {
            let cli = try CommandRunner(now: "2026-11-25T10:00:00Z")
            defer { cli.cleanUp() }
            let path = Self.fixtures.appendingPathComponent(name).path
            let result = try cli.run("import", path)
            #expect(result.status == 0, "\(name): \(result)")
            let dump = try json(cli.ok("export", "--json"))
            let reminders = try #require(dump["reminders"] as? [[String: Any]])
            let todos = try #require(todos as? [String: [String: Any]])
            #expect(reminders.count == todos.count, "\(name)")
            let source = try #require(try ICalParser.parse(Array(Data(contentsOf: URL(fileURLWithPath: path)))).first)
            var idOfUID: [String: String] = [:]
            for todo in source.components where todo.name == "VTODO" {
                let uid = try #require(todo.property("UID")).text
                idOfUID[uid] = UUID(uuidString: uid)?.uuidString.lowercased() ?? derivedID("icalendar-uid", uid)
            }
            for (uid, want) in todos {
                let id = try #require(idOfUID[uid], "\(name) \(uid)")
                let got = try #require(reminders.first { $0["id"] as? String == id }, "\(name) \(uid)")
                #expect(got["title"] as? String == want["title"] as? String, "\(name) \(uid)")
                #expect(got["notes"] as? String == want["notes"] as? String, "\(name) \(uid)")
                #expect(got["dueDate"] as? String == want["due"] as? String, "\(name) \(uid) due")
                #expect(got["priority"] as? String == want["priority"] as? String, "\(name) \(uid)")
                #expect((got["status"] as? String == "completed") == (want["completed"] as? Bool), "\(name) \(uid)")
                let tags = (got["tags"] as? [String] ?? []).map { $0.lowercased() }.sorted()
                // A category holding a comma is no tag here (tags are typed
                // comma-separated); it stays in the to-do's kept text.
                let wanted = (want["tags"] as? [String] ?? []).filter { !$0.contains(",") }.map { $0.lowercased() }.sorted()
                #expect(tags == wanted, "\(name) \(uid) tags")
                let rule = (want["repeat"] as? String).map { try? RepeatRule(rrule: $0).rrule } ?? nil
                #expect(got["repeatRule"] as? String == rule, "\(name) \(uid) repeat")
                #expect(got["parentID"] as? String == (want["parent"] as? String).flatMap { idOfUID[$0] }, "\(name) \(uid) parent")
                let lead = (want["alertBefore"] as? Int).flatMap { $0 > 0 ? $0 : nil }
                #expect(got["alertBefore"] as? Int == lead, "\(name) \(uid) alert")
            }
            // Exported back: every property and component of each to-do, as written.
            let exported = try #require(try ICalParser.parse(Array(cli.ok("export", "--ics").utf8)))
            #expect(try Self.undefinedZones(exported).isEmpty, "\(name): a TZID without its VTIMEZONE")
            let back = exported.flatMap(\.components).filter { $0.name == "VTODO" }
            for todo in source.components where todo.name == "VTODO" {
                let uid = try #require(todo.property("UID")).text
                let match = try #require(back.first { $0.property("UID")?.text == uid }, "\(name) \(uid) not exported")
                for property in todo.properties where property.name != "DUE" || property.parameter("TZID") == nil {
                    #expect(match.properties.contains { $0.name == property.name && $0.value == property.value && $0.parameters == property.parameters },
                            "\(name) \(uid): \(property.name) lost")
                }
                for component in todo.components {
                    #expect(match.components.contains { $0.name == component.name && $0.properties.map(\.value) == component.properties.map(\.value) },
                            "\(name) \(uid): a \(component.name) lost")
                }
            }
        }
    }

    @Test func badInputIsOneLineExitTwoAndNothingImported() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        func refused(_ name: String, _ content: Data, says message: String) throws {
            let path = cli.home.appendingPathComponent(name).path
            try content.write(to: URL(fileURLWithPath: path))
            let result = try cli.run("import", path)
            #expect(result.status == 2, "\(name): \(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(name): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
        }
        try refused("photo.ics", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), says: "photo.ics:1: not iCalendar")
        let good = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:1\r\nSUMMARY:fine\r\nEND:VTODO\r\n"
        try refused("zone.ics", Data((good + "BEGIN:VTODO\r\nUID:2\r\nDUE;TZID=Nowhere/City:20260101T090000\r\nEND:VTODO\r\nEND:VCALENDAR\r\n").utf8),
                    says: "zone.ics:8: unknown time zone 'Nowhere/City' in DUE")
        try refused("date.ics", Data((good + "BEGIN:VTODO\r\nUID:2\r\nDUE;VALUE=DATE:20261331\r\nEND:VTODO\r\nEND:VCALENDAR\r\n").utf8),
                    says: "date.ics:8: DUE: '20261331' is not a real date")
        try refused("cut.ics", Data((good + "BEGIN:VTODO\r\nUID:2\r\nSUMM").utf8), says: "cut.ics:8: SUMM has no ':'")
        try refused("hostile.ics", Data((good + "BEGIN:VTODO\r\nUID:2\r\nSUMMARY:\u{1B}]0;owned\u{07}\r\nEND:VTODO\r\nEND:VCALENDAR\r\n").utf8),
                    says: "hostile.ics:8: a control character (0x1B) in the value of SUMMARY")
        // 100 MB: refused before it is read.
        let huge = cli.home.appendingPathComponent("huge.ics").path
        FileManager.default.createFile(atPath: huge, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: 100 * 1_048_576)
        try handle.close()
        let result = try cli.run("import", huge)
        #expect(result.status == 2 && result.stderr.contains("100 MB is larger than the 32 MB an import reads"), "\(result)")
        #expect(try cli.run("import", cli.home.appendingPathComponent("missing.ics").path).status == 2)
        let dump = try json(cli.ok("export", "--json"))
        #expect((dump["reminders"] as? [Any])?.isEmpty == true && (dump["lists"] as? [Any])?.isEmpty == true)
        let usage = try cli.run("export", "--ics", "--json")
        #expect(usage.status != 0 && usage.stderr.contains("choose one format"))
    }

    /// A repeat rule this version cannot follow is kept and written back,
    /// and the import says the reminder does not repeat here (it said
    /// nothing); a file of events alone makes no list.
    @Test func aRuleThatCannotBeFollowedIsNamedAndEventsAloneMakeNoList() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let odd = cli.home.appendingPathComponent("odd.ics").path
        let oddText = ["BEGIN:VCALENDAR", "VERSION:2.0", "X-WR-CALNAME:Odd", "BEGIN:VTODO", "UID:odd-1", "SUMMARY:Water plants",
                       "DUE;VALUE=DATE:20261201", "RRULE:FREQ=SOMETIMES", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
        try Data(oddText.utf8).write(to: URL(fileURLWithPath: odd))
        let said = try cli.ok("import", odd)
        #expect(said.contains("1 to-do repeats by a rule this version cannot follow: kept, and written back by export, "
                              + "but not repeating here\n  “Water plants”: FREQ=SOMETIMES is not a frequency"), "\(said)")
        #expect(try cli.ok("export", "--ics").contains("RRULE:FREQ=SOMETIMES"))
        let events = cli.home.appendingPathComponent("ev.ics").path
        let eventText = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:e1", "SUMMARY:Dinner", "DTSTART:20261201T190000",
                         "END:VEVENT", "END:VCALENDAR", ""].joined(separator: "\r\n")
        try Data(eventText.utf8).write(to: URL(fileURLWithPath: events))
        #expect(try cli.ok("import", events) == "Imported 0 new, 0 updated, 0 unchanged; skipped 1 component that is not a to-do")
        #expect(!(try cli.ok("lists")).contains("ev "))
    }

    /// A zone named only by the file (a TZID whose VTIMEZONE gives its
    /// X-LIC-LOCATION) is kept by that location, and every zone an export
    /// names is defined in it (RFC 5545 3.6.5), in a calendar file and in
    /// a vdir to-do's file.
    @Test func everyZoneAnExportNamesIsDefinedInIt() throws {
        let cli = try CommandRunner(now: "2026-11-25T10:00:00Z")
        defer { cli.cleanUp() }
        let file = cli.home.appendingPathComponent("zones.ics").path
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "X-WR-CALNAME:Zones", "BEGIN:VTIMEZONE", "TZID:Custom Berlin",
            "X-LIC-LOCATION:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
            "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:19700329T020000",
            "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT", "END:VTIMEZONE",
            "BEGIN:VTODO", "UID:tz-1", "SUMMARY:Dentist", "DTSTART;TZID=Custom Berlin:20261210T090000",
            "DUE;TZID=Custom Berlin:20261210T100000", "END:VTODO",
            "BEGIN:VTODO", "UID:tz-2", "SUMMARY:Call", "DUE;TZID=America/New_York:20261211T100000", "END:VTODO",
            // As Outlook writes a zone: by its Windows name.
            "BEGIN:VTODO", "UID:tz-3", "SUMMARY:Standup", "DTSTART;TZID=Tokyo Standard Time:20261212T080000",
            "DUE;TZID=Tokyo Standard Time:20261212T090000", "END:VTODO",
            "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        #expect(try cli.ok("import", file).hasPrefix("Imported 3 new"))
        let dump = try cli.ok("export", "--json")
        #expect(dump.contains(#""dueDate" : "2026-12-12T00:00""#), "\(dump)")
        let exported = try cli.ok("export", "--ics")
        #expect(exported.contains("DTSTART;TZID=Europe/Berlin:20261210T090000"), "\(exported)")
        #expect(!exported.contains("Custom Berlin"))
        let calendars = try ICalParser.parse(Array(exported.utf8))
        #expect(try Self.undefinedZones(calendars).isEmpty)
        #expect(calendars.flatMap(\.components).filter { $0.name == "VTIMEZONE" }.compactMap { $0.property("TZID")?.value }
            == ["America/New_York", "Europe/Berlin", "Tokyo Standard Time"])
        let vdir = cli.home.appendingPathComponent("vdir")
        try cli.ok("export", "--vdir", vdir.path)
        let files = try FileManager.default.subpathsOfDirectory(atPath: vdir.path).filter { $0.hasSuffix(".ics") }
        #expect(files.count == 3)
        for name in files {
            let calendars = try ICalParser.parse(Array(Data(contentsOf: vdir.appendingPathComponent(name))))
            #expect(try Self.undefinedZones(calendars).isEmpty, "\(name)")
            #expect(calendars.flatMap(\.components).filter { $0.name == "VTIMEZONE" }.count == 1, "\(name)")
        }
        // Read back, the same moments: nothing changes.
        #expect(try cli.ok("import", file).hasPrefix("Imported 0 new, 0 updated, 3 unchanged"))
    }

    /// The TZIDs calendars' values name that no VTIMEZONE of the same
    /// calendar defines.
    static func undefinedZones(_ calendars: [ICalComponent]) throws -> Set<String> {
        var undefined = Set<String>()
        for calendar in calendars {
            let defined = Set(calendar.components.filter { $0.name == "VTIMEZONE" }.compactMap { $0.property("TZID")?.value })
            func named(_ component: ICalComponent) -> [String] {
                component.properties.compactMap { $0.parameter("TZID") } + component.components.flatMap(named)
            }
            undefined.formUnion(calendar.components.filter { $0.name != "VTIMEZONE" }.flatMap(named).filter { !defined.contains($0) })
        }
        return undefined
    }

    /// What an import keeps travels with the reminder: another device of
    /// the user exports the same to-do, X- properties and all.
    @Test func keptPropertiesSyncToTheOtherDevice() throws {
        let laptop = try CommandRunner(now: "2026-11-25T10:00:00Z")
        defer { laptop.cleanUp() }
        let server = laptop.home.appendingPathComponent("server").path
        let desktop = ["--server", server, "--db", laptop.home.appendingPathComponent("desktop.sqlite").path]
        let path = Self.fixtures.appendingPathComponent("nextcloud-tasks.ics").path
        #expect(try laptop.run("import", "--server", server, path).status == 0)
        #expect(try laptop.run("sync", "--server", server).status == 0)
        #expect(try laptop.run(["sync"] + desktop).status == 0)
        let there = try laptop.run(["export", "--ics"] + desktop).stdout
        let here = try laptop.run("export", "--ics", "--server", server).stdout
        #expect(there.contains("X-OC-HIDESUBTASKS:"))
        func stable(_ text: String) -> [Substring] {
            text.split(separator: "\r\n").filter { !$0.hasPrefix("DTSTAMP:") && !$0.hasPrefix("LAST-MODIFIED:") }
        }
        #expect(stable(there) == stable(here))
    }

    @Test func aDryRunSaysWhatItWouldDo() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let path = Self.fixtures.appendingPathComponent("todoman.ics").path
        let result = try cli.run("import", "--dry-run", "--list", "Inbox", path)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("would be added: Inbox › "))
        // "Stretch" repeats every two hours, which no rule here follows.
        #expect(result.stdout.hasSuffix("Dry run, nothing changed: would import 5 new, 0 updated, 0 unchanged, 0 deleted; new list: Inbox; "
                                        + "1 to-do repeats by a rule this version cannot follow: kept, and written back by export, "
                                        + "but not repeating here\n  “Stretch”: FREQ=HOURLY is not supported: use DAILY, WEEKLY, MONTHLY or YEARLY\n"),
                "\(result.stdout)")
        #expect(try cli.ok("lists", "--json") == "[]")
    }
}

/// The same, against the real clients. They are installed by the tests'
/// own set-up (`Tests/Interop/venv.sh`) into `.build-interop`, and always
/// run in CI.
@Suite("iCalendar with todoman, vdirsyncer and radicale", .serialized,
       .enabled(if: InteropClients.wanted, "set CI, or have python3 with pip and network, to run the interop clients"))
struct ICalendarInteropTests {
    func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func todomanReadsOurVdirExport() throws {
        let cli = try ICalendarEndToEndTests().seeded()
        defer { cli.cleanUp() }
        let vdir = cli.home.appendingPathComponent("vdir").path
        let export = try cli.ok("export", "--vdir", vdir)
        #expect(export.hasPrefix("Wrote 3 lists"))
        let todos = try #require(try json(InteropClients.run(["todoman-list", "--vdir-root", vdir])) as? [[String: Any]])
        let dump = try #require(try json(cli.ok("export", "--json")) as? [String: Any])
        let reminders = try #require(dump["reminders"] as? [[String: Any]])
        #expect(todos.count == reminders.count)
        let bands = ["high": 1, "medium": 5, "low": 9, "none": 0]
        for reminder in reminders {
            let id = try #require(reminder["id"] as? String)
            let todo = try #require(todos.first { $0["uid"] as? String == id }, "\(id) missing in todoman")
            #expect(todo["summary"] as? String == reminder["title"] as? String)
            #expect(todo["due"] as? String == reminder["dueDate"] as? String, "\(reminder["title"] ?? "")")
            #expect(todo["priority"] as? Int == bands[reminder["priority"] as? String ?? "none"])
            #expect(todo["completed"] as? Bool == (reminder["status"] as? String == "completed"))
        }
    }

    @Test func aTodoMadeAndCompletedWithTodomanImports() throws {
        let cli = try CommandRunner(now: "2026-11-25T10:00:00Z")
        defer { cli.cleanUp() }
        try cli.ok("list", "add", "Chores")
        let vdir = cli.home.appendingPathComponent("vdir").path
        try cli.ok("export", "--vdir", vdir)
        let made = try #require(try json(InteropClients.run([
            "todoman-new", "--vdir-root", vdir, "--list", "Chores", "--summary", "Descale the kettle",
            "--due", "2026-12-01 08:15", "--priority", "high",
        ])) as? [String: Any])
        let uid = try #require(made["uid"] as? String)
        let first = try cli.run("import", vdir)
        #expect(first.stdout.hasPrefix("Imported 1 new"), "\(first)")
        _ = try InteropClients.run(["todoman-done", "--vdir-root", vdir, "--uid", uid])
        let second = try cli.run("import", vdir)
        #expect(second.stdout.hasPrefix("Imported 0 new, 1 updated"), "\(second)")
        let dump = try #require(try json(cli.ok("export", "--json")) as? [String: Any])
        let reminder = try #require((dump["reminders"] as? [[String: Any]])?.first)
        #expect(reminder["title"] as? String == "Descale the kettle")
        #expect(reminder["dueDate"] as? String == "2026-12-01T08:15")
        #expect(reminder["priority"] as? String == "high")
        #expect(reminder["status"] as? String == "completed")
        // The export writes it once in this app's form, then leaves it alone.
        #expect(try cli.ok("export", "--vdir", vdir).hasSuffix("1 written, 0 unchanged, 0 deleted"))
        #expect(try cli.ok("export", "--vdir", vdir).hasSuffix("0 written, 1 unchanged, 0 deleted"))
    }

    @Test func aCalDAVRoundTripThroughRadicaleEndsEqual() throws {
        let a = try ICalendarEndToEndTests().seeded()
        defer { a.cleanUp() }
        let b = try CommandRunner(now: "2026-11-25T10:00:00Z")
        defer { b.cleanUp() }
        let from = a.home.appendingPathComponent("vdir").path
        let to = b.home.appendingPathComponent("vdir").path
        try a.ok("export", "--vdir", from)
        let trip = try #require(try json(InteropClients.run([
            "caldav-roundtrip", "--from", from, "--to", to, "--workdir", a.home.appendingPathComponent("caldav").path,
        ])) as? [String: Any])
        #expect(trip["items"] as? Int == 19)
        let imported = try b.run("import", to)
        #expect(imported.status == 0, "\(imported)")
        // CalDAV collections carry a name, color and order, but no image:
        // the covers stay behind.
        func withoutCovers(_ text: String) throws -> String {
            text.replacingOccurrences(of: #""coverImageSHA256" : "[0-9a-f]+""#, with: #""coverImageSHA256" : null"#,
                                      options: .regularExpression)
        }
        #expect(try withoutCovers(b.ok("export", "--json")) == withoutCovers(a.ok("export", "--json")))
        #expect(try a.ok("export", "--json").contains(#""coverImageSHA256" : ""#), "the seed has covers, and they are compared away on purpose")
    }

    @Test func pythonIcalendarReadsOurExport() throws {
        let cli = try ICalendarEndToEndTests().seeded()
        defer { cli.cleanUp() }
        let file = cli.home.appendingPathComponent("all.ics").path
        _ = try cli.run("export", "--ics", "--output", file)
        let parsed = try #require(try json(InteropClients.run(["icalendar-parse", file])) as? [String: Any])
        #expect(parsed["calendars"] as? Int == 3)
        let todos = try #require(parsed["todos"] as? [[String: Any]])
        #expect(todos.count == 19)
        let bins = try #require(todos.first { $0["summary"] as? String == "Bins" })
        #expect(bins["due"] as? String == "2026-12-01T19:00:00", "\(bins)")
        #expect((bins["x_properties"] as? [String])?.contains("X-REMINDERS-OCCURRENCE") == true)
        let trip = try #require(todos.first { $0["summary"] as? String == "Plan trip, part 1; \"quotes\"" })
        #expect(trip["alarms"] as? Int == 1)
        #expect(Set(trip["categories"] as? [String] ?? []) == ["travel", "Été"] || (trip["categories"] as? [String])?.count == 2)
        #expect(todos.contains { ($0["related_to"] as? [String])?.isEmpty == false })
        #expect(todos.contains { ($0["rrule"] as? String)?.contains("FREQ=DAILY") == true })
    }

    /// python icalendar finds every zone our export names defined, and the
    /// definitions, read by it, give the IANA database's offset at every
    /// hour they cover.
    @Test func pythonIcalendarFindsEveryZoneDefined() throws {
        let cli = try CommandRunner(now: "2026-11-25T10:00:00Z")
        defer { cli.cleanUp() }
        for name in ["thunderbird.ics", "todoman.ics", "apple-reminders.ics"] {
            #expect(try cli.run("import", ICalendarEndToEndTests.fixtures.appendingPathComponent(name).path).status == 0)
        }
        let file = cli.home.appendingPathComponent("all.ics").path
        #expect(try cli.run("export", "--ics", "--output", file).status == 0)
        let report = try #require(try json(InteropClients.run(["icalendar-zones", file])) as? [String: Any])
        #expect((report["missing"] as? [String]) == [], "\(report)")
        let zones = try #require(report["zones"] as? [[String: Any]])
        #expect(Set(zones.compactMap { $0["tzid"] as? String }) == ["Europe/Berlin", "America/New_York"], "\(zones)")
        for zone in zones {
            #expect((zone["checked"] as? Int ?? 0) > 80_000, "\(zone)")
            #expect(zone["mismatches"] as? Int == 0, "\(zone)")
        }
    }
}

/// The interop clients' venv, made once per build folder.
enum InteropClients {
    static var wanted: Bool {
        ProcessInfo.processInfo.environment["CI"] != nil || ProcessInfo.processInfo.environment["REMINDERS_INTEROP"] != nil
            || FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent(".build-interop/bin/python").path)
    }

    static let bin: Result<String, InteropError> = {
        let script = packageRoot.appendingPathComponent("Tests/Interop/venv.sh").path
        let venv = packageRoot.appendingPathComponent(".build-interop").path
        guard let result = try? Subprocess.run(["bash", script, venv], environment: ProcessInfo.processInfo.environment, timeout: 900) else {
            return .failure(InteropError(message: "could not start venv.sh"))
        }
        guard result.status == 0 else { return .failure(InteropError(message: "venv.sh failed: \(result.stderr)")) }
        return .success(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }()

    /// Runs interop.py with the venv's python; its JSON output.
    static func run(_ arguments: [String]) throws -> String {
        let bin = try bin.get()
        let result = try Subprocess.run([bin + "/python", packageRoot.appendingPathComponent("Tests/Interop/interop.py").path] + arguments,
                                        environment: ProcessInfo.processInfo.environment,
                                        timeout: 300)
        guard result.status == 0 else { throw InteropError(message: "interop.py \(arguments.first ?? ""): \(result.stderr)") }
        return result.stdout
    }

    struct InteropError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
