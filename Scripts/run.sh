#!/usr/bin/env bash
# Runs the pager. With no hardware configured it runs mocked in this terminal, against an
# SSD1306 emulator. Installs whatever is missing first (Scripts/setup.sh), builds in release
# mode, says where the program is, then runs it. Arguments go to crownpager:
#
#   Scripts/run.sh                         the built-in pages (a Pi's panel, or this terminal)
#   Scripts/run.sh --panel 128x32          any option of `crownpager run`
#   Scripts/run.sh render --out frames     any subcommand (`Scripts/run.sh help` lists them)
#
# Scripts/install.sh --user puts the program on your PATH (~/.local/bin); on a Pi,
# Scripts/deploy.sh or sudo Scripts/install.sh installs the service.
set -euo pipefail
case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/.."
Scripts/setup.sh >&2
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
Scripts/release/build-info.sh
echo "run: building crownpager (release; the first build takes a few minutes)" >&2
swift build -c release --product crownpager >&2
binary="$(swift build -c release --show-bin-path)/crownpager"
if ! command -v crownpager >/dev/null 2>&1; then
  echo "run: the program is $binary; 'Scripts/install.sh --user' puts it on your PATH as crownpager" >&2
fi
exec "$binary" "$@"
