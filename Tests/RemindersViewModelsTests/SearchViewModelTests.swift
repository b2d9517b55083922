import Foundation
import RemindersCore
import Testing
@testable import RemindersViewModels

@Suite struct SearchViewModelTests {
    @Test func resultsFollowTheQueryAsItIsTyped() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        try world.reminder("Buy groceries", in: listID)
        try world.reminder("Green tea", in: listID, notes: "from the grocer")
        try world.reminder("Call mom", in: listID)
        let search = SearchViewModel(environment: world.environment)

        search.setQuery("g")
        try await search.waitFor { $0.resultsQuery == "g" }
        #expect(search.state.titles == ["Buy groceries", "Green tea"])
        search.setQuery("gro")
        try await search.waitFor { $0.resultsQuery == "gro" }
        #expect(search.state.titles == ["Buy groceries", "Green tea"])
        search.setQuery("groc")
        let state = try await search.waitFor { $0.resultsQuery == "groc" }
        #expect(state.titles == ["Buy groceries", "Green tea"])
        let snippet = state.hits[0].snippet
        #expect(snippet == "Buy \(Queries.matchStart)groc\(Queries.matchEnd)eries")
        #expect(state.hits[1].snippet == "from the \(Queries.matchStart)groc\(Queries.matchEnd)er")
        search.setQuery("groceries")
        #expect(try await search.waitFor { $0.resultsQuery == "groceries" }.titles == ["Buy groceries"])
        search.setQuery("")
        #expect(try await search.waitFor { $0.resultsQuery == "" }.hits.isEmpty)
    }

    @Test func fastTypingEndsWithTheLastQuerysResults() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        for index in 0..<50 { try world.reminder("Item \(index) alpha", in: listID) }
        try world.reminder("Beta blocker", in: listID)
        let search = SearchViewModel(environment: world.environment)
        for text in ["a", "al", "alp", "alph", "alpha", "b", "be", "bet", "beta"] { search.setQuery(text) }
        let state = try await search.waitFor { $0.resultsQuery == "beta" }
        // A sleep on purpose: time for a late answer to an earlier query to
        // (wrongly) replace the results; a dropped answer leaves no trace.
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(search.state == state)
        #expect(state.titles == ["Beta blocker"])
        #expect(!state.isSearching)
    }

    @Test func resultsStayCurrentWhenDataChanges() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        let search = SearchViewModel(environment: world.environment, query: "passport")
        try await search.waitFor { $0.resultsQuery == "passport" }
        #expect(search.state.hits.isEmpty)
        try world.reminder("Renew passport", in: listID)
        try await search.waitFor { $0.titles == ["Renew passport"] }
    }

    @Test func completedMatchesAreCountedShownAndCleared() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        try world.reminder("Report draft", in: listID)
        let done1 = try world.reminder("Report final", in: listID, tags: ["work"])
        let done2 = try world.reminder("Report review", in: listID)
        try world.store.complete(id: done1)
        try world.store.complete(id: done2)
        let search = SearchViewModel(environment: world.environment, query: "report")
        let hidden = try await search.waitFor { $0.resultsQuery == "report" }
        #expect(hidden.titles == ["Report draft"])
        #expect(hidden.completedCount == 2)

        search.toggleShowCompleted()
        let shown = try await search.waitFor { $0.showCompleted && $0.hits.count == 3 }
        #expect(shown.titles == ["Report draft", "Report final", "Report review"])

        let cleared = search.clearCompleted()
        #expect(cleared.message == "Cleared 2 completed reminders")
        try await search.waitFor { $0.completedCount == 0 && $0.titles == ["Report draft"] }
        #expect(search.undo(try #require(cleared.undo)).message == "Restored 2 reminders")
        let restored = try await search.waitFor { $0.completedCount == 2 }
        #expect(restored.hits[1].row.tags == ["work"])
    }

    @Test func tickingAHitCompletesItAfterTheDelay() async throws {
        let world = try World(completionDelay: 0.1)
        let listID = try world.list("Personal")
        let id = try world.reminder("Find keys", in: listID)
        let search = SearchViewModel(environment: world.environment, query: "keys")
        try await search.waitFor { $0.hits.count == 1 }
        #expect(search.toggleCompletion(id: id).undo == .uncomplete(id: id))
        let state = try await search.waitFor { $0.hits.isEmpty }
        #expect(state.completedCount == 1)
    }

    @Test func renamingATagThroughTheTagsScreenUpdatesSearch() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        try world.reminder("Fix the sink", in: listID, tags: ["chores"])
        try world.reminder("Walk the dog", in: listID, tags: ["dog"])
        let tags = TagsViewModel(environment: world.environment)
        let search = SearchViewModel(environment: world.environment, query: "household")
        try await search.waitFor { $0.resultsQuery == "household" }
        #expect(search.state.hits.isEmpty)

        #expect(tags.rename("chores", to: "#household").message == "Renamed #chores to #household")
        let state = try await search.waitFor { $0.titles == ["Fix the sink"] }
        #expect(state.hits[0].row.tags == ["household"])
        #expect(state.hits[0].snippet == "#\(Queries.matchStart)household\(Queries.matchEnd)")
        try await tags.waitFor { $0.tags.map(\.title) == ["dog", "household"] }
    }
}

