import Foundation
import Testing
import TestSupport

/// The command line's smaller frictions a new user met.
@Suite struct EverydayUseTests {
    @Test func aSecondListWithTheSameTitleIsMadeWithAWarning() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        try cli.ok("list", "add", "Personal")
        let second = try cli.run("list", "add", "personal")
        #expect(second.status == 0)
        #expect(second.stderr == "reminders: note: another list is titled 'personal' too; commands that take a list will need an id for either\n")
        let ambiguous = try cli.run("show", "Personal")
        #expect(ambiguous.status == 2)
        #expect(ambiguous.errorLine?.contains("is ambiguous") == true)
    }
}
