#!/usr/bin/env bash
# Measures detent to glass of `crownpager run` (the release build) while its broker floods a
# page's topic, against the same run without the flood, and counts the crown events it published.
#
# The program runs on the fake kernel (Tests/FakeKernel, compiled here with cc and loaded with
# LD_PRELOAD): the panel on a fake /dev/i2c-1 whose writes take their time on a 400 kHz bus
# (FAKE_I2C_HZ: 9 bits a byte and 11 a transaction, as the repository's bus model counts them,
# the writing thread blocked meanwhile as a real write(2) is), the knob on a fake gpiochip0. It
# is configured with [mqtt] against Debian's mosquitto on 127.0.0.1 at a free port, and two text
# pages: "Flood", fed by the topic bench/flood, and "Hall". The knob turns back and forth between
# them, so the flooded page is on the glass for every other detent and slides with every detent.
#
# Two phases, each of --detents detents (default 100) 150 to 250 ms apart (at random, so they
# fall anywhere in the frame pacing): quiet, then flooded, where a publisher on libmosquitto
# (Scripts/bench/mqtt-flood-publisher.c, built here) sends --rate messages a second (default
# 10000, each a new value) from 2 s before the first detent to the last. The rate reached is what
# it published over its run, and what a second subscriber (mosquitto_sub) received of it. The
# broker and its clients run at nice 10: on a pager they are other machines, and on this one
# they would otherwise take the pager's CPU for their own share of the flood.
#
# Detent to glass runs from the last edge of a detent (the instant the fake chip stamped it) to
# the last byte of the first frame that can show it: the writes of the first loop turn whose
# poll(2) returned after the edge (the fake kernel logs each turn's poll before its writes; the
# loop takes its input after each poll). First byte is to that frame's first byte. Crown events
# are what a mosquitto_sub on <base>/crown received (their counts summed) against the detents
# made; the pager's own tally is its last log line. Pager CPU is its user and system time over
# the phase's detents, in per cent of one core. It fails when a crown event is missing, a detent
# had no frame, or the glass p99 of a phase is 10 ms or more (issue 25's bound).
#
#   Scripts/bench/mqtt-flood.sh [--detents N] [--rate R] [--binary PATH]
#
# The run's files are in .build/mqtt-flood (the event log: events.txt; the program's log: crownpager.log).
set -euo pipefail
trap 'echo "mqtt-flood: line $LINENO failed: $BASH_COMMAND" >&2' ERR
detents=100
rate=10000
binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    --detents|--rate)
      [[ "${2:-}" =~ ^[0-9]+$ ]] && [ "$2" -gt 0 ] || { echo "mqtt-flood: $1 takes a whole number above 0" >&2; exit 2; }
      [ "$1" = --detents ] && detents=$2 || rate=$2
      shift 2 ;;
    --binary)
      [ -x "${2:-}" ] || { echo "mqtt-flood: --binary takes the path of a crownpager" >&2; exit 2; }
      binary="$(realpath "$2")"
      shift 2 ;;
    *) echo "mqtt-flood: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/../.."
who=mqtt-flood
. Scripts/bench/mqtt-bench-common.sh
cc -O2 Scripts/bench/mqtt-flood-publisher.c -o "$work/publisher" -lmosquitto \
  || { echo "mqtt-flood: cannot build the publisher: it needs libmosquitto-dev" >&2; exit 1; }
# The broker and its clients at nice 10: on a pager they are other machines, and on this one they
# would otherwise take the pager's CPU for their own share of the flood.
mqtt_bench_broker 10

base=bench/pager
cat >"$work/crownpager.toml" <<EOF
[display]
bus = 1
address = 0x3c
dim_after = "never"
off_after = "never"
[crown]
source = "gpio"
chip = "/dev/gpiochip0"
acceleration = false
[mqtt]
host = "127.0.0.1"
port = $port
base_topic = "$base"
[[page]]
kind = "text"
title = "Flood"
source = "mqtt"
topic = "bench/flood"
[[page]]
kind = "text"
title = "Hall"
text = "A page with no feed"
EOF
mqtt_bench_start FAKE_EVENT_LOG="$work/events.txt"

