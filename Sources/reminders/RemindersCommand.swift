import ArgumentParser

/// `reminders`: the root command. Subcommands are listed here; each lives in
/// the file of its group (ListCommands.swift, ReminderCommands.swift, ...).
struct RemindersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminders",
        abstract: "Reminders in your terminal, synced between devices.",
        discussion: """
            LIST and REMINDER arguments take a full id, a unique id prefix of 4 or \
            more characters, or a unique exact title (case is ignored).

            DATE is YYYY-MM-DD or YYYY-MM-DDTHH:MM, a wall-clock time that stays \
            the same in every time zone.

            Environment: REMINDERS_SERVER, REMINDERS_USER, REMINDERS_DEVICE and \
            REMINDERS_DB stand in for the options of the same names; \
            XDG_DATA_HOME moves the data directory; REMINDERS_NOW (ISO 8601) \
            pins the clock.

            Config file: $XDG_CONFIG_HOME/reminders/config.toml (or --config \
            FILE, or REMINDERS_CONFIG) sets the default list, due hour, notify \
            command, server, user, keys and colours; an option wins over the \
            environment, which wins over the file. `reminders config` shows \
            what is in effect and where it came from.

            Exit codes: 0 success, 1 runtime error, 2 bad usage or an unknown or \
            ambiguous LIST/REMINDER, 3 permission denied, 4 server unavailable.
            """,
        version: "0.1.0",
        subcommands: [
            SeedCommand.self,
            ListsCommand.self,
            ListCommand.self,
            AddCommand.self,
            EditCommand.self,
            CompleteCommand.self,
            UncompleteCommand.self,
            DeleteCommand.self,
            UndoCommand.self,
            ShowCommand.self,
            DueCommand.self,
            AlertsCommand.self,
            SearchCommand.self,
            TagsCommand.self,
            TagCommand.self,
            ExportCommand.self,
            ImportCommand.self,
            ClearCompletedCommand.self,
            TUICommand.self,
            SyncCommand.self,
            StatusCommand.self,
            ConflictsCommand.self,
            ShareCommand.self,
            UnshareCommand.self,
            SharesCommand.self,
            AcceptCommand.self,
            LeaveCommand.self,
            ServerCommand.self,
            ServeCommand.self,
            LoginCommand.self,
            ConfigCommand.self,
        ],
        defaultSubcommand: TUICommand.self
    )
}
