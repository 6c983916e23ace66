#!/usr/bin/env bash
# Checks that reading every kind of input costs time linear in its size: configuration (bare
# [[page]] headers, each a mistake; text pages; unknown keys), crown script, I2C trace, PBM and
# PNG images, BDF and Unifont hex fonts, command output read as a terminal shows it, and text
# wrapped by grapheme cluster. Each is read at n, 2n, 4n and 8n units (best of 5 runs) by
# `crownpager-bench inputs` (release build); the run fails when the last doubling of any input
# takes more than 3 times as long (linear doubles, quadratic quadruples).
#
#   Scripts/bench/input-scaling.sh             build crownpager-bench (release), run, check
#   Scripts/bench/input-scaling.sh --binary P  run the crownpager-bench at P instead
set -euo pipefail
case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/../.."
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
binary=""
case "${1:-}" in
  --binary)
    [ -n "${2:-}" ] || { echo "input-scaling: --binary needs a path" >&2; exit 2; }
    binary=$2 ;;
  "") ;;
  *) echo "input-scaling: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac
if [ -z "$binary" ]; then
  echo "input-scaling: building crownpager-bench (release)" >&2
  swift build -c release --product crownpager-bench >&2
  binary="$(swift build -c release --show-bin-path)/crownpager-bench"
fi
out="$("$binary" inputs)"
printf '%s\n' "$out"
if grep -q "NOT LINEAR" <<<"$out"; then
  echo "input-scaling: an input does not read in linear time (above)" >&2
  exit 1
fi
