#!/usr/bin/env bash
# Measures the live mirror ([web]) of `crownpager run` (the release build as the .deb builds it):
# detent to the browser's glass, detent to the panel's glass with and without a crowd of hostile
# clients, SIGTERM with every connection open, and peak RSS with [web] off and on.
#
# The program runs on the fake kernel (Tests/FakeKernel, compiled here, loaded with LD_PRELOAD):
# the panel on a fake /dev/i2c-1 whose writes take their time at 400 kHz (FAKE_I2C_HZ), the knob
# on a fake gpiochip0, two text pages. The knob turns back and forth, --detents times a phase
# (default 100), 150 to 250 ms apart. Phases:
#   off      [web] unset: the baseline (detent to glass, peak RSS)
#   watched  [web] on, one browser watching (Scripts/bench/mirror-clients.py watch)
#   crowd    the same, with 100 more watchers, a slow client holding half a request, a 1 MiB head
#            every 0.5 s and a watcher that vanishes mid-stream every 0.2 s (mirror-clients.py crowd)
# Detent to glass runs from a detent's last edge (stamped by the fake chip) to the last byte of the
# first frame written after the loop's next poll(2) (the fake kernel's event log, as
# Scripts/bench/mqtt-flood.sh reads it); to the browser, to the first glass event the watcher
# received once that frame was on the panel (CLOCK_MONOTONIC in both), and how far the browser was
# behind the panel (that event's arrival less the frame's last byte). SIGTERM is the time from kill to the end of
# the process. It fails when a phase's glass p99 is 10 ms or more, a detent has no frame, the
# watcher missed a detent, or SIGTERM takes 100 ms or more.
#
#   Scripts/bench/mirror-stress.sh [--detents N] [--binary PATH]
#
# The run's files are in .build/mirror-stress.
set -euo pipefail
trap 'echo "mirror-stress: line $LINENO failed: $BASH_COMMAND" >&2' ERR
detents=100
binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    --detents)
      [[ "${2:-}" =~ ^[0-9]+$ ]] && [ "$2" -gt 0 ] || { echo "mirror-stress: --detents takes a whole number above 0" >&2; exit 2; }
      detents=$2
      shift 2 ;;
    --binary)
      [ -x "${2:-}" ] || { echo "mirror-stress: --binary takes the path of a crownpager" >&2; exit 2; }
      binary="$(realpath "$2")"
      shift 2 ;;
    *) echo "mirror-stress: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/../.."
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
for need in cc python3 ss; do command -v "$need" >/dev/null || { echo "mirror-stress: needs $need" >&2; exit 69; }; done
if [ -z "$binary" ]; then
  Scripts/release/build-info.sh >/dev/null
  . Scripts/release/release-link.sh
  swift build "${release_build[@]}" --product crownpager >&2
  binary="$(swift build "${release_build[@]}" --show-bin-path)/crownpager"
