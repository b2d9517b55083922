// RemindersTUI