# The pager's CPU time so far, user and system, in clock ticks (/proc/PID/stat fields 14 and 15).
cpu_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$pager/stat"; }

# One phase: $1 its name; flooded when $2 is "flood". Prints a line of figures for the table.
phase() {
  local name=$1 flood=$2 made=0 direction=1 received_pid="" publisher=""
  nice -n 10 mosquitto_sub -h 127.0.0.1 -p "$port" -t "$base/crown" >"$work/crown-$name.txt" &
  local crown_sub=$!
  if [ "$flood" = flood ]; then
    nice -n 10 mosquitto_sub -h 127.0.0.1 -p "$port" -t bench/flood >"$work/flood-received.txt" &
    received_pid=$!
    sleep 0.5
    nice -n 10 "$work/publisher" 127.0.0.1 "$port" bench/flood "$rate" >"$work/flood-published.txt" &
    publisher=$!
    pids+=("$publisher" "$received_pid")
    sleep 2
  else
    sleep 0.5
  fi
  local started=${EPOCHREALTIME/./} ticks_before
  ticks_before=$(cpu_ticks)
  echo "mark start $name" >&3
  while [ "$made" -lt "$detents" ]; do
    if [ "$direction" -gt 0 ]; then
      printf '0 17 0\n0 27 0\n0 17 1\n0 27 1\n' >&3
    else
      printf '0 27 0\n0 17 0\n0 27 1\n0 17 1\n' >&3
    fi
    made=$((made + 1))
    direction=$((-direction))
    sleep "0.$((150 + RANDOM % 100))"
  done
  echo "mark end $name" >&3
  local cpu
  cpu=$(awk -v t="$(($(cpu_ticks) - ticks_before))" -v hz="$(getconf CLK_TCK)" -v a="$started" -v b="${EPOCHREALTIME/./}" \
    'BEGIN { printf "%.0f%%", 100 * t / hz / ((b - a) / 1000000) }')
  if [ -n "$publisher" ]; then
    kill -TERM "$publisher"
    wait "$publisher" || echo "mqtt-flood: the publisher ended with status $?" >&2
  fi
  sleep 2
  kill "$crown_sub" ${received_pid:+"$received_pid"}
  wait "$crown_sub" ${received_pid:+"$received_pid"} 2>/dev/null || true
  local events counted written=0 received=0 seconds=0 refused=0
  events=$(grep -c . "$work/crown-$name.txt" || [ $? -eq 1 ])
  counted=$(sed -n 's/.*"count":\([0-9]*\).*/\1/p' "$work/crown-$name.txt" | awk '{ sum += $1 } END { print sum + 0 }')
  if [ "$flood" = flood ]; then
    read -r written refused seconds <"$work/flood-published.txt"
    received=$(grep -c . "$work/flood-received.txt" || [ $? -eq 1 ])
    [ "$refused" -eq 0 ] || echo "mqtt-flood: libmosquitto refused $refused of the flood's messages" >&2
  fi
  echo "$name $made $events $counted $written $received $seconds $cpu" >>"$work/phases.txt"
}

: >"$work/phases.txt"
echo "mqtt-flood: $detents detents a phase, quiet then flooded at $rate messages/s"
phase quiet none
phase flooded flood
kill -TERM "$pager"
status=0
wait "$pager" || status=$?

