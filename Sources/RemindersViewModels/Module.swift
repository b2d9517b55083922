// RemindersViewModels
