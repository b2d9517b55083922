# Shared by the Demo scripts: finds the binary, makes a fresh world in a
# temporary directory, opens the two devices in tmux, and reads the panes.
# Source it; do not run it.

set -euo pipefail

DEMO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export LANG=C.UTF-8 LC_ALL=C.UTF-8

CHECK=0
KEEP=0
NARRATE=0
for argument in "$@"; do
  case "$argument" in
    --check) CHECK=1 ;;
    --keep) KEEP=1 ;;
    --narrate) NARRATE=1 ;;
    -h|--help)
      sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
      exit 0 ;;
    *) echo "$(basename "$0"): unknown option '$argument' (try --help)" >&2; exit 2 ;;
  esac
done

say() { printf '%s\n' "$*"; }
fail() {
  printf '%s: FAILED: %s\n' "$(basename "$0")" "$*" >&2
  if [[ -n "${DEMO_SOCKET:-}" ]]; then
    for pane in "${DEMO_PANES[@]}"; do
      printf -- '--- pane %s ---\n' "$pane" >&2
      tmux -S "$DEMO_SOCKET" capture-pane -p -t "$pane" >&2 2>/dev/null || true
    done
  fi
  exit 1
}

command -v tmux >/dev/null 2>&1 || { echo "$(basename "$0"): tmux is needed (Debian: apt-get install tmux)" >&2; exit 1; }

# The binary: $REMINDERS_BIN, else the debug build, else the release build
# (./run.sh makes that one), else build now.
find_binary() {
  if [[ -n "${REMINDERS_BIN:-}" ]]; then
    [[ -x "$REMINDERS_BIN" ]] || { echo "REMINDERS_BIN=$REMINDERS_BIN is not an executable" >&2; exit 1; }
    BIN="$REMINDERS_BIN"
  elif [[ -x "$DEMO_ROOT/.build/debug/reminders" ]]; then
    BIN="$DEMO_ROOT/.build/debug/reminders"
  elif [[ -x "$DEMO_ROOT/.build/release/reminders" ]]; then
    BIN="$DEMO_ROOT/.build/release/reminders"
  else
    say "Building reminders (swift build; the first build takes a few minutes)…"
    (cd "$DEMO_ROOT" && swift build --product reminders >&2)
    BIN="$DEMO_ROOT/.build/debug/reminders"
  fi
}
DEMO_SESSION="demo"
DEMO_PANES=()

# A fresh world: a server directory and the devices' databases, and a tmux
# server of its own; both go when the script ends.
new_world() {
  find_binary
  WORLD="$(mktemp -d "${TMPDIR:-/tmp}/reminders-demo.XXXXXX")"
  # The tmux server's socket lives in the world, so it goes with it.
  DEMO_SOCKET="$WORLD/tmux.sock"
  trap cleanup EXIT
}

cleanup() {
  # DEMO_SHOW=1 prints the final screens of a --check run.
  if [[ "${DEMO_SHOW:-0}" == 1 ]]; then
    for pane in "${DEMO_PANES[@]}"; do
      printf -- '--- pane %s ---\n' "$pane"
      tmux -S "$DEMO_SOCKET" capture-pane -p -t "$pane" 2>/dev/null || true
    done
  fi
  tmux -S "$DEMO_SOCKET" kill-server >/dev/null 2>&1 || true
  if [[ -n "${SERVER_PID:-}" ]]; then kill "$SERVER_PID" 2>/dev/null || true; fi
  if [[ "$KEEP" == 1 ]]; then
    say "Kept the demo's files in $WORLD"
  else
    # The apps quit on the tmux server's hangup and may still be writing
    # their last sync into the world as it goes: try again for a while.
    local tries=0
    until rm -rf "$WORLD" 2>/dev/null || (( ++tries >= 50 )); do sleep 0.1; done
    if [[ -e "$WORLD" ]]; then rm -rf "$WORLD"; fi
  fi
}

# The command line of one device's app (user `me` unless a second
# argument names another).
# DEMO_SERVER, when set, is the server (a URL); each device then keeps its
# credentials in a config folder of its own, as on its own machine.
device_command() {
  local device="$1" user="${2:-me}"
  printf 'env REMINDERS_SERVER=%q REMINDERS_USER=%q REMINDERS_DEVICE=%q REMINDERS_DB=%q XDG_DATA_HOME=%q XDG_CONFIG_HOME=%q %q tui' \
    "${DEMO_SERVER:-$WORLD/server}" "$user" "$device" "$WORLD/$device.sqlite" "$WORLD/data" "$WORLD/config-$device" "$BIN"
}

t() { tmux -S "$DEMO_SOCKET" "$@"; }

# The text of a pane, as on screen.
pane_text() { t capture-pane -p -t "$1" 2>/dev/null || true; }

# Every wait below is multiplied by DEMO_SLACK (default 1): the test suite
# runs the checks beside many other tests on a busy machine and sets it.
slack() { echo $(($1 * ${DEMO_SLACK:-1})); }