fi
work="$(pwd)/.build/mirror-stress"
rm -rf "$work"
mkdir -p "$work/root"
cc -shared -fPIC -O1 -I Tests/FakeKernel/include Tests/FakeKernel/*.c -o "$work/libFakeKernel.so" -ldl -lpthread
port=$((20000 + RANDOM % 20000))
while ss -Htln "sport = :$port" 2>/dev/null | grep -q .; do port=$((20000 + RANDOM % 20000)); done
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

# configuration WEB: the two pages, the knob, and [web] when WEB is "on".
configuration() {
  printf '[display]\nbus = 1\ndim_after = "never"\noff_after = "never"\n'
  printf '[crown]\nsource = "gpio"\nchip = "/dev/gpiochip0"\nacceleration = false\n'
  [ "$1" = on ] && printf '[web]\nlisten = "127.0.0.1:%s"\ntoken = "0123456789abcdef0123"\n' "$port"
  printf '[[page]]\nkind = "text"\ntitle = "One"\ntext = "The first page"\n'
  printf '[[page]]\nkind = "text"\ntitle = "Two"\ntext = "The second page"\n'
}

# phase NAME WEB: one run of --detents detents; leaves NAME.events, NAME.glass (watcher) and figures.
phase() {
  local name=$1 web=$2 made=0 direction=1 crowd=""
  configuration "$web" >"$work/$name.toml"
  "$binary" check "$work/$name.toml" >/dev/null 2>&1
  rm -f "$work/input"
  mkfifo "$work/input"
  env LD_PRELOAD="$work/libFakeKernel.so" FAKE_KERNEL_ROOT="$work/root" FAKE_I2C_DEVICES=1:0x3c FAKE_I2C_HZ=400000 \
    FAKE_GPIO_CHIPS=0:54 FAKE_GPIO_INPUT="$work/input" FAKE_EVENT_LOG="$work/$name.events" \
    "$binary" run --config "$work/$name.toml" >/dev/null 2>"$work/$name.log" &
  local pager=$!
  pids+=("$pager")
  exec 3<>"$work/input"
  sleep 1.5
  if [ "$web" = on ]; then
    python3 Scripts/bench/mirror-clients.py watch "$port" "$work/$name.glass" &
    pids+=($!)
    local watcher=$!
  fi
  if [ "$name" = crowd ]; then
    python3 Scripts/bench/mirror-clients.py crowd "$port" $((detents / 5 + 2)) >"$work/crowd.txt" &
    crowd=$!
    pids+=("$crowd")
  fi
  sleep 1
  while [ "$made" -lt "$detents" ]; do
    if [ "$direction" -gt 0 ]; then printf '0 17 0\n0 27 0\n0 17 1\n0 27 1\n' >&3; else printf '0 27 0\n0 17 0\n0 27 1\n0 17 1\n' >&3; fi
    made=$((made + 1))
    direction=$((-direction))
    sleep "0.$((150 + RANDOM % 100))"
  done
  sleep 1
  awk '/^VmHWM/ { print $2 }' "/proc/$pager/status" >"$work/$name.rss"
  local asked=${EPOCHREALTIME/./}
  kill -TERM "$pager"
  local status=0
  wait "$pager" || status=$?
  echo "$(((${EPOCHREALTIME/./} - asked) / 1000)) $status" >"$work/$name.stop"
  [ -n "$crowd" ] && { wait "$crowd" || true; }
  [ "$web" = on ] && { kill "$watcher" 2>/dev/null || true; wait "$watcher" 2>/dev/null || true; }
  exec 3>&-
}

phase off off
phase watched on
phase crowd on

echo "mirror-stress: crownpager run (release) on the fake kernel, I2C at 400 kHz, $detents detents a phase;" \
  "$(uname -m), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
result=0
python3 - "$work" <<'PYTHON' || result=$?
import os, sys
work = sys.argv[1]

def pct(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(p * len(ordered) + 0.999999) - 1))] if ordered else float("nan")

problems = []
print("| phase | detents | panel's glass p50 / p99 / max | browser's glass p50 / p99 / max | browser behind the panel p50 / p99 | SIGTERM | peak RSS |")
print("|---|---|---|---|---|---|---|")
for name in ("off", "watched", "crowd"):
    edges, frames, polled, open_frame = [], [], None, False
    for line in open(os.path.join(work, name + ".events")):
        words = line.split()
        stamp, kind = int(words[0]), words[1]
        if kind == "edge":
            edges.append(stamp)
        elif kind == "turn":
            polled, open_frame = stamp, False
        elif kind == "i2c":
            if not open_frame:
                frames.append([polled, stamp])
                open_frame = True
            frames[-1][1] = stamp
    detents = edges[3::4]
    glass, browser, behind = [], [], []
    events = []
    if os.path.exists(os.path.join(work, name + ".glass")):
        events = [int(line.split()[0]) for line in open(os.path.join(work, name + ".glass"))]
    for index, detent in enumerate(detents):
        following = detents[index + 1] if index + 1 < len(detents) else float("inf")
        frame = next((f for f in frames if f[0] is not None and f[0] >= detent), None)
        if frame is None or frame[0] >= following:
            problems.append(f"{name}: detent {index + 1} had no frame of its own")
            continue
        glass.append((frame[1] - detent) / 1e6)
        if name != "off":
            # The first event that came once the detent's frame was on the panel: that frame or a later one.
            event = next((e for e in events if e >= frame[1]), None)
            if event is None or event >= following:
                problems.append(f"{name}: the browser saw nothing of detent {index + 1}")
                continue
            browser.append((event - detent) / 1e6)
            behind.append((event - frame[1]) / 1e6)
    stop, status = open(os.path.join(work, name + ".stop")).read().split()
    rss = open(os.path.join(work, name + ".rss")).read().strip()
    figures = lambda v: " / ".join(f"{pct(v, p):.2f}" for p in (0.5, 0.99, 1)) + " ms" if v else "-"
    lag = f"{pct(behind, 0.5):.2f} / {pct(behind, 0.99):.2f} ms" if behind else "-"
    print(f"| {name} | {len(detents)} | {figures(glass)} | {figures(browser)} | {lag} | {stop} ms (status {status}) | {rss} KiB |")
    if glass and pct(glass, 0.99) >= 10:
        problems.append(f"{name}: glass p99 {pct(glass, 0.99):.2f} ms, not under 10 ms")
    if int(stop) >= 100 or status != "0":
        problems.append(f"{name}: SIGTERM took {stop} ms, status {status}")
print()
for problem in problems:
    print("mirror-stress: FAILED:", problem, file=sys.stderr)
sys.exit(1 if problems else 0)
PYTHON
[ -s "$work/crowd.txt" ] && cat "$work/crowd.txt"
[ "$result" -eq 0 ] || exit 1
echo "mirror-stress: passed"