@Suite struct TagsViewModelTests {
    @Test func createRenameAndDelete() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        try world.reminder("One", in: listID, tags: ["Work"])
        let done = try world.reminder("Two", in: listID, tags: ["Work"])
        try world.store.complete(id: done)
        let tags = TagsViewModel(environment: world.environment)
        let initial = try await tags.waitFor { $0.isLoaded }
        #expect(initial.tags.map(\.title) == ["Work"])
        #expect(initial.tags.map(\.openCount) == [1])

        let created = tags.create("#Ideas")
        #expect(created.createdID == "Ideas")
        try await tags.waitFor { $0.tags.map(\.title) == ["Ideas", "Work"] }
        #expect(tags.create(" ").errorMessage == "tag must not be empty")

        // Renaming onto an existing tag merges them.
        #expect(tags.rename("Work", to: "ideas").succeeded)
        try await tags.waitFor { $0.tags.map(\.title) == ["Ideas"] && $0.tags.map(\.openCount) == [1] }

        #expect(tags.delete("Ideas").message == "Deleted #Ideas")
        try await tags.waitFor { $0.tags.isEmpty }
        #expect(tags.delete("Ideas").errorMessage == "tag 'Ideas' not found")
        #expect(try world.row(done)?.tags == [])
    }

    /// A merge says it merged (the tag keeps the spelling it had), and its
    /// undo parts the two again: each reminder has the tags it had.
    @Test func aMergeAndADeleteAreUndone() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        let both = try world.reminder("Both", in: listID, tags: ["wörk", "Work"])
        let accented = try world.reminder("Accented", in: listID, tags: ["wörk"])
        let plain = try world.reminder("Plain", in: listID, tags: ["Work"])
        let tags = TagsViewModel(environment: world.environment)
        try await tags.waitFor { $0.tags.map(\.title) == ["Work", "wörk"] }

        let merged = tags.rename("wörk", to: "work")
        #expect(merged.message == "Merged #wörk into #Work")
        try await tags.waitFor { $0.tags.map(\.title) == ["Work"] }
        #expect(try world.row(accented)?.tags == ["Work"])
        let undo = try #require(merged.undo)
        let undone = undo.perform(in: world.environment)
        #expect(undone.message == "#wörk is apart from #Work again")
        try await tags.waitFor { $0.tags.map(\.title) == ["Work", "wörk"] }
        #expect(try world.row(both)?.tags.sorted() == ["Work", "wörk"])
        #expect(try world.row(accented)?.tags == ["wörk"])
        #expect(try world.row(plain)?.tags == ["Work"])
        // And again (redo), and back.
        let redo = try #require(undone.undo)
        #expect(redo.perform(in: world.environment).message == "Renamed #wörk to #Work again")
        #expect(try world.row(accented)?.tags == ["Work"])

        // A plain rename's undo takes the new tag away again.
        #expect(tags.create("Someday").succeeded)
        let renamed = tags.rename("Someday", to: "Later")
        #expect(renamed.message == "Renamed #Someday to #Later")
        _ = try #require(renamed.undo).perform(in: world.environment)
        try await tags.waitFor { $0.tags.map(\.title) == ["Someday", "Work"] }

        let deleted = tags.delete("work")
        #expect(deleted.message == "Deleted #Work")
        #expect(try world.row(plain)?.tags == [])
        #expect(try #require(deleted.undo).perform(in: world.environment).message == "Restored #Work on 3 reminders")
        #expect(try world.row(plain)?.tags == ["Work"])
        #expect(try world.row(accented)?.tags == ["Work"])
    }

    @Test func respellingKeepsTheTagAndSearchFindsTheNewSpelling() async throws {
        let world = try World()
        let listID = try world.list("Personal")
        try world.reminder("Espresso", in: listID, tags: ["cafe\u{301}"])
        let tags = TagsViewModel(environment: world.environment)
        try await tags.waitFor { $0.tags.map(\.title) == ["cafe\u{301}"] }
        #expect(tags.create("CAFÉ").succeeded)
        #expect(tags.rename("Café", to: "CAFÉ").succeeded)
        let state = try await tags.waitFor { $0.tags.map(\.title) == ["CAFÉ"] }
        #expect(state.tags.map(\.id) == ["café"])
        #expect(state.tags.map(\.openCount) == [1])
        let search = SearchViewModel(environment: world.environment, query: "CAFÉ")
        try await search.waitFor { $0.titles == ["Espresso"] }
    }

    @Test func unicodeTagsWork() async throws {
        let world = try World()
        let tags = TagsViewModel(environment: world.environment)
        #expect(tags.create("Café ☕️").succeeded)
        #expect(tags.rename("Café ☕️", to: "日本").succeeded)
        try await tags.waitFor { $0.tags.map(\.title) == ["日本"] }
    }
}
