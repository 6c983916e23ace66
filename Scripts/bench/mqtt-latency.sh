#!/usr/bin/env bash
# Measures how long Home Assistant waits for the pager's answer: for every command Home Assistant
# sends (the page select, the brightness number, the display switch, a pushed text page, a pushed
# gauge) in every state the pager can be in (the command's page shown or not, the panel bright,
# dimmed or switched off), the time from the command's publish to the state that answers it, as
# Home Assistant's MQTT client sees it. Then an idle spell: the pager's wakeups a minute with MQTT on.
#
# `crownpager run` (the release build) runs on the fake kernel as in Scripts/bench/mqtt-flood.sh
# (the panel on a fake /dev/i2c-1 at 400 kHz, FAKE_I2C_HZ; the knob on a fake gpiochip0), with
# [mqtt] against Debian's mosquitto on 127.0.0.1 at a free port, the default 60 s keepalive, and
# dim_after = 1s so that the dimmed state comes by itself. The other end is one libmosquitto
# client (Scripts/bench/mqtt-latency-probe.c, built here) that publishes each command at QoS 0 (Home
# Assistant's default) and
# times, on CLOCK_MONOTONIC in the same process, the arrival of the state it must bring. The
# broker and the probe run at the pager's priority: they send one message at a time, and at nice
# 10 on a busy machine their own scheduling delays would be most of the figure.
#
# Each state is made before each sample (a page shown with page/set, the panel off with
# display/set OFF, dimmed by waiting for <base>/screen to say so) and each sample sets a value the
# state does not have yet, so every command has an answer to wait for. The notify entities and
# remote buttons have no state in Home Assistant, so nothing answers them: they are not measured.
# It fails when any answer is missing, or a cell's p99 is 100 ms or more (issue 33's bound), or
# the idle pager wakes more often than a quarter keepalive and the loop's own start need.
#
#   Scripts/bench/mqtt-latency.sh [--samples N] [--idle SECONDS] [--binary PATH]
#
# --samples per cell (default 20), --idle seconds (default 30). The run's files are in
# .build/mqtt-latency (the program's log: crownpager.log; every sample: samples.txt).
set -euo pipefail
trap 'echo "mqtt-latency: line $LINENO failed: $BASH_COMMAND" >&2' ERR
samples=20
idle=30
binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    --samples|--idle)
      [[ "${2:-}" =~ ^[0-9]+$ ]] && [ "$2" -gt 0 ] || { echo "mqtt-latency: $1 takes a whole number above 0" >&2; exit 2; }
      [ "$1" = --samples ] && samples=$2 || idle=$2
      shift 2 ;;
    --binary)
      [ -x "${2:-}" ] || { echo "mqtt-latency: --binary takes the path of a crownpager" >&2; exit 2; }
      binary="$(realpath "$2")"
      shift 2 ;;
    *) echo "mqtt-latency: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/../.."
who=mqtt-latency
. Scripts/bench/mqtt-bench-common.sh
cc -O2 Scripts/bench/mqtt-latency-probe.c -o "$work/probe" -lmosquitto \
  || { echo "mqtt-latency: cannot build the probe: it needs libmosquitto-dev" >&2; exit 1; }
mqtt_bench_broker

base=bench/pager
cat >"$work/crownpager.toml" <<EOF
[display]
bus = 1
address = 0x3c
dim_after = "1s"
off_after = "never"
[crown]
source = "gpio"
chip = "/dev/gpiochip0"
[mqtt]
host = "127.0.0.1"
port = $port
base_topic = "$base"
[[page]]
kind = "text"
title = "Kitchen"
text = "A page with no feed"
[[page]]
kind = "text"
title = "Washer"
source = "push"
[[page]]
kind = "gauge"
title = "Tank"
source = "push"
min = 0
max = 100
EOF
mqtt_bench_start

coproc PROBE { "$work/probe" 127.0.0.1 "$port" "$base"; }
pids+=("$PROBE_PID")
# One probe command; its answer.
ask() {
  local IFS=$'\t'
  echo "$*" >&"${PROBE[1]}"
  local answer
  read -r answer <&"${PROBE[0]}"
  echo "$answer"
}
# Makes a state: $1 is shown (the page $2 on the glass, bright), hidden (Kitchen shown, bright),
# dimmed ($2 shown, then dimmed) or off ($2 shown, then the display switched off).
state() {
  local want=$1 shown=$2
  [ "$want" = hidden ] && shown=Kitchen
  [ "$(ask is "$base/display" ON)" = yes ] || [ "$(ask pub "$base/display/set" ON "$base/display" ON)" != timeout ] || return 1
  [ "$(ask is "$base/page" "$shown")" = yes ] || [ "$(ask pub "$base/page/set" "$shown" "$base/page" "$shown")" != timeout ] || return 1
  # Shown again, the page wakes the panel, as a turn does.
  [ "$(ask is "$base/screen" bright)" = yes ] || [ "$(ask pub "$base/page/set" "$shown" "$base/screen" bright)" != timeout ] || return 1
  case "$want" in
    dimmed) [ "$(ask wait "$base/screen" dimmed)" = ok ] || return 1 ;;
    off) [ "$(ask pub "$base/display/set" OFF "$base/display" OFF)" != timeout ] || return 1 ;;
  esac
  # A person's command comes long after the states it answers: 100 ms lets TCP's delayed ACKs of
  # the setup's messages go out, which the broker's Nagle algorithm (mosquitto's default,
  # set_tcp_nodelay false) would otherwise hold the answer behind, 40 ms a hop.
  sleep 0.1
}

