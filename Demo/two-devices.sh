#!/usr/bin/env bash
# Two devices of one user, side by side in tmux, synced live.
#
# Usage: Demo/two-devices.sh [--check] [--keep]
#
# Opens a fresh server directory in a temporary folder and two copies of
# the app on it: `laptop` (left), which starts first and creates the sample
# lists, and `desktop` (right), which joins and fetches them. An edit on
# one side shows on the other within a second, with no key pressed there.
#
#   --check  run unattended: add a list on each side and check that it
#            shows on the other, and that the sample lists exist once;
#            exits non-zero (printing both screens) if not
#   --keep   keep the temporary folder (server and databases) at the end
#
# Needs tmux and a built binary: $REMINDERS_BIN, else .build/debug/reminders
# (`swift build`), else .build/release/reminders (`./run.sh`), else it builds.
# Interactive runs want a terminal at least 161 columns wide and 26 rows high.

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
new_world

start_two_devices "$(cat <<EOF
Two devices of one user ("me"), each its own app and database, one server
directory ($WORLD/server):

  left   laptop    started first and created the sample lists
  right  desktop   joined afterwards and fetched them (no second copy)

What to watch for:
  - Add a list on one side (a, type a name, Enter): it appears on the other
    side within a second, with no key pressed there.
  - Open a list and tick a reminder (Space): the other side follows.
  - The status bar (bottom right) says "synced HH:MM", "syncing…",
    "N pending", and shows a badge when conflicts were resolved.
  - o takes a device offline: its edits pile up as "N pending"; o again
    sends them and the other side catches up.
  - C opens the conflicts screen; ? lists every key.

Click a pane (or Ctrl-b and an arrow) to switch devices; q quits an app.
The demo ends when both apps have quit.
EOF
)"

# --check: the joining device did not seed a second copy…
for pane in "$LAPTOP" "$DESKTOP"; do
  for list in Personal Work Groceries; do
    count=$(pane_text "$pane" | grep -c "^  ● $list " || true)
    [[ "$count" == 1 ]] || fail "pane $pane shows the list $list $count times (expected once)"
  done
done

# …an edit on the laptop reaches the desktop with no key pressed there…
keys "$LAPTOP" a
wait_for "$LAPTOP" "New List" 5 || fail "the laptop's list form did not open"
type_text "$LAPTOP" "Garden"
keys "$LAPTOP" Enter
wait_for "$LAPTOP" "● Garden" 5 || fail "the laptop did not add the list"
start=$(date +%s%N)
wait_for "$DESKTOP" "● Garden" 3 || fail "the new list did not reach the desktop within 3 s"
took=$(( ($(date +%s%N) - start) / 1000000 ))

# …and one on the desktop reaches the laptop.
keys "$DESKTOP" a
wait_for "$DESKTOP" "New List" 5 || fail "the desktop's list form did not open"
type_text "$DESKTOP" "Books"
keys "$DESKTOP" Enter
wait_for "$LAPTOP" "● Books" 3 || fail "the desktop's new list did not reach the laptop within 3 s"

say "two-devices: OK (the laptop's new list showed on the desktop after ${took} ms)"
