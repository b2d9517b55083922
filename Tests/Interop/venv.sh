#!/usr/bin/env bash
# Usage: venv.sh DIR
#
# Makes DIR a Python venv holding the pinned interop clients of
# requirements.txt (todoman, vdirsyncer, radicale, icalendar) and prints the
# absolute path of its bin directory as the only line on stdout.
#
# Idempotent: the sha256 of requirements.txt is kept in DIR/.requirements.sha256
# and pip runs only when it differs (or the venv is missing or broken).
# Concurrent callers serialise on an flock of DIR.lock, so a second caller
# waits for the first one's install and then reuses it.
#
# Python: $PYTHON if set, else python3 (3.11 on Debian 12; Debian's python3
# needs the python3-venv package for `-m venv`).
# Everything but the final path goes to stderr; any failure exits non-zero.
set -euo pipefail

die() {
  echo "venv.sh: $*" >&2
  exit 1
}

[ "$#" -eq 1 ] && [ -n "$1" ] || die "usage: venv.sh DIR"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
requirements="$here/requirements.txt"
[ -r "$requirements" ] || die "cannot read $requirements"
python="${PYTHON:-python3}"
command -v "$python" >/dev/null || die "$python not found"
command -v flock >/dev/null || die "flock not found (util-linux)"

target="${1%/}"
[ -n "$target" ] || die "refusing to use / as the venv"
parent="$(dirname "$target")"
mkdir -p "$parent" || die "cannot create $parent"
dir="$(cd "$parent" && pwd)/$(basename "$target")"

exec 9>"$dir.lock" || die "cannot open $dir.lock"
flock 9 || die "cannot lock $dir.lock"

want="$(sha256sum "$requirements" | cut -d' ' -f1)"
stamp="$dir/.requirements.sha256"

usable() {
  [ -x "$dir/bin/python" ] && "$dir/bin/python" -c 'import sys' >/dev/null 2>&1
}

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && usable; then
  echo "$dir/bin"
  exit 0
fi

if [ -e "$dir" ] && [ ! -f "$dir/pyvenv.cfg" ] && [ -n "$(ls -A "$dir")" ]; then
  die "$dir exists, is not empty and is not a venv; not touching it"
fi

rm -f "$stamp"
if ! usable; then
  # A missing venv, or one whose interpreter is gone (Python upgraded or
  # removed): make it anew. --clear only ever runs on a venv (checked above).
  "$python" -m venv --clear "$dir" >&2 || die "$python -m venv $dir failed"
fi

"$dir/bin/python" -m pip install -q --disable-pip-version-check \
  -r "$requirements" >&2 || die "pip install -r $requirements failed"

# Check that the tools run before writing the stamp.
for tool in todo vdirsyncer; do
  [ -x "$dir/bin/$tool" ] || die "$dir/bin/$tool missing after install"
done
"$dir/bin/python" -c 'import icalendar, radicale, todoman, vdirsyncer' >&2 \
  || die "the installed packages do not import"

echo "$want" > "$stamp"
echo "$dir/bin"
