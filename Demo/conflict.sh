#!/usr/bin/env bash
# A conflict, step by step: two devices of one user edit the same reminder
# while offline, then come back online and converge.
#
# Usage: Demo/conflict.sh [--check] [--keep]
#
# Opens `laptop` (left) and `desktop` (right) on a fresh server, as
# Demo/two-devices.sh does, with a narrator pane below that explains each
# step and does it when you press Enter:
#   1. both devices go offline (o);
#   2. the laptop renames "Milk" to "Oat milk" and flags it;
#   3. the desktop renames it to "Buy milk" and gives it a priority;
#   4. the laptop goes online and sends its edits;
#   5. the desktop goes online: its merge keeps each side's other field and,
#      for the title both changed, the later edit ("Buy milk");
#   6. the desktop's conflicts screen shows the title conflict: ancestor,
#      both values, their times and devices, who won and why.
#
#   --check  run the steps unattended and exit non-zero (printing both
#            screens) unless the screens show the expected result
#   --keep   keep the temporary folder (server and databases) at the end
#
# Needs tmux and a built binary (see Demo/two-devices.sh). Interactive runs
# want a terminal at least 161 columns wide and 36 rows high.

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Each step: a title, what to watch for, the keys, and the check that the
# screens show the result. In the narrator pane a failed check is reported
# and the walkthrough goes on; with --check it ends the run.

problem() {
  if [[ "$NARRATE" == 1 ]]; then
    printf '  (not as expected: %s)\n' "$*"
  else
    fail "$*"
  fi
}

# Opens the search, finds "Milk" and opens its form.
edit_milk() {
  local pane="$1"
  keys "$pane" /
  wait_for "$pane" "Search" 5 || problem "the search did not open"
  type_text "$pane" "Milk"
  wait_for "$pane" "Oat, 2 cartons" 5 || problem "the search did not find Milk"
  keys "$pane" Enter
  keys "$pane" e
  wait_for "$pane" "Edit Reminder" 5 || problem "the reminder form did not open"
  keys "$pane" C-u
}

step1() {
  keys "$LAPTOP" o
  keys "$DESKTOP" o
  wait_for "$LAPTOP" "· offline" 5 || problem "the laptop's status bar does not say offline"
  wait_for "$DESKTOP" "· offline" 5 || problem "the desktop's status bar does not say offline"
}

step2() {
  edit_milk "$LAPTOP"
  type_text "$LAPTOP" "Oat milk"
  keys "$LAPTOP" Enter
  wait_for_not "$LAPTOP" "Edit Reminder" 5 || problem "the laptop's form did not save"
  keys "$LAPTOP" f
  wait_for "$LAPTOP" "1 pending" 5 || problem "the laptop's edits are not pending"
  wait_for "$LAPTOP" "Oat milk" 5 || problem "the laptop does not show Oat milk"
}

step3() {
  edit_milk "$DESKTOP"
  type_text "$DESKTOP" "Buy milk"
  # Tab to the priority (title, notes, date, time, repeat, alert, priority), one step up.
  keys "$DESKTOP" Tab Tab Tab Tab Tab Tab Right Enter
  wait_for_not "$DESKTOP" "Edit Reminder" 5 || problem "the desktop's form did not save"
  wait_for "$DESKTOP" "1 pending" 5 || problem "the desktop's edit is not pending"
  wait_for "$DESKTOP" "Buy milk" 5 || problem "the desktop does not show Buy milk"
  if pane_text "$LAPTOP" | grep -qF "Buy milk"; then problem "the laptop saw the desktop's edit while offline"; fi
}

step4() {
  keys "$LAPTOP" o
  wait_synced "$LAPTOP" 10 || problem "the laptop did not send its edits"
  # The desktop is still offline: it has not fetched them.
  sleep 0.3
  if pane_text "$DESKTOP" | grep -qF "Oat milk"; then problem "the desktop fetched while offline"; fi
}

step5() {
  keys "$DESKTOP" o
  wait_for "$DESKTOP" "Conflict on “Buy milk” (Title)" 10 || problem "the desktop did not announce the conflict"
  wait_synced "$DESKTOP" 10 || problem "the desktop did not sync"
  wait_for_not "$LAPTOP" "Oat milk" 5 || problem "the laptop still shows Oat milk"
  wait_for "$LAPTOP" "Buy milk" 5 || problem "the laptop does not show Buy milk"
  # Each side's other field survived: the laptop's flag, the desktop's priority.
  for pane in "$LAPTOP" "$DESKTOP"; do
    pane_text "$pane" | grep -E "! Buy milk" | grep -qF "⚑" \
      || problem "pane $pane does not show Buy milk with the flag and the priority"
  done
}

