#!/usr/bin/env bash
# Measures what an idle `crownpager run` costs, with no hardware: the panel on the fake kernel
# (Tests/FakeKernel, compiled here with cc and loaded with LD_PRELOAD) and the terminal mock in a
# pseudo-terminal (script(1)). For each case it runs the program for --seconds (default 60) and
# prints its wakeups per minute (the voluntary context switches of all its threads, from
# /proc/PID/task/*/status: each is a sleep that ended) and its peak RSS (/usr/bin/time -v):
#   static page    a text page; its neighbour is a seconds clock, which must not wake it; the
#                  control socket listens (crownpager notify, show, set, status), which must not either
#   128x32         the same on a 128x32 panel, whose RAM rows off the glass are filled after the start
#   pixel shift    the static page with display.pixel_shift = "10s": one wake a step, 6 a minute
#   night          the static page inside a night (display.night from an hour ago to three hours on):
#                  dimmed at the start, then no wake until the night's end
#   minute clock   a clock showing %H:%M
#   seconds clock  a clock showing %H:%M:%S
#   built-in       the built-in configuration (system, clock, temperature, memory, disk)
#   live mirror    the static page with [web] listening and a browser's stream (/events) open:
#                  a still glass sends it nothing and must wake nothing
#   MQTT           the static page connected to a mosquitto of its own (keepalive 60 s, the camera
#                  on): the keepalive's wakes only, a quarter keepalive apart
#   terminal mock  the static page drawn in an 80x24 terminal; then the terminal is widened once
#                  (SIGWINCH), and what that cost and whether the glass was drawn anew is shown
# Then the cold start, exec to the first I2C write and to the first frame (display data) on the
# fake bus, from strace -ttt timestamps (median of --starts runs, default 5), and the size of the
# binary stripped as the .deb strips it.
#
# Usage: Scripts/bench/wakeups.sh [--seconds N] [--starts N] [--binary PATH]
# Without --binary it builds the release binary as Scripts/release/package.sh does (Scripts/release/release-link.sh).
set -euo pipefail
trap 'echo "wakeups: line $LINENO failed: $BASH_COMMAND" >&2' ERR
case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
cd "$(dirname "$0")/../.."
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done

seconds=60
starts=5
binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
    --starts) starts="${2:?--starts needs a number}"; shift 2 ;;
    --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
    *) echo "wakeups: unknown option '$1' (see --help)" >&2; exit 64 ;;
  esac
done
case "$seconds$starts" in *[!0-9]*) echo "wakeups: --seconds and --starts take whole numbers" >&2; exit 64 ;; esac
[ "$seconds" -ge 1 ] && [ "$starts" -ge 1 ] || { echo "wakeups: --seconds and --starts must be at least 1" >&2; exit 64; }
for tool in cc script strace strip /usr/bin/time mosquitto; do
  command -v "$tool" >/dev/null || { echo "wakeups: needs $tool" >&2; exit 69; }
done

if [ -z "$binary" ]; then
  Scripts/release/build-info.sh >/dev/null
  . Scripts/release/release-link.sh
  swift build "${release_build[@]}" --product crownpager >&2
  binary="$(swift build "${release_build[@]}" --show-bin-path)/crownpager"
fi
[ -x "$binary" ] || { echo "wakeups: no program at $binary" >&2; exit 66; }
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"

