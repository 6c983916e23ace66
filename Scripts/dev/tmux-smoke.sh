#!/usr/bin/env bash
# Drives the terminal mock inside tmux as a person would: keys in, screen captured.
# Checks that the pager draws the built-in configuration's pages, that Down, j, the mouse
# wheel's Page Down and Enter move it, that a narrow terminal gets the compact (braille)
# picture and, widened (SIGWINCH), the half blocks again, that --demo shows the demo and
# --rotate/--brightness reach the emulated controller (in the trace), and that q, Ctrl-C and
# SIGTERM quit and restore the terminal. Exits non-zero with the captured screen when a check fails.
#   Scripts/dev/tmux-smoke.sh [path/to/crownpager]
set -euo pipefail
case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/../.."
binary="${1:-$(swift build --show-bin-path)/crownpager}"
[ -x "$binary" ] || { echo "tmux-smoke: no crownpager at $binary (build first)"; exit 1; }
command -v tmux >/dev/null || { echo "tmux-smoke: tmux is missing (Scripts/setup.sh --test installs it)"; exit 1; }
command -v pkill >/dev/null || { echo "tmux-smoke: pkill is missing (package procps; Scripts/setup.sh --test installs it)"; exit 1; }

socket="crownpager-smoke-$$"
tmx() { tmux -L "$socket" "$@"; }
# On the way out the server may have gone already (every session ended): nothing to report then.
cleanup() { tmx kill-server >/dev/null 2>&1 || :; }
trap cleanup EXIT
passed=0
failed=0

screen() { tmx capture-pane -p -t "smoke$session"; }
# Waits (up to 10 s, in 50 ms polls) for the screen to contain a text.
expect_screen() {
  local want=$1 what=$2
  for _ in $(seq 1 200); do
    if screen | grep -qF -- "$want"; then passed=$((passed + 1)); echo "tmux-smoke: ok: $what"; return 0; fi
    sleep 0.05
  done
  failed=$((failed + 1)); echo "tmux-smoke: FAILED: $what (no '$want' on screen):"; screen | sed 's/^/  | /'
  return 1
}

session=0
start() {  # columns rows [crownpager arguments]
  session=$((session + 1))
  local columns=$1 rows=$2
  shift 2
  tmx -f /dev/null new-session -d -s "smoke$session" -x "$columns" -y "$rows" \
    "$binary $*; echo crownpager-exited-\$?; stty -a | grep -q ' icanon' && echo terminal-restored; sleep 30"
}
scratch="$(mktemp -d)"
trap 'cleanup; rm -rf "$scratch"' EXIT

status=0
start 140 40
expect_screen "page 1/5 · System" "the pager starts on the built-in configuration's first page" || status=1
expect_screen "half-block" "a 140-column terminal gets the half-block glass" || status=1
screen | grep -q "▀\|▄\|█" && { passed=$((passed + 1)); echo "tmux-smoke: ok: the glass is drawn"; } \
  || { failed=$((failed + 1)); echo "tmux-smoke: FAILED: no half blocks on screen"; status=1; }
tmx send-keys -t "smoke$session" Down
expect_screen "page 2/5 · Clock" "Down turns to the next page" || status=1
tmx send-keys -t "smoke$session" j
expect_screen "page 3/5" "j turns to the next page" || status=1
tmx send-keys -t "smoke$session" k
expect_screen "page 2/5" "k turns back" || status=1
# The mouse wheel, as an xterm SGR report (ESC [ < 65 ; x ; y M is wheel down).
tmx send-keys -t "smoke$session" -H 1b 5b 3c 36 35 3b 31 30 3b 35 4d
expect_screen "page 3/5" "the mouse wheel turns the crown" || status=1
tmx send-keys -t "smoke$session" NPage
expect_screen "page 5/5" "Page Down turns five detents, stopping at the last page" || status=1
tmx send-keys -t "smoke$session" Enter
expect_screen "page 1/5" "Enter presses the crown: back to the first page" || status=1
tmx send-keys -t "smoke$session" q
expect_screen "crownpager-exited-0" "q quits with status 0" || status=1
expect_screen "terminal-restored" "the terminal is back in canonical mode after quitting" || status=1

start 100 30
expect_screen "braille" "a 100-column terminal gets the compact braille glass" || status=1
tmx send-keys -t "smoke$session" C-c
expect_screen "crownpager-exited-0" "Ctrl-C quits with status 0" || status=1
expect_screen "terminal-restored" "the terminal is restored after Ctrl-C" || status=1

# The demo's first page never changes by itself: only SIGWINCH can make the mock draw again.
start 100 30 --demo
expect_screen "braille" "the demo in 100 columns is drawn in braille" || status=1
tmx resize-window -t "smoke$session" -x 140 -y 40
expect_screen "half-block" "widening the window (SIGWINCH) redraws the glass in half blocks" || status=1
tmx send-keys -t "smoke$session" q
expect_screen "crownpager-exited-0" "q quits the resized mock with status 0" || status=1

start 140 40 --demo --rotate 180 --brightness 10 --contrast 200 --trace "$scratch/trace.txt"
expect_screen "page 1/6 · CrownPager" "--demo shows the demo's six pages" || status=1
expect_screen "128x64 180°" "--rotate 180 shows in the status line" || status=1
tmx send-keys -t "smoke$session" Down
expect_screen "page 2/6 · Clock" "it turns" || status=1
# The emulated controller got the settings: segment remap A0h and COM scan C0h (rotated),
# contrast 81h 19h (brightness 10%), then 81h C8h (--contrast 200), in the init transaction.
init_line=""
if first_write="$(grep -m1 '^w' "$scratch/trace.txt")"; then init_line="$first_write"; fi
for bytes in "0xa0" "0xc0" "0x81 0x19" "0x81 0xc8"; do
  if grep -qF -- " $bytes " <<<"$init_line "; then passed=$((passed + 1)); echo "tmux-smoke: ok: the trace's init has $bytes"
  else failed=$((failed + 1)); status=1; echo "tmux-smoke: FAILED: no $bytes in the trace's init: $init_line"; fi
done
if pkill -TERM -f "^$binary --demo"; then passed=$((passed + 1)); echo "tmux-smoke: ok: SIGTERM sent"
else failed=$((failed + 1)); status=1; echo "tmux-smoke: FAILED: no '$binary --demo' process to send SIGTERM to"; fi
expect_screen "crownpager-exited-143" "SIGTERM ends it (status 143)" || status=1
expect_screen "terminal-restored" "the terminal is restored after SIGTERM" || status=1

echo "tmux-smoke: $passed passed, $failed failed"
exit $status