# Detent to glass from the event log: a turn's frame is the writes after a poll(2) returned (the
# loop reads its input after each poll); a detent's frame is the first whose poll came after it.
sort -n -k1,1 "$work/events.txt" | awk -v hz=400000 '
  $2 == "mark" { marks[$3 " " $4] = $1; next }
  $2 == "edge" { edges++; if (edges % 4 == 0) { detent[++detents] = $1 }; next }
  $2 == "turn" { polled = $1; open = 0; next }
  $2 == "i2c" {
    if (!open) { frames++; fpoll[frames] = polled; fstart[frames] = $1 - ($3 * 9 + 11) * 1000000000 / hz; open = 1 }
    fend[frames] = $1
  }
  END {
    f = 1
    for (d = 1; d <= detents; d++) {
      while (f <= frames && fpoll[f] < detent[d]) f++
      name = detent[d] < marks["end quiet"] ? "quiet" : "flooded"
      if (f > frames || (d < detents && fpoll[f] >= detent[d + 1])) { missing[name]++; continue }
      printf "%s %.3f %.3f\n", name, (fstart[f] - detent[d]) / 1e6, (fend[f] - detent[d]) / 1e6
    }
    for (name in missing) printf "%s missing %d\n", name, missing[name]
  }' >"$work/latencies.txt"

stopping="$(sed -n 's/^crownpager: stopping: //p' "$work/crownpager.log" | tail -n 1)"
echo "mqtt-flood: crownpager run (release) on the fake kernel, I2C at 400 kHz; $(uname -m), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| phase | detents | frames measured | first byte p50 / p99 / max | glass p50 / p99 / max | crown events (count) | flood published / received | rate published / received | pager CPU |"
echo "|---|---|---|---|---|---|---|---|---|"
problems=()
while read -r name made events counted written received seconds cpu; do
  figures=$(awk -v n="$name" '$1 == n && $2 != "missing" { print $2, $3 }' "$work/latencies.txt" | awk '
    { first[NR] = $1; glass[NR] = $2 }
    function pct(a, p,   i, j, t, k) {
      for (i = 1; i <= NR; i++) s[i] = a[i]
      for (i = 2; i <= NR; i++) { t = s[i]; for (j = i - 1; j >= 1 && s[j] > t; j--) s[j + 1] = s[j]; s[j + 1] = t }
      k = int(p * NR + 0.999999); if (k < 1) k = 1; if (k > NR) k = NR
      return s[k]
    }
    END {
      if (NR == 0) { print 0, "-", "-"; exit }
      printf "%d %.2f/%.2f/%.2f %.2f/%.2f/%.2f\n", NR, pct(first, 0.5), pct(first, 0.99), pct(first, 1), pct(glass, 0.5), pct(glass, 0.99), pct(glass, 1)
    }')
  read -r measured first glass <<<"$figures"
  flood_rate="-"
  [ "$name" = flooded ] && flood_rate="$(awk -v w="$written" -v r="$received" -v s="$seconds" 'BEGIN { printf "%.0f / %.0f msg/s", w / s, r / s }')"
  echo "| $name | $made | $measured | ${first//\// \/ } ms | ${glass//\// \/ } ms | $events ($counted) | $written / $received | $flood_rate | $cpu |"
  [ "$counted" = "$made" ] || problems+=("$name: $counted crown events published for $made detents")
  [ "$measured" = "$made" ] || problems+=("$name: $((made - measured)) detents had no frame of their own")
  p99=$(cut -d/ -f2 <<<"$glass")
  awk -v p="$p99" 'BEGIN { exit !(p != "-" && p < 10) }' || problems+=("$name: glass p99 ${p99} ms, not under 10 ms")
done <"$work/phases.txt"
echo
echo "mqtt-flood: the pager's tally: ${stopping:-none}; exit status $status"
echo "mqtt-flood: per detent (phase, first byte ms, glass ms): $work/latencies.txt"
[ "$status" -eq 0 ] || problems+=("exit status $status on SIGTERM")
if [ "${#problems[@]}" -gt 0 ]; then
  printf 'mqtt-flood: FAILED: %s\n' "${problems[@]}" >&2
  exit 1
fi
echo "mqtt-flood: passed"