work="$(mktemp -d "${TMPDIR:-/tmp}/crownpager-wakeups.XXXXXX")"
pids=()
# On the way out, whatever still runs: the programs (their pid files) and the wrappers.
cleanup() {
  for file in "$work"/*.pid; do
    if [ -s "$file" ]; then kill "$(cat "$file")" 2>/dev/null || true; fi
  done
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait
  rm -rf "$work"
}
trap cleanup EXIT

cc -shared -fPIC -O1 -I Tests/FakeKernel/include Tests/FakeKernel/*.c -o "$work/libFakeKernel.so" -ldl -lpthread
mkdir -p "$work/root"

# A configuration of one display section (never dimmed or switched off: the screen saver's two
# wakes are not what is measured) and the pages given.
configuration() {
  printf '[display]\nbus = %s\ndim_after = "never"\noff_after = "never"\n' "$1"
  shift
  printf '%s\n' "$@"
}
text_page='[[page]]
kind = "text"
title = "Static"
text = "Nothing here changes"'
clock_page() { printf '[[page]]\nkind = "clock"\ntitle = "Clock"\ntime = "%s"\ndate = ""\n' "$1"; }
configuration 1 "$text_page" "$(clock_page '%H:%M:%S')" >"$work/static.toml"
# The same on a 128x32 panel, whose RAM rows off the glass are filled once after the start.
sed 's/^\[display\]$/[display]\npanel = "128x32"/' "$work/static.toml" >"$work/short.toml"
# The same with burn-in care: the picture moves a pixel every 10 s (the shortest period allowed).
sed 's/^\[display\]$/[display]\npixel_shift = "10s"/' "$work/static.toml" >"$work/shift.toml"
# The same inside a night that began an hour ago and ends in three: no wake before its end.
hour=$(date +%-H)
night="$(printf '%02d:00-%02d:00' $(((hour + 23) % 24)) $(((hour + 3) % 24)))"
sed "s/^\[display\]\$/[display]\nnight = \"$night\"/" "$work/static.toml" >"$work/night.toml"
configuration 1 "$(clock_page '%H:%M')" >"$work/minute.toml"
configuration 1 "$(clock_page '%H:%M:%S')" >"$work/seconds.toml"
configuration '"mock"' "$text_page" "$(clock_page '%H:%M:%S')" >"$work/mock.toml"
# The static page with the live mirror on a free port (ss lists those taken).
web_port=$((20000 + RANDOM % 20000))
while ss -Htln "sport = :$web_port" 2>/dev/null | grep -q .; do web_port=$((20000 + RANDOM % 20000)); done
{ cat "$work/static.toml"; printf '[web]\nlisten = "127.0.0.1:%s"\n' "$web_port"; } >"$work/web.toml"
# The static page with MQTT on, against a mosquitto of its own (Scripts/setup.sh --test installs it).
mqtt_port=$((20000 + RANDOM % 20000))
while ss -Htln "sport = :$mqtt_port" 2>/dev/null | grep -q . || [ "$mqtt_port" = "$web_port" ]; do
  mqtt_port=$((20000 + RANDOM % 20000))
done
printf 'listener %s 127.0.0.1\nallow_anonymous true\n' "$mqtt_port" >"$work/mosquitto.conf"
mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
broker=$!
pids+=("$broker")
{ cat "$work/static.toml"; printf '[mqtt]\nhost = "127.0.0.1"\nport = %s\nbase_topic = "wakeups"\n' "$mqtt_port"; } \
  >"$work/mqtt.toml"

fake_kernel=(env "LD_PRELOAD=$work/libFakeKernel.so" "FAKE_KERNEL_ROOT=$work/root" "FAKE_I2C_DEVICES=1:0x3c")

# Starts case $1 in the background: the program writes its own pid to $work/$1.pid before it
# execs, so the counters read are the program's, not a wrapper's.
start() {
  local name="$1" config="$work/$1.toml"
  local exec_self=(sh -c 'echo $$ >"$0"; exec "$@"' "$work/$name.pid")
  if [ "$name" = mock ]; then
    # script(1) gives it a terminal; stty makes the window 80x24 before the program starts.
    local command
    printf -v command '%q ' "${exec_self[@]}" "$binary" run --config "$config"
    command="stty cols 80 rows 24; $command"
    # Its input never ends: at the end of its input script(1) sends the terminal an end of file,
    # which ends the program when it comes before the program has put the terminal in raw mode.
    mkfifo "$work/mock.in"
    exec 3<>"$work/mock.in"
    /usr/bin/time -v -o "$work/$name.time" script -qfec "$command" "$work/mock.typescript" <&3 >/dev/null 2>&1 &
  else
    local pages=(--config "$config")
    [ "$name" = builtin ] && pages=(--i2c-bus 1)
    [ "$name" = static ] && pages+=(--socket "$work/static.sock")
    /usr/bin/time -v -o "$work/$name.time" "${exec_self[@]}" "${fake_kernel[@]}" \
      "FAKE_I2C_TRACE=$work/$name.trace" "$binary" run "${pages[@]}" </dev/null >/dev/null 2>"$work/$name.err" &
  fi
  pids+=($!)
}

# The voluntary context switches of every thread of process $1.
switches() { { cat /proc/"$1"/task/*/status 2>/dev/null || true; } | awk '/^voluntary_ctxt_switches/ { n += $2 } END { print n + 0 }'; }
# Stops the measurement when case $1 ended before it should have, with what it said.
ended_early() {
  echo "wakeups: the $1 case ended early; its last words:" >&2
  tail -n 5 "$work/$1.err" "$work/$1.typescript" 2>/dev/null >&2
  exit 70
}

cases=(static short shift night minute seconds builtin web mqtt mock)
for name in "${cases[@]}"; do start "$name"; done
for name in "${cases[@]}"; do
  for _ in $(seq 100); do [ -s "$work/$name.pid" ] && break; sleep 0.05; done
  [ -s "$work/$name.pid" ] || { echo "wakeups: the $name case did not start" >&2; exit 70; }
done
sleep 2  # past the start: the first frame, the first reads
# A browser watching the mirror: the stream's request, then nothing (bash's /dev/tcp, held open on fd 4).
exec 4<>"/dev/tcp/127.0.0.1/$web_port"
printf 'GET /events HTTP/1.1\r\nHost: pager\r\n\r\n' >&4
sleep 1
declare -A before pid
for name in "${cases[@]}"; do
  pid[$name]="$(cat "$work/$name.pid")"
  [ -d "/proc/${pid[$name]}" ] || ended_early "$name"
  before[$name]="$(switches "${pid[$name]}")"
