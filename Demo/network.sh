#!/usr/bin/env bash
# A network service and two devices, as on three machines: `reminders
# serve` in the background, and two apps side by side in tmux that reach it
# by URL, each signed in with the account's secret and keeping its own
# credentials.
#
# Usage: Demo/network.sh [--check] [--keep]
#
#   --check  run unattended: an edit on one device shows on the other; the
#            server is stopped, an edit waits as pending, the server starts
#            again and the edit arrives; exits non-zero (printing both
#            screens) if not
#   --keep   keep the temporary folder (store, databases, credentials)
#
# Needs tmux and a built binary (see Demo/two-devices.sh). Interactive runs
# want a terminal at least 161 columns wide and 26 rows high.

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
new_world

# The service: an account, then the server on a free loopback port (the
# same port when it starts again).
SECRET=$("$BIN" serve user add me --store "$WORLD/store" | tail -n 1)
start_server() {
  : >"$WORLD/serve.log"
  "$BIN" serve --store "$WORLD/store" --listen "127.0.0.1:${PORT:-0}" >>"$WORLD/serve.log" 2>&1 &
  SERVER_PID=$!
  local deadline=$((SECONDS + 20))
  until grep -q "serving .* on http://127.0.0.1:" "$WORLD/serve.log" 2>/dev/null; do
    ((SECONDS <= deadline)) || fail "reminders serve did not start (see $WORLD/serve.log)"
    sleep 0.05
  done
  PORT=$(grep -o "on http://127.0.0.1:[0-9]*" "$WORLD/serve.log" | tail -n 1 | cut -d: -f3)
}
start_server
DEMO_SERVER="http://127.0.0.1:$PORT"
for device in laptop desktop; do
  printf '%s\n' "$SECRET" | XDG_CONFIG_HOME="$WORLD/config-$device" "$BIN" login "$DEMO_SERVER" --user me >/dev/null
done

start_two_devices "$(cat <<EOF
A server at $DEMO_SERVER (reminders serve; its log is $WORLD/serve.log)
and two devices of the account "me" that reach it by URL, each with its own
database and credentials, as on their own machines:

  left   laptop    started first and created the sample lists
  right  desktop   joined afterwards and fetched them

An edit on one side shows on the other within a second (a long poll of the
server), with no key pressed there. To see the server go down and come
back: kill $SERVER_PID, edit on one side (it waits as pending), then start
it again with
  $BIN serve --store $WORLD/store --listen 127.0.0.1:$PORT
Click a pane (or Ctrl-b and an arrow) to switch devices; q quits an app.
EOF
)"

keys "$LAPTOP" a
wait_for "$LAPTOP" "New List" 5 || fail "the laptop's list form did not open"
type_text "$LAPTOP" "Garden"
keys "$LAPTOP" Enter
start=$(date +%s%N)
wait_for "$DESKTOP" "● Garden" 3 || fail "the laptop's new list did not reach the desktop within 3 s"
took=$(( ($(date +%s%N) - start) / 1000000 ))

# The server goes down: an edit waits as pending, and goes once it is back.
kill "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
keys "$DESKTOP" a
wait_for "$DESKTOP" "New List" 5 || fail "the desktop's list form did not open"
type_text "$DESKTOP" "Books"
keys "$DESKTOP" Enter
wait_for "$DESKTOP" "1 pending" 10 || fail "the desktop's edit did not wait as pending while the server was down"
start_server
wait_for "$LAPTOP" "● Books" 15 || fail "the edit made while the server was down did not arrive once it was back"
wait_synced "$DESKTOP" 15 || fail "the desktop did not finish syncing"

say "network: OK (the laptop's new list showed on the desktop after ${took} ms; an edit made while the server was down arrived once it was back)"