# Waits until the pane shows `text` (a fixed string), up to `seconds`.
wait_for() {
  local pane="$1" text="$2" seconds="${3:-5}"
  local deadline=$((SECONDS + $(slack "$seconds")))
  while ((SECONDS <= deadline)); do
    if pane_text "$pane" | grep -qF -- "$text"; then return 0; fi
    sleep 0.05
  done
  return 1
}

# Waits until the pane no longer shows `text`.
wait_for_not() {
  local pane="$1" text="$2" seconds="${3:-5}"
  local deadline=$((SECONDS + $(slack "$seconds")))
  while ((SECONDS <= deadline)); do
    if ! pane_text "$pane" | grep -qF -- "$text"; then return 0; fi
    sleep 0.05
  done
  return 1
}

# How many lines of the pane contain `text`.
count_in() { pane_text "$1" | grep -cF -- "$2" || true; }

# Waits until the device has sent everything: its status bar says synced,
# nothing pending.
wait_synced() {
  local pane="$1" seconds="${2:-10}"
  local deadline=$((SECONDS + $(slack "$seconds")))
  while ((SECONDS <= deadline)); do
    local bar
    bar="$(pane_text "$pane" | tail -n 1)"
    if [[ "$bar" == *"synced "* && "$bar" != *"pending"* && "$bar" != *"syncing"* ]]; then return 0; fi
    sleep 0.05
  done
  return 1
}

keys() { t send-keys -t "$1" "${@:2}"; }
type_text() { t send-keys -t "$1" -l -- "$2"; }

# Opens the two devices side by side: the laptop first, which is asked
# about sample lists, adds them and sends them; then the desktop, which
# joins and fetches them (it is not asked, and adds no second copy). Sets LAPTOP and DESKTOP (pane ids).
open_two_devices() {
  local width=200 height=30
  if [[ "$CHECK" == 0 ]] && [[ -t 1 ]]; then
    width=$(tput cols 2>/dev/null || echo 200)
    height=$(tput lines 2>/dev/null || echo 30)
    if ((width < ${DEMO_MIN_WIDTH:-161} || height < ${DEMO_MIN_HEIGHT:-26})); then
      say "Note: this terminal is ${width}x${height}; two apps side by side want at least" \
          "${DEMO_MIN_WIDTH:-161}x${DEMO_MIN_HEIGHT:-26} (each app needs 80x24). Enlarge it or make the font smaller."
      sleep 2
    fi
  fi
  LAPTOP=$(t -u new-session -d -s "$DEMO_SESSION" -x "$width" -y "$height" -P -F '#{pane_id}' "$(device_command laptop)")
  DEMO_PANES=("$LAPTOP")
  t set-option -t "$DEMO_SESSION" remain-on-exit on >/dev/null
  t set-option -t "$DEMO_SESSION" pane-border-status top >/dev/null
  t set-option -t "$DEMO_SESSION" pane-border-format ' #{pane_title} ' >/dev/null
  t set-option -t "$DEMO_SESSION" status off >/dev/null
  t set-option -t "$DEMO_SESSION" mouse on >/dev/null
  t select-pane -t "$LAPTOP" -T "laptop (me)"
  wait_for "$LAPTOP" "MY LISTS" 20 || fail "the laptop's app did not start"
  # A new user's first start asks; the demo takes the sample lists.
  wait_for "$LAPTOP" "Add sample lists" 5 || fail "the laptop did not offer the sample lists"
  keys "$LAPTOP" s
  # The status bar said "synced" before the answer too: wait for the
  # lists first, then for them to be sent.
  wait_for "$LAPTOP" "● Groceries" 20 || fail "the laptop did not add the sample lists"
  wait_synced "$LAPTOP" 20 || fail "the laptop did not send its sample data"
  DESKTOP=$(t split-window -h -t "$LAPTOP" -P -F '#{pane_id}' "$(device_command desktop)")
  DEMO_PANES=("$LAPTOP" "$DESKTOP")
  t select-pane -t "$DESKTOP" -T "desktop (me)"
  wait_for "$DESKTOP" "MY LISTS" 20 || fail "the desktop's app did not start"
  wait_synced "$DESKTOP" 20 || fail "the desktop did not sync"
}

# The start of a demo of two devices: for an interactive run, prints the
# introduction it is given and waits for Enter; opens the two devices; then,
# for an interactive run, hands the terminal over until the demo ends.
# A --check run goes on with the devices open.
start_two_devices() {
  if [[ "$CHECK" == 0 ]]; then
    printf '%s\n' "$1"
    if [[ -t 0 ]]; then
      read -r -p "Press Enter to start… " _
    fi
  fi
  open_two_devices
  if [[ "$CHECK" == 0 ]]; then
    attach
    exit 0
  fi
}

# Hands the terminal to tmux (interactive runs). Quitting both apps (q)
# or detaching (Ctrl-b d) ends the demo.
attach() {
  t set-option -t "$DEMO_SESSION" remain-on-exit off >/dev/null
  t set-option -t "$DEMO_SESSION" status on >/dev/null
  TMUX='' t -u attach -t "$DEMO_SESSION" || true
}