: >"$work/samples.txt"
sample=0
brightness=50
# measure COMMAND STATE: --samples answers to COMMAND made in STATE, into samples.txt.
measure() {
  local command=$1 want=$2 i answer page=Kitchen topic payload state_topic state_payload
  case "$command" in text) page=Washer ;; gauge) page=Tank ;; esac
  for ((i = 0; i < samples; i++)); do
    sample=$((sample + 1))
    state "$want" "$page" || { echo "$command $want unreachable" >>"$work/samples.txt"; continue; }
    case "$command" in
      select)
        # To the page not shown: Kitchen <-> Washer.
        payload=Washer; [ "$(ask is "$base/page" Washer)" = yes ] && payload=Kitchen
        topic="$base/page/set" state_topic="$base/page" state_payload=$payload ;;
      brightness)
        brightness=$((brightness == 50 ? 60 : 50))
        topic="$base/brightness/set" payload=$brightness state_topic="$base/brightness" state_payload=$brightness ;;
      switch)
        payload=OFF; [ "$want" = off ] && payload=ON
        topic="$base/display/set" state_topic="$base/display" state_payload=$payload ;;
      text)
        payload="value $sample"
        topic="$base/page/washer/set" state_topic="$base/page/washer/state" state_payload=$payload ;;
      gauge)
        payload=$((sample % 101))
        topic="$base/page/tank/set" state_topic="$base/page/tank/state" state_payload=$payload ;;
    esac
    answer=$(ask pub "$topic" "$payload" "$state_topic" "$state_payload")
    echo "$command $want $answer" >>"$work/samples.txt"
  done
}

echo "mqtt-latency: $samples samples a cell"
for want in shown dimmed off; do measure select "$want"; done
for want in shown dimmed off; do measure brightness "$want"; done
for want in shown dimmed off; do measure switch "$want"; done
for want in shown hidden dimmed off; do measure text "$want"; done
for want in shown hidden dimmed off; do measure gauge "$want"; done

# Idle: Kitchen shown and dimmed, nothing due but the keepalive. Voluntary context switches of all
# the pager's threads, each a sleep that ended.
state dimmed Kitchen
switches() { cat /proc/"$pager"/task/*/status | awk '/^voluntary_ctxt_switches/ { s += $2 } END { print s }'; }
before=$(switches)
sleep "$idle"
woke=$(($(switches) - before))
kill -TERM "$pager"
status=0
wait "$pager" || status=$?

echo "mqtt-latency: crownpager run (release) on the fake kernel, I2C at 400 kHz, keepalive 60 s; $(uname -m), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| command (Home Assistant entity) | state | samples | publish to state p50 / p99 / max |"
echo "|---|---|---|---|"
problems=()
while read -r command want; do
  figures=$(awk -v c="$command" -v w="$want" '$1 == c && $2 == w { print $3 }' "$work/samples.txt" | awk '
    $1 == "timeout" || $1 == "unreachable" { missing++; next }
    { v[++n] = $1 }
    function pct(p,   i, j, t, k) {
      for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
      k = int(p * n + 0.999999); if (k < 1) k = 1; if (k > n) k = n
      return v[k]
    }
    END {
      if (n == 0) { printf "0 %d - - -\n", missing; exit }
      p50 = pct(0.5); p99 = pct(0.99); printf "%d %d %.2f %.2f %.2f\n", n, missing, p50, p99, v[n]
    }')
  read -r measured missing p50 p99 max <<<"$figures"
  echo "| $command | $want | $measured | $p50 / $p99 / $max ms |"
  [ "$missing" -eq 0 ] || problems+=("$command, $want: $missing of $samples answers missing")
  awk -v p="$p99" 'BEGIN { exit !(p != "-" && p < 100) }' || problems+=("$command, $want: p99 $p99 ms, not under 100 ms")
done < <(awk '{ print $1, $2 }' "$work/samples.txt" | awk '!seen[$0]++')
per_minute=$(awk -v w="$woke" -v s="$idle" 'BEGIN { printf "%.1f", w * 60 / s }')
echo
echo "mqtt-latency: idle, dimmed, MQTT connected: $woke wakeups in $idle s ($per_minute a minute; a quarter keepalive is 4 a minute)"
# A quarter keepalive (15 s) is one wake, and the turn it ends another: 2 each 15 s, and one spare.
[ "$woke" -le $((2 * (idle / 15 + 1) + 1)) ] || problems+=("idle: $woke wakeups in $idle s")
[ "$status" -eq 0 ] || problems+=("exit status $status on SIGTERM")
echo "mqtt-latency: every sample (command, state, ms): $work/samples.txt"
if [ "${#problems[@]}" -gt 0 ]; then
  printf 'mqtt-latency: FAILED: %s\n' "${problems[@]}" >&2
  exit 1
fi
echo "mqtt-latency: passed"