step6() {
  keys "$DESKTOP" C
  wait_for "$DESKTOP" "CONFLICTS" 5 || problem "the conflicts screen did not open"
  for text in "Reminder “Buy milk” · Title" "this device won" "Ancestor" "Milk" "Oat milk" "laptop" \
              "✓ Kept this device's value: this device's edit is the later one."; do
    wait_for "$DESKTOP" "$text" 3 || problem "the conflicts screen does not show '$text'"
  done
}

steps=(step1 step2 step3 step4 step5 step6)
titles=(
  "Both devices go offline (o in each)."
  "The laptop renames “Milk” to “Oat milk” and flags it (/ Milk, e, type, Enter, f)."
  "The desktop renames the same reminder to “Buy milk” and sets its priority to low (Tab to Priority, →, Enter)."
  "The laptop goes back online (o) and sends its two edits."
  "The desktop goes back online (o): it fetches the laptop's edits and merges them with its own."
  "The desktop opens its conflicts screen (C)."
)
watch=(
  "Both status bars say “offline”; edits will wait as “pending”."
  "The laptop's status bar says “1 pending” (one reminder, two fields); nothing reaches the desktop."
  "The desktop counts its pending edit; neither side sees the other's change."
  "The laptop says “synced”; the desktop, still offline, still shows “Buy milk” alone."
  "A toast on the desktop: the title conflict, resolved. Both sides converge: “Buy milk” (the later title), flagged ⚑ (laptop), priority ! (desktop)."
  "The title conflict: ancestor “Milk”, this device “Buy milk”, the other device “Oat milk”, with times and devices, who won and why. r would keep “Oat milk” instead, d dismisses."
)

run_steps() {
  local index
  for index in "${!steps[@]}"; do
    if [[ "$NARRATE" == 1 ]]; then
      printf '\n\033[1mStep %d of %d.\033[0m %s\n' $((index + 1)) "${#steps[@]}" "${titles[$index]}"
      read -r -p "Press Enter to do it… " _
      "${steps[$index]}"
      printf 'Watch: %s\n' "${watch[$index]}"
    else
      "${steps[$index]}"
      say "ok: step $((index + 1)): ${titles[$index]}"
    fi
  done
}

if [[ "$NARRATE" == 1 ]]; then
  # Inside the demo's tmux: the script that opened it passed the panes.
  : "${DEMO_SOCKET:?}" "${LAPTOP:?}" "${DESKTOP:?}"
  clear
  printf 'A conflict, step by step. laptop is on the left, desktop on the right.\n'
  printf 'Press Enter for each step; click a pane to use an app yourself.\n'
  run_steps
  printf '\nDone. Look around (? lists the keys). Press Enter here, or quit both apps, to end the demo.\n'
  # Ends the session when the user is done, or when both apps are gone.
  while ! read -r -t 0.5 _; do
    panes=$(t list-panes -s -t "$DEMO_SESSION" -F '#{pane_id}' 2>/dev/null || true)
    grep -qxF -e "$LAPTOP" -e "$DESKTOP" <<<"$panes" || break
  done
  t kill-session -t "$DEMO_SESSION" >/dev/null 2>&1 || true
  exit 0
fi

new_world
DEMO_MIN_HEIGHT=36  # the narrator pane takes 10 rows
if [[ "$CHECK" == 1 ]]; then
  open_two_devices
  run_steps
  say "conflict: OK"
  exit 0
fi

cat <<EOF
A conflict between two devices of one user ("me"), on a fresh server in
$WORLD/server.

A narrator pane at the bottom explains each step and does it when you press
Enter there. Watch both status bars, the toast on the desktop, and finally
its conflicts screen. Click a pane (or Ctrl-b and an arrow) to switch; q quits
an app, and the demo ends when both have quit.
EOF
if [[ -t 0 ]]; then
  read -r -p "Press Enter to start… " _
fi
open_two_devices
narrator=$(t split-window -v -f -l 9 -t "$LAPTOP" -P -F '#{pane_id}' \
  "env DEMO_SOCKET=$DEMO_SOCKET LAPTOP=$LAPTOP DESKTOP=$DESKTOP REMINDERS_BIN=$(printf %q "$BIN") bash $(printf %q "$DEMO_ROOT/Demo/conflict.sh") --narrate")
t select-pane -t "$narrator" -T "narrator"
attach
