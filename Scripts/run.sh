#!/usr/bin/env bash
# Runs the pager. With no hardware configured it runs mocked in this terminal, against an
# SSD1306 emulator. Installs whatever is missing first (Scripts/setup.sh).
# Arguments go to crownpager, e.g. Scripts/run.sh --panel 128x32
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh >&2
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
echo "run: building crownpager (release; the first build takes a few minutes)" >&2
swift build -c release --product crownpager >&2
exec "$(swift build -c release --show-bin-path)/crownpager" "$@"
