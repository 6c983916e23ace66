#!/usr/bin/env bash
# What Scripts/bench/mqtt-flood.sh and mqtt-latency.sh share: the release binary, the fake kernel,
# Debian's mosquitto on a free port of 127.0.0.1, and `crownpager run` against it. Sourced, with
# $who (the script's name, for messages) and $binary (empty: built here) set; run from the
# repository's top. Leaves $work, $port, $pids (ended at exit), and after mqtt_bench_start, $pager.
#
#   who=NAME binary=PATH; . Scripts/bench/mqtt-bench-common.sh

if [ "${BASH_SOURCE[0]}" = "$0" ]; then awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; fi

for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
for need in cc:gcc mosquitto:mosquitto mosquitto_pub:mosquitto-clients mosquitto_sub:mosquitto-clients; do
  command -v "${need%%:*}" >/dev/null || [ -x "/usr/sbin/${need%%:*}" ] || {
    echo "$who: cannot run: no ${need%%:*} (package ${need#*:}; Scripts/setup.sh --test installs it)" >&2
    exit 1
  }
done
PATH="$PATH:/usr/sbin"

if [ -z "$binary" ]; then
  echo "$who: building crownpager (release)"
  swift build -c release --product crownpager >/dev/null
  binary="$(swift build -c release --show-bin-path)/crownpager"
fi
work=.build/$who
rm -rf "$work"
mkdir -p "$work/root"
work="$(pwd)/$work"
cc -shared -fPIC -O1 -I Tests/FakeKernel/include Tests/FakeKernel/*.c -o "$work/libFakeKernel.so" -ldl -lpthread
mkfifo "$work/input"

# A random port nobody listens on (ss lists those taken; bash cannot bind to 0 for the kernel's pick).
port=$((20000 + RANDOM % 20000))
while ss -Htln "sport = :$port" 2>/dev/null | grep -q .; do port=$((20000 + RANDOM % 20000)); done
printf 'listener %s 127.0.0.1\npersistence false\nallow_anonymous true\n' "$port" >"$work/mosquitto.conf"
pids=()
mqtt_bench_cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap mqtt_bench_cleanup EXIT

# mqtt_bench_broker [NICE]: starts the broker, at nice NICE (default 0).
mqtt_bench_broker() {
  nice -n "${1:-0}" mosquitto -c "$work/mosquitto.conf" >"$work/mosquitto.log" 2>&1 &
  pids+=($!)
}

# mqtt_bench_start [ENV=VALUE...]: runs $work/crownpager.toml (checked first) on the fake kernel,
# the panel at 0x3c on bus 1 at 400 kHz, the knob's edges from $work/input (open as descriptor 3),
# with the extra environment given; waits until it says it is connected.
mqtt_bench_start() {
  "$binary" check "$work/crownpager.toml" >/dev/null
  env LD_PRELOAD="$work/libFakeKernel.so" FAKE_KERNEL_ROOT="$work/root" FAKE_I2C_DEVICES=1:0x3c FAKE_I2C_HZ=400000 \
    FAKE_GPIO_CHIPS=0:54 FAKE_GPIO_INPUT="$work/input" "$@" \
    "$binary" run --config "$work/crownpager.toml" >"$work/crownpager.out" 2>"$work/crownpager.log" &
  pager=$!
  pids+=("$pager")
  exec 3<>"$work/input"
  for _ in $(seq 100); do grep -q 'mqtt: connected' "$work/crownpager.log" && break; sleep 0.1; done
  grep -q 'mqtt: connected' "$work/crownpager.log" || {
    echo "$who: the pager did not connect to the broker:" >&2
    cat "$work/crownpager.log" >&2
    exit 1
  }
}