done
sleep "$seconds"
declare -A after
for name in "${cases[@]}"; do
  [ -d "/proc/${pid[$name]}" ] || ended_early "$name"
  after[$name]="$(switches "${pid[$name]}")"
done
# Widening the mock's terminal sends it SIGWINCH: it wakes and draws the glass anew, at the new size.
drawn="$(stat -c %s "$work/mock.typescript")"
stty -F "$(readlink /proc/"${pid[mock]}"/fd/0)" cols 100  # one change: stty makes one per setting
sleep 1
resize_wakes=$(($(switches "${pid[mock]}") - after[mock]))
redrawn=$(($(stat -c %s "$work/mock.typescript") - drawn))
for name in "${cases[@]}"; do kill -TERM "${pid[$name]}"; done
kill "$broker"  # or wait would wait for it too
wait

label() {
  case "$1" in
    static) echo "static page (seconds clock next to it), socket" ;;
    short) echo "static page, 128x32 panel" ;;
    shift) echo "static page, pixel_shift = \"10s\"" ;;
    night) echo "static page, inside night = \"$night\"" ;;
    minute) echo "minute clock (%H:%M), panel" ;;
    seconds) echo "seconds clock (%H:%M:%S), panel" ;;
    builtin) echo "the built-in configuration, panel" ;;
    web) echo "static page, live mirror with a browser watching" ;;
    mqtt) echo "static page, MQTT on (keepalive 60 s, camera)" ;;
    mock) echo "static page, terminal mock" ;;
  esac
}
echo "$("$binary" --version 2>&1 | sed -n 1p) on $(uname -m), ${seconds} s per case"
printf '%-44s %14s %14s\n' "case" "wakeups/min" "peak RSS"
for name in "${cases[@]}"; do
  wakes=$((after[$name] - before[$name]))
  rss="$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/$name.time")"
  printf '%-44s %14s %10s KiB\n' "$(label "$name")" \
    "$(awk -v w="$wakes" -v s="$seconds" 'BEGIN { printf "%.1f", w * 60 / s }')" "$rss"
done
echo "(the mock's peak RSS is the largest of script(1)'s and the program's)"
echo "terminal mock widened to 100 columns: $resize_wakes wakeup(s), $redrawn bytes drawn"

# Cold start: exec to the first write on the fake bus and to the first display data (control byte 0x40).
cold=()
frame=()
for run in $(seq "$starts"); do
  trace="$work/start-$run.trace"
  strace -f -qq --seccomp-bpf -ttt -e trace=execve,write -s 20 -o "$work/start-$run.strace" \
    "${fake_kernel[@]}" "FAKE_I2C_TRACE=$trace" "$binary" run --config "$work/static.toml" </dev/null \
    >/dev/null 2>&1 &
  tracer=$!
  pids+=("$tracer")
  for _ in $(seq 200); do grep -q '^w[0-9]*@0x3c 0x40' "$trace" 2>/dev/null && break; sleep 0.05; done
  program="$(awk -v b="$binary" 'index($0, "execve(\"" b "\"") { print $1; exit }' "$work/start-$run.strace")"
  kill -TERM "$program" 2>/dev/null || true
  wait "$tracer" || true
  read -r first data < <(awk -v b="$binary" '
    index($0, "execve(\"" b "\"") { exec = $2 }
    exec && $0 ~ /write\([0-9]+, "w[0-9]+@0x3c/ {
      if (!first) first = $2
      if (!data && $0 ~ /@0x3c 0x40/) data = $2
    }
    END { printf "%.2f %.2f\n", (first - exec) * 1000, (data - exec) * 1000 }' "$work/start-$run.strace")
  cold+=("$first")
  frame+=("$data")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "cold start, exec to the first I2C write: $(median "${cold[@]}") ms; to the first frame: $(median "${frame[@]}") ms (median of $starts, under strace)"

# How much of the symbol order (Scripts/release/symbol-order.sh) the binary still has: code changed since
# the list was made has other names, and goes after the listed code.
order=Scripts/release/release-link/crownpager.order
if [ -s "$order" ] && command -v nm >/dev/null; then
  listed="$(nm --defined-only "$binary" | awk '{ print $3 }' | sort -u | comm -12 - <(sort -u "$order") | wc -l)"
  echo "symbol order: $listed of the $(wc -l <"$order") functions listed are in the binary"
fi
strip --strip-unneeded -o "$work/crownpager.stripped" "$binary"
echo "binary: $(stat -c %s "$binary") bytes, stripped $(stat -c %s "$work/crownpager.stripped") bytes"
