import Testing
@testable import RemindersTUI

/// Screens rendered off-screen for fixed data (the sample lists, the clock
/// pinned to Wednesday 4 March 2026 10:00 UTC) and compared as text.
@Suite struct SnapshotTests {
    /// Home: smart lists with counts (past due in red), My Lists, tags.
    @Test func homeAt80x24() throws {
        let world = try TestWorld(width: 80, height: 24)
        expectSnapshot(world.text, #"""
         Reminders                                                               ? help

          SMART LISTS
          ◉ Today                                                    2 past due  5
          ◷ Scheduled                                                            9
          ☰ All                                                                 12
          ⚑ Flagged                                                              3
          ✓ Completed                                                            1

          MY LISTS
          ● Personal                                                             4
          ● Work                                                                 4
          ● Groceries                                                            4

          TAGS
          # errands                                                              2
          # family                                                               1
          # health                                                               1
          # reading                                                              1
          # work                                                                 3
          # writing                                                              1


         n quick add  q quit  a new list  Enter open             me@laptop · local only
        """#)
    }

    /// Home on a larger terminal.
    @Test func homeAt120x40() throws {
        let world = try TestWorld(width: 120, height: 40)
        expectSnapshot(world.text, #"""
         Reminders                                                                                                       ? help

          SMART LISTS                                 │  Today                                                    5 reminders
          ◉ Today                      2 past due  5  │
          ◷ Scheduled                              9  │ [ ] !!! Renew passport                     Mon 2 Mar        #errands
          ☰ All                                   12  │     ● Personal · Photos are in the desk drawer
          ⚑ Flagged                                3  │ [ ] ! Expense receipts                     Yesterday 17:00  #errands
          ✓ Completed                              1  │     ● Work
                                                      │ [ ] Milk                                   Today
          MY LISTS                                    │     ● Groceries · Oat, 2 cartons
          ● Personal                               4  │ [ ] !!! Prepare sprint demo                Today 14:30      #work    ⚑
          ● Work                                   4  │     ● Work · Show sync between two terminals
          ● Groceries                              4  │ [ ] Call mom                               Today 18:00      #family  ⚑
                                                      │     ● Personal · Ask about the weekend
          TAGS                                        │
          # errands                                2  │
          # family                                 1  │
          # health                                 1  │
          # reading                                1  │
          # work                                   3  │
          # writing                                1  │
                                                      │
                                                      │
                                                      │
                                                      │
                                                      │
                                                      │
                                                      │
                                                      │
                                                      │
                                                      │
                                                      │
                                                      │
                                                      │
                                                      │
                                                      │
                                                      │
                                                      │

         n quick add  q quit  a new list  Enter open  / search                                           me@laptop · local only
        """#)
    }

    /// A list: cover, title, sort line, rows with priority, due dates, tags, flags, notes.
    @Test func listWithCoverAt80x24() throws {
        let world = try TestWorld(width: 80, height: 24)
        world.openList("Work")
        expectSnapshot(world.text, #"""
         Reminders › Work                                                        ? help
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
          Work                                                             4 reminders
          Sort: Manual
         ──────────────────────────────────────────────────────────────────────────────
         [ ] !!! Prepare sprint demo                  Today 14:30      #work          ⚑
             Show sync between two terminals
         [ ] !! Review pull requests                  Tomorrow 10:00   #work
         [ ] Write quarterly report                   Wed 11 Mar       #work #writing
             Numbers from the benchmark table
         [ ] ! Expense receipts                       Yesterday 17:00  #errands









         n quick add  a new  e edit  Space done  f flag          me@laptop · local only
        """#)
    }

    /// The same list with a taller cover.
    @Test func listWithCoverAt120x40() throws {
        let world = try TestWorld(width: 120, height: 40)
        world.openList("Work")
        expectSnapshot(world.text, #"""
         Reminders › Work                                                                                                ? help
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
          Work                                                                                                     4 reminders
          Sort: Manual
         ──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────
         [ ] !!! Prepare sprint demo                                                          Today 14:30      #work          ⚑
             Show sync between two terminals
         [ ] !! Review pull requests                                                          Tomorrow 10:00   #work
         [ ] Write quarterly report                                                           Wed 11 Mar       #work #writing
             Numbers from the benchmark table
         [ ] ! Expense receipts                                                               Yesterday 17:00  #errands






















         n quick add  a new  e edit  Space done  f flag  d delete  s sort  c completed  q back           me@laptop · local only
        """#)
    }

    /// A smart list shows each reminder's list.
    @Test func todayAt120x40() throws {
        let world = try TestWorld(width: 120, height: 40)
        world.press(.enter)
        expectSnapshot(world.text, #"""
         Reminders › Today                                                                                               ? help
          Today                                                                                                    5 reminders
          Sort: Due Date
         ──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────
         [ ] !!! Renew passport                                                                     Mon 2 Mar        #errands
             ● Personal · Photos are in the desk drawer
         [ ] ! Expense receipts                                                                     Yesterday 17:00  #errands
             ● Work
         [ ] Milk                                                                                   Today
             ● Groceries · Oat, 2 cartons
         [ ] !!! Prepare sprint demo                                                                Today 14:30      #work    ⚑
             ● Work · Show sync between two terminals
         [ ] Call mom                                                                               Today 18:00      #family  ⚑
             ● Personal · Ask about the weekend

























         n quick add  a new  e edit  Space done  f flag  d delete  s sort  c completed  q back           me@laptop · local only
        """#)
    }

    /// Completed reminders shown at the end.
    @Test func completedShownAt80x24() throws {
        let world = try TestWorld(width: 80, height: 24)
        world.openList("Groceries")
        world.press(.character("c"))
        expectSnapshot(world.text, #"""
         Reminders › Groceries                                                   ? help
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
          Groceries                                                        4 reminders
          Sort: Manual · 1 completed (shown)
         ──────────────────────────────────────────────────────────────────────────────
         [ ] Milk                                                            Today
             Oat, 2 cartons
         [ ] Coffee beans                                                             ⚑
         [ ] Tomatoes
         [ ] Bread                                                           Tomorrow
             Sourdough
         [✓] Eggs







                                                                     Showing completed
         n quick add  a new  e edit  Space done  f flag          me@laptop · local only
        """#)
    }

    /// The reminder form, pre-filled with the list it was opened from.
    @Test func newReminderFormAt80x24() throws {
        let world = try TestWorld(width: 80, height: 24)
        world.openList("Groceries")
        world.press(.character("a"))
        expectSnapshot(world.text, #"""
         Reminders › Groceries › New Reminder                                    ? help

          Title       What to remember

          Notes       Notes (Enter for a new line)





          Due         date e.g. fri 9am        time e.g. 9pm

          Repeat      never                           alert ‹ At due time ›

          Priority     none   ! low   !! medium   !!! high
          Flag        [ ] not flagged
          List        ‹ ● Groceries ›  3/3
          Tags        none





         Tab next  ^S save  Esc cancel  ^X ^E editor             me@laptop · local only
        """#)
    }

    /// Editing a reminder with notes, a due time, tags and a flag.
    @Test func editReminderFormAt120x40() throws {
        let world = try TestWorld(width: 120, height: 40)
        // Today, by due date: Call mom, due today 18:00, comes last.
        world.press(.enter, .character("G"), .enter)
        expectSnapshot(world.text, #"""
         Reminders › Today › Edit Reminder                                                                               ? help

          Title       Call mom

          Notes       Ask about the weekend










          Due         date 2026-03-04          time 18:00     → Today 18:00

          Repeat      never                           alert ‹ At due time ›

          Priority     none   ! low   !! medium   !!! high
          Flag        [⚑] flagged
          List        ‹ ● Personal ›  1/3
          Tags        #family
















         Tab next  ^S save  Esc cancel  ^X ^E editor                                                     me@laptop · local only
        """#)
    }

    /// Long notes in a short form show how they begin until the notes are
    /// being edited; then the lines around the cursor, at their end.
    @Test func notesNotBeingEditedShowTheirBeginning() throws {
        let world = try TestWorld(width: 60, height: 20)
        let lines = (1...8).map { "Line \($0) of a note long enough to scroll" }
        try world.store.writer.write { db in
            try db.execute(sql: "UPDATE reminders SET notes = ? WHERE title = 'Call mom'", arguments: [lines.joined(separator: "\n")])
        }
        world.press(.enter, .character("G"), .enter)
        let form = world.text
        #expect(form.contains("Notes       Line 1 of a note"), "\(form)")
        #expect(!form.contains("Line 8"), "\(form)")
        world.press(.tab)
        let editing = world.text
        #expect(editing.contains("Line 8 of a note"), "\(editing)")
        #expect(!editing.contains("Line 1 of a note"), "\(editing)")
    }

    /// The list form: title, palette, covers.
    @Test func newListFormAt80x24() throws {
        let world = try TestWorld(width: 80, height: 24)
        world.press(.character("a"))
        expectSnapshot(world.text, #"""
         Reminders › New List                                                    ? help

          Title       List name

          Color        ●  ● [●] ●  ●  ●  ●  ●   orange

          Cover       [none]  sunrise   forest   ocean   file…
















         Tab next  ^S save  Esc cancel                           me@laptop · local only
        """#)
    }

    /// Editing a list with a cover: the preview is drawn.
    @Test func editListFormWithCoverAt80x24() throws {
        let world = try TestWorld(width: 80, height: 24)
        world.selectList("Personal")
        world.press(.character("e"))
        expectSnapshot(world.text, #"""
         Reminders › Edit List                                                   ? help

          Title       Personal

          Color       [●] ●  ●  ●  ●  ●  ●  ●   blue

          Cover        none  [current]  sunrise   forest   ocean   file…

                      ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
                      ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
                      ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
                      ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
                      ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
                      ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀









         Tab next  ^S save  Esc cancel                           me@laptop · local only
        """#)
    }

    /// Tags with their open counts.
    @Test func tagsAt80x24() throws {
        let world = try TestWorld(width: 80, height: 24)
        world.press(.character("t"))
        expectSnapshot(world.text, #"""
         Reminders › Tags                                                        ? help

          TAGS                                                                  6 tags

          # errands                                                             2 open
          # family                                                              1 open
          # health                                                              1 open
          # reading                                                             1 open
          # work                                                                3 open
          # writing                                                             1 open













         a new  r rename  d delete  Enter open  q back           me@laptop · local only
        """#)
    }

    /// Search as you type.
    @Test func searchAt80x24() throws {
        let world = try TestWorld(width: 80, height: 24)
        world.press(.character("/"))
        world.type("re")
        expectSnapshot(world.text, #"""
         Reminders › Search                                                      ? help

          Search  re
                  7 matches
         ──────────────────────────────────────────────────────────────────────────────
        ›[ ] Bread                                    Tomorrow
        ›    ● Groceries · Sourdough
         [ ] ! Expense receipts                       Yesterday 17:00  #errands
             ● Work
         [ ] !!! Prepare sprint demo                  Today 14:30      #work          ⚑
             ● Work · Show sync between two terminals
         [ ] ! Read "The Pragmatic Programmer"                         #reading
             ● Personal · Chapters 4 and 5
         [ ] !!! Renew passport                       Mon 2 Mar        #errands
             ● Personal · Photos are in the desk drawer
         [ ] !! Review pull requests                  Tomorrow 10:00   #work
             ● Work
         [ ] Write quarterly report                   Wed 11 Mar       #work #writing
             ● Work · Numbers from the benchmark table




         ↓ results  Esc back  ^T completed                       me@laptop · local only
        """#)
    }

    /// The help overlay, filtered.
    @Test func helpFilteredAt80x24() throws {
        let world = try TestWorld(width: 80, height: 24)
        world.press(.character("?"))
        world.type("flag")
        expectSnapshot(world.text, #"""
         Reminders                                                               ? help
          ╭─ Keys ───────────────────────────────────────────────────────────────────╮
          │ Filter: flag                                                             │
          │                                                                          │
          │ Everywhere                                                               │
          │   u               Undo: delete, completion, flag, priority, snooze, edit │
          │                                                                          │
          │ ON OTHER SCREENS                                                         │
          │                                                                          │
          │ List                                                                     │
          │   f               Flag / unflag                                          │
          │                                                                          │
          │ Search results                                                           │
          │   u               Undo: delete, completion, flag, priority, snooze, edit │
          │   f               Flag / unflag                                          │
          │                                                                          │
          │ Flag                                                                     │
          │   Space           Flag / unflag                                          │
          │                                                                          │
          │ Due alerts                                                               │
          │   u               Undo: delete, completion, flag, priority, snooze, edit │
          │ ↑↓ scroll · Esc clear the filter · 17/18                                 │
          ╰──────────────────────────────────────────────────────────────────────────╯
         Esc close                                               me@laptop · local only
        """#)
    }

    /// Deleting a list asks first.
    @Test func deleteListConfirmationAt80x24() throws {
        let world = try TestWorld(width: 80, height: 24)
        world.selectList("Personal")
        world.press(.character("d"))
        expectSnapshot(world.text, #"""
         Reminders                                                               ? help

          SMART LISTS
          ◉ Today                                                    2 past due  5
          ◷ Scheduled                                                            9
          ☰ All                                                                 12
          ⚑ Flagged                                                              3
          ✓ Completed                                                            1

          MY LISTS        ╭─ Delete list ────────────────────────────╮
          ● Personal      │ Delete “Personal” and its 4 reminders?   │           4
          ● Work          │ u undoes it afterwards.                  │           4
          ● Groceries     │                                          │           4
                          │                    y Delete    n Cancel  │
          TAGS            ╰──────────────────────────────────────────╯
          # errands                                                              2
          # family                                                               1
          # health                                                               1
          # reading                                                              1
          # work                                                                 3
          # writing                                                              1


         y yes  n no                                             me@laptop · local only
        """#)
    }

    /// The sort menu.
    @Test func sortMenuAt80x24() throws {
        let world = try TestWorld(width: 80, height: 24)
        world.openList("Work")
        world.press(.character("s"))
        expectSnapshot(world.text, #"""
         Reminders › Work                                                        ? help
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
        ▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀
          Work                                                             4 reminders
          Sort: Manual
         ──────────────────────────────────────────────────────────────────────────────
         [ ] !!! Prepare sprint demo                  Today 14:30      #work          ⚑
             Show sync between tw╭─ Sort by ──────────────────╮
         [ ] !! Review pull reque│ ▸ Manual                 m │10:00   #work
         [ ] Write quarterly repo│   Due Date               d │r       #work #writing
             Numbers from the ben│   Priority               p │
         [ ] ! Expense receipts  │   Title                  t │ 17:00  #errands
                                 ╰────────────────────────────╯








         Enter choose  Esc close                                 me@laptop · local only
        """#)
    }

    /// Picking tags in the reminder form.
    @Test func tagPickerAt80x24() throws {
        let world = try TestWorld(width: 80, height: 24)
        world.press(.enter, .character("G"), .enter, .tab, .tab, .tab, .tab, .tab, .tab, .tab, .tab, .tab, .character(" "))
        expectSnapshot(world.text, #"""
         Reminders › Today › Edit Reminder                                       ? help

          Title       Call mom

          Notes       Ask about the weekend

                       ╭─ Tags ─────────────────────────────────────────╮
                       │ # type to find or create a tag                 │
                       │                                                │
                       │ [ ] #errands                                   │
          Due         d│ [x] #family                                    │00
                       │ [ ] #health                                    │
          Repeat      n│ [ ] #reading                                   │ ›
                       │ [ ] #work                                      │
          Priority     │ [ ] #writing                                   │
          Flag        [│ Enter pick/create · Space toggle · Esc done    │
          List        ‹╰────────────────────────────────────────────────╯
          Tags        #family   Space: pick or create





         Enter pick  Esc done                                    me@laptop · local only
        """#)
    }

    /// Below 60x20 the app asks for more room.
    @Test func tooSmall() throws {
        let world = try TestWorld(width: 59, height: 19)
        expectSnapshot(world.text, #"""









         Please enlarge the terminal to at least 60x20 (now 59x19)









        """#)
    }
}

/// Compares screen text line by line, naming the first line that differs.
func expectSnapshot(_ actual: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let actualLines = actual.components(separatedBy: "\n")
    let expectedLines = expected.components(separatedBy: "\n")
    for index in 0..<max(actualLines.count, expectedLines.count) {
        let a = index < actualLines.count ? actualLines[index] : "<missing>"
        let e = index < expectedLines.count ? expectedLines[index] : "<missing>"
        if a != e {
            Issue.record("line \(index + 1) differs:\n  actual:   \(a)\n  expected: \(e)\n\nwhole screen:\n\(actual)", sourceLocation: sourceLocation)
            return
        }
    }
}
