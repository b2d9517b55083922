#!/usr/bin/env bash
# Makes the fixtures of this folder with the `reminders` given as $1 (built
# from the release they stand for) in folder $2.
set -euo pipefail
B="$1"; cd "$2"
export REMINDERS_SERVER=$PWD/server REMINDERS_USER=me REMINDERS_DEVICE=laptop REMINDERS_DB=$PWD/laptop.sqlite
export REMINDERS_NOW=2026-11-20T10:00:00 XDG_DATA_HOME=$PWD/data XDG_CONFIG_HOME=$PWD/config
bob() { REMINDERS_USER=bob REMINDERS_DEVICE=phone REMINDERS_DB=$PWD/bob.sqlite "$B" "$@"; }
"$B" seed
"$B" add "Water the plants" --list Personal --due 2026-11-22T09:00 --priority high --tag Maison --tag café
"$B" add "Pay rent" --list Personal --due 2026-12-01
"$B" sync
"$B" share Groceries --with bob
bob sync; bob accept Groceries; bob add "Oat milk" --list Groceries; bob sync
"$B" complete "Pay rent"; "$B" sync
"$B" edit "Water the plants" --notes "the ferns first"
rm -rf data config server/.HEAD.lock
