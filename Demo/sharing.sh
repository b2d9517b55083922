#!/usr/bin/env bash
# Two users sharing a list: alice (left) and bob (right), synced live.
#
# Usage: Demo/sharing.sh [--check] [--keep]
#
# With the command line first: alice seeds the sample lists and syncs,
# shares "Groceries" with bob (`reminders share`), and bob accepts
# (`reminders accept`). Then both apps open side by side on the same
# server directory: alice's Home shows "Shared with bob", bob's shows
# "Groceries  Shared by alice". A reminder alice adds to Groceries shows
# in bob's pane within a second, with no key pressed there.
#
#   --check  run unattended: add a reminder in alice's pane and check that
#            it shows in bob's; exits non-zero (printing both screens) if not
#   --keep   keep the temporary folder (server and databases) at the end
#
# Needs tmux and a built binary: $REMINDERS_BIN, else .build/debug/reminders
# (`swift build`), else .build/release/reminders (`./run.sh`), else it builds.
# Interactive runs want a terminal at least 161 columns wide and 26 rows high.

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
new_world

# One user's device on the command line, for the steps before the apps open.
cli() {
  local user="$1" device="$2"
  shift 2
  env XDG_DATA_HOME="$WORLD/data" "$BIN" "$@" --server "$WORLD/server" --user "$user" --device "$device" \
    --db "$WORLD/$device.sqlite"
}

if [[ "$CHECK" == 0 ]]; then
  cat <<TEXT
Two users, alice and bob, each with their own app and database, one server
directory ($WORLD/server). Before the apps open, the command line:

  alice: reminders seed; reminders sync; reminders share Groceries --with bob
  bob:   reminders accept <share id>

What to watch for:
  - alice's Home (left) shows "Groceries  Shared with bob"; bob's (right)
    shows "Groceries  Shared by alice".
  - Open Groceries on both sides; add a reminder on alice's side (a, type,
    Enter): it shows on bob's side within a second, with no key pressed.
  - S on a list opens its Sharing screen: participants with permission and
    status; alice can invite (i; Tab picks read-only / read-write), switch
    permission (p), remove (d) or stop sharing (X). Make bob read-only (p):
    bob's Home says "· read-only" and his edit keys answer
    "read-only: shared by alice".
  - Invitations to bob show in an INVITATIONS section on his Home
    (Enter accepts, d declines).

Click a pane (or Ctrl-b and an arrow) to switch users; q quits an app.
The demo ends when both apps have quit.
TEXT
  if [[ -t 0 ]]; then
    read -r -p "Press Enter to start… " _
  fi
fi

say "alice: seed, sync, share Groceries with bob…"
cli alice mac seed >/dev/null || fail "alice could not seed"
cli alice mac sync >/dev/null || fail "alice could not sync"
SHARE_ID=$(cli alice mac share Groceries --with bob) || fail "alice could not share Groceries"
say "bob: accept $SHARE_ID…"
cli bob phone accept "$SHARE_ID" >/dev/null || fail "bob could not accept the share"
cli bob phone sync >/dev/null || fail "bob could not sync"

width=200 height=30
if [[ "$CHECK" == 0 ]] && [[ -t 1 ]]; then
  width=$(tput cols 2>/dev/null || echo 200)
  height=$(tput lines 2>/dev/null || echo 30)
fi
ALICE=$(t -u new-session -d -s "$DEMO_SESSION" -x "$width" -y "$height" -P -F '#{pane_id}' "$(device_command mac alice)")
DEMO_PANES=("$ALICE")
t set-option -t "$DEMO_SESSION" remain-on-exit on >/dev/null
t set-option -t "$DEMO_SESSION" pane-border-status top >/dev/null
t set-option -t "$DEMO_SESSION" pane-border-format ' #{pane_title} ' >/dev/null
t set-option -t "$DEMO_SESSION" status off >/dev/null
t set-option -t "$DEMO_SESSION" mouse on >/dev/null
t select-pane -t "$ALICE" -T "alice (mac)"
BOB=$(t split-window -h -t "$ALICE" -P -F '#{pane_id}' "$(device_command phone bob)")
DEMO_PANES=("$ALICE" "$BOB")
t select-pane -t "$BOB" -T "bob (phone)"
wait_for "$ALICE" "MY LISTS" 20 || fail "alice's app did not start"
wait_for "$BOB" "MY LISTS" 20 || fail "bob's app did not start"
wait_for "$ALICE" "Shared with bob" 10 || fail "alice's Home does not show 'Shared with bob'"
wait_for "$BOB" "Shared by alice" 10 || fail "bob's Home does not show 'Shared by alice'"

if [[ "$CHECK" == 0 ]]; then
  attach
  exit 0
fi

# Selects a list on Home by its title (five smart lists, then My Lists)
# and opens it; when a key went astray and another list opened, goes back
# and moves by the difference.
list_ordinal() {
  pane_text "$1" | grep -E '^ +● ' | grep -nF -- "● $2" | head -n 1 | cut -d: -f1
}
open_list() {
  local pane="$1" title="$2"
  local ordinal opened
  ordinal=$(list_ordinal "$pane" "$title" || true)
  [[ -n "$ordinal" ]] || fail "pane $pane does not show the list $title"
  local home
  home="$(pane_text "$pane")"
  for ((i = 0; i < 4 + ordinal; i++)); do keys "$pane" j; sleep 0.05; done
  for attempt in 1 2 3 4; do
    keys "$pane" Enter
    wait_for "$pane" "Reminders › " 5 || fail "pane $pane did not open a list"
    opened=$(pane_text "$pane" | head -n 1 | sed -e 's/.*Reminders › //' -e 's/  .*//' -e 's/ *$//')
    [[ "$opened" == "$title" ]] && return 0
    keys "$pane" q
    wait_for "$pane" "MY LISTS" 5 || fail "pane $pane did not go back to Home"
    local other
    other=$(printf '%s\n' "$home" | grep -E '^ +● ' | grep -nF -- "● $opened" | head -n 1 | cut -d: -f1 || true)
    [[ -n "$other" ]] || other=0
    local step=j count=$((ordinal - other))
    ((count < 0)) && { step=k; count=$((-count)); }
    ((other == 0)) && { keys "$pane" g; sleep 0.05; count=$((4 + ordinal)); step=j; }
    for ((i = 0; i < count; i++)); do keys "$pane" "$step"; sleep 0.05; done
  done
  fail "pane $pane did not open $title"
}

sleep 1
open_list "$ALICE" Groceries
open_list "$BOB" Groceries
sleep 0.5
if pane_text "$BOB" | grep -qF "Oat milk"; then fail "bob's pane shows 'Oat milk' before alice added it"; fi

keys "$ALICE" a
wait_for "$ALICE" "New Reminder" 5 || fail "alice's reminder form did not open"
type_text "$ALICE" "Oat milk"
keys "$ALICE" Enter
wait_for "$ALICE" "Oat milk" 5 || fail "alice did not add the reminder"
start=$(date +%s%N)
wait_for "$BOB" "Oat milk" 5 || fail "alice's new reminder did not reach bob's pane within 5 s"
took=$(( ($(date +%s%N) - start) / 1000000 ))

say "sharing: OK (bob's Home showed 'Shared by alice'; alice's reminder showed in bob's pane after ${took} ms)"
