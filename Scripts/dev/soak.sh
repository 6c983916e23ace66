#!/usr/bin/env bash
# Soaks `crownpager run` (the release build) on the fake kernel for N minutes, with everything an
# unattended device lives through going on at once:
#   - 30 detents/s of a bouncy knob on GPIO lines 17 and 27 (every edge of A bounces), mixed
#     directions, and a press of the button every 10 s;
#   - NACK bursts from the display every 7 s (every transfer refused with EREMOTEIO for 300 ms,
#     as while a noisy supply or a loose wire settles);
#   - the I2C adapter unplugged for 5 s every 3 minutes (in a shorter run: once, at a third);
#   - SIGHUP every 10 s, alternating two configurations with different page lists;
#   - command pages that hang (killed at their timeout), flood (output capped) and fork (a child
#     that calls setsid, and a sleeper that outlives its parent);
#   - with Debian's mosquitto installed (packages mosquitto, mosquitto-clients): [mqtt] against a
#     broker on 127.0.0.1 that restarts every 3 minutes (in a shorter run: at a third and two
#     thirds), a page fed by a topic published to every second, and after each restart the
#     pager's availability `online` waited for (it reconnects by itself, with backoff).
# Every 5 s it samples the process: RSS, file descriptors, threads, children. At the end it stops
# the program with SIGTERM and reports peak RSS, RSS growth after the first fifth of the run,
# descriptors and threads then and at the end, detents the knob made and detents the pager
# applied (from the program's last log line), and whether it crashed. It fails if RSS grew by more
# than 1 MiB, a descriptor or thread leaked, a detent was lost, the display did not come back
# from every outage, a command's process outlived the run, the program did not exit 0 on SIGTERM,
# or it did not say `online` again within 30 s of a broker's restart.
#
#   Scripts/dev/soak.sh [MINUTES]   default 1 (CI); 60 before a release
#
# The fake kernel (Tests/FakeKernel) is built here with cc as a shared object for LD_PRELOAD;
# the run's files are in .build/soak (the program's log: .build/soak/crownpager.log).
set -euo pipefail
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
esac
minutes=${1:-1}
[[ "$minutes" =~ ^[0-9]+$ ]] && [ "$minutes" -gt 0 ] || { echo "soak: MINUTES must be a whole number above 0" >&2; exit 2; }
cd "$(dirname "$0")/../.."
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
for need in swift:swiftlang cc:gcc ps:procps; do
  command -v "${need%%:*}" >/dev/null || { echo "soak: cannot run: no ${need%%:*} (package ${need#*:}; Scripts/setup.sh --test installs it)" >&2; exit 1; }
done
broker=yes
for need in /usr/sbin/mosquitto /usr/bin/mosquitto_pub /usr/bin/mosquitto_sub; do
  [ -x "$need" ] || { broker=no; echo "soak: no $need: the broker's part is left out (packages mosquitto, mosquitto-clients)"; }
done

echo "soak: building crownpager (release)"
swift build -c release --product crownpager >/dev/null
program="$(swift build -c release --show-bin-path)/crownpager"
work=.build/soak
rm -rf "$work"
mkdir -p "$work/root"
cc -shared -fPIC -O1 -I Tests/FakeKernel/include Tests/FakeKernel/*.c -o "$work/libFakeKernel.so" -ldl -lpthread
fifo="$work/input"
mkfifo "$fifo"

# The commands carry this run's number, so that what is left over is told from another soak's.
token=$$
duration=$((minutes * 60))
# The broker: mosquitto on 127.0.0.1 at a free port (the kernel's pick is not to be had from bash:
# a random one nobody listens on), restarted by broker_cycle below; the pager's topics under soak/pager.
port=$((20000 + RANDOM % 20000))
while ss -Htln "sport = :$port" 2>/dev/null | grep -q .; do port=$((20000 + RANDOM % 20000)); done
base="soak/pager-$token"
mqtt_section() {
  [ "$broker" = yes ] || return 0
  printf '[mqtt]\nhost = "127.0.0.1"\nport = %s\nbase_topic = "%s"\nkeepalive = "10s"\n' "$port" "$base"
}
mqtt_page() {
  [ "$broker" = yes ] || return 0
  printf '[[page]]\nkind = "text"\ntitle = "Broker"\nsource = "mqtt"\ntopic = "%s/value"\n' "$base"
}
# Two configurations: the second has one page more and a page less, so a reload changes the list.
configuration() { # extra page kind
  cat <<EOF
[display]
bus = 1
address = 0x3c
dim_after = "never"
off_after = "never"
[crown]
source = "gpio"
chip = "/dev/gpiochip0"
acceleration = false
wrap = true
$(mqtt_section)
$(mqtt_page)
[[page]]
kind = "clock"
title = "Clock"
time = "%H:%M:%S"
[[page]]
kind = "system"
title = "System"
values = ["hostname", "load", "memory", "uptime"]
refresh = "1s"
[[page]]
kind = "command"
title = "Hangs"
argv = ["sleep", "61$token"]
timeout = "1s"
refresh = "2s"
[[page]]
kind = "command"
title = "Floods"
argv = ["yes", "soak $token: a line that never ends"]
timeout = "1s"
max_output = 4096
refresh = "2s"
[[page]]
kind = "command"
title = "Forks"
argv = ["sh", "-c", "setsid sleep 31$token & sleep 31$token & echo forked; wait"]
timeout = "1s"
refresh = "2s"
EOF
  if [ "$1" = b ]; then
    printf '[[page]]\nkind = "text"\ntitle = "Reloaded"\ntext = "%s"\n' "$(printf 'A tall page that scrolls. %.0s' {1..12})"
  else
    printf '[[page]]\nkind = "gauge"\ntitle = "Load"\nsource = "load"\n'
  fi
}
configuration a >"$work/a.toml"
configuration b >"$work/b.toml"
cp "$work/a.toml" "$work/crownpager.toml"
"$program" check "$work/a.toml" >/dev/null
"$program" check "$work/b.toml" >/dev/null

broker_pid=""
start_broker() {
  /usr/sbin/mosquitto -c "$work/mosquitto.conf" >>"$work/mosquitto.log" 2>&1 &
  broker_pid=$!
  for _ in $(seq 100); do ss -Htln "sport = :$port" | grep -q . && return 0; sleep 0.1; done
  echo "soak: mosquitto did not listen on port $port:" >&2
  tail -n 5 "$work/mosquitto.log" >&2
  return 1
}
# Whether the pager's availability (retained; the broker keeps nothing across a restart, so it is
# the pager's own after reconnecting) reads `online` within $1 seconds.
online_within() {
  local until=$((SECONDS + $1))
  while [ "$SECONDS" -lt "$until" ]; do
    [ "$(/usr/bin/mosquitto_sub -h 127.0.0.1 -p "$port" -t "$base/availability" -C 1 -W 2 2>/dev/null)" = online ] && return 0
    sleep 0.2
  done
  return 1
}
if [ "$broker" = yes ]; then
  printf 'listener %s 127.0.0.1\npersistence false\nallow_anonymous true\n' "$port" >"$work/mosquitto.conf"
  start_broker
fi

LD_PRELOAD="$(pwd)/$work/libFakeKernel.so" FAKE_KERNEL_ROOT="$(pwd)/$work/root" FAKE_I2C_DEVICES=1:0x3c \
  FAKE_GPIO_CHIPS=0:54 FAKE_GPIO_INPUT="$(pwd)/$fifo" \
  "$program" run --config "$work/crownpager.toml" --i2c-bus 1 >"$work/crownpager.out" 2>"$work/crownpager.log" &
pid=$!
exec 3<>"$fifo"
sleep 1
kill -0 "$pid" 2>/dev/null || { echo "soak: crownpager did not start:" >&2; cat "$work/crownpager.log" >&2; exit 1; }

# The knob: detents paced to 30 a second on the wall clock, in batches every 50 ms; every edge of A
# bounces (it flips back and forth once before it settles), as a worn KY-040's contacts do.
detent() { # direction: 1 clockwise (A falls first), -1 counterclockwise (B falls first)
  local first=17 second=27
  [ "$1" -lt 0 ] && first=27 second=17
  printf '0 %s 0\n0 %s 1\n0 %s 0\n0 %s 0\n0 %s 1\n0 %s 0\n0 %s 1\n0 %s 1\n' \
    "$first" "$first" "$first" "$second" "$first" "$first" "$first" "$second"
}
knob() {
  local start=${EPOCHREALTIME/./} made=0 forward=0 back=0 due now direction
  local end=$((start + minutes * 60 * 1000000))
  while :; do
    now=${EPOCHREALTIME/./}
    [ "$now" -ge "$end" ] && break
    due=$(((now - start) * 30 / 1000000))
    local batch=""
    while [ "$made" -lt "$due" ]; do
      # Seven forward, then five back: the pages move on overall, both directions are exercised.
      if [ $((made % 12)) -lt 7 ]; then direction=1 forward=$((forward + 1)); else direction=-1 back=$((back + 1)); fi
      batch+="$(detent "$direction")"$'\n'
      made=$((made + 1))
    done
    [ -n "$batch" ] && printf '%s' "$batch" >&3
    sleep 0.05
  done
  echo "$made $forward $back" >"$work/knob"
}
knob &
knob_pid=$!

# The broker restarts every 3 minutes (a shorter run: at a third and two thirds, none in its last
# 10 s), each followed by a wait of up to 30 s for `online`; one line each in $work/broker.
restart_every=180
[ "$duration" -lt $((restart_every * 3)) ] && restart_every=$((duration / 3))
broker_cycle() {
  local restarts=0 origin=$SECONDS at
  if ! online_within 30; then echo "start: no online within 30 s" >>"$work/broker"; fi
  while [ $(((restarts + 1) * restart_every)) -le $((duration - 10)) ]; do
    while [ "$SECONDS" -lt $((origin + (restarts + 1) * restart_every)) ]; do sleep 0.5; done
    # The first broker is the script's child, not this subshell's: wait for it by its pid.
    kill -TERM "$broker_pid"
    while kill -0 "$broker_pid" 2>/dev/null; do sleep 0.05; done
    start_broker || { echo "restart $((restarts + 1)): mosquitto did not start" >>"$work/broker"; break; }
    restarts=$((restarts + 1))
    at=$SECONDS
    if online_within 30; then
      echo "restart $restarts: online again after $((SECONDS - at)) s" >>"$work/broker"
    else
      echo "restart $restarts: no online within 30 s" >>"$work/broker"
    fi
  done
  echo "$broker_pid" >"$work/broker-pid"
}
: >"$work/broker"
if [ "$broker" = yes ]; then
  broker_cycle &
  cycle_pid=$!
fi

sample() { # seconds
  local status rss hwm threads fds children
  status="$(cat "/proc/$pid/status" 2>/dev/null)" || return 1
  rss=$(awk '/^VmRSS:/ { print $2 }' <<<"$status")
  hwm=$(awk '/^VmHWM:/ { print $2 }' <<<"$status")
  threads=$(awk '/^Threads:/ { print $2 }' <<<"$status")
  fds=$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
  children=$(ps -o pid= --ppid "$pid" | wc -l)
  echo "$1 $rss $hwm $fds $threads $children" >>"$work/samples"
}
: >"$work/samples"
unplug_every=180
[ "$duration" -lt "$unplug_every" ] && unplug_every=$((duration / 3))
reloads=0 bursts=0 unplugs=0 presses=0 config=a published=0 unpublished=0
for ((second = 1; second <= duration; second++)); do
  sleep 1
  kill -0 "$pid" 2>/dev/null || break
  if ((second % 10 == 0)); then
    config=$([ "$config" = a ] && echo b || echo a)
    cp "$work/$config.toml" "$work/crownpager.toml"
    kill -HUP "$pid" && reloads=$((reloads + 1))
    # A short press: the button is debounced (5 ms), so it is let go 100 ms later.
    printf '0 22 0\n' >&3 && presses=$((presses + 1))
    (sleep 0.1 && printf '0 22 1\n' >&3) &
  fi
  # No outage starts in the last 10 s: the run ends with the display answering, to check that.
  quiet=$((second + 10 > duration))
  if ((second % 7 == 0 && !quiet)); then
    echo "i2c-nack 1 0x3c 121" >&3 && bursts=$((bursts + 1))
    (sleep 0.3 && echo "i2c-nack 1 0x3c 0" >&3) &
  fi
  if ((second % unplug_every == 0 && !quiet)); then echo "i2c-remove 1" >&3 && unplugs=$((unplugs + 1)); fi
  if ((second % unplug_every == 5)) && ((second > 5)); then echo "i2c-add 1" >&3; fi
  # A sample fails only once the program is gone, which the next turn finds and the checks report.
  if ((second % 5 == 0)); then sample "$second" || true; fi
  # The page's value, once a second; refused while the broker restarts.
  if [ "$broker" = yes ]; then
    if /usr/bin/mosquitto_pub -h 127.0.0.1 -p "$port" -t "$base/value" -m "value $second" -q 1 2>/dev/null; then
      published=$((published + 1))
    else
      unpublished=$((unpublished + 1))
    fi
  fi
done
# The broker's last restart is 10 s or more before the end: its wait for `online` is over soon.
if [ "$broker" = yes ]; then wait "$cycle_pid" || echo "soak: the broker's cycle ended with status $?" >&2; fi
alive=true
kill -0 "$pid" 2>/dev/null || alive=false
# A dead program reads no more edges: the knob would wait on a full FIFO. The knob's own status
# says nothing (it is killed then): what it made is in $work/knob, checked below.
$alive || kill "$knob_pid" 2>/dev/null || true
wait "$knob_pid" || true
sleep 1
# As above: a dead program's sample fails, and "crownpager died" is the failure reported.
sample "$duration" || true
kill -TERM "$pid" 2>/dev/null || true
status=0
wait "$pid" || status=$?
exec 3>&-
sleep 0.2
if [ "$broker" = yes ]; then
  kill -TERM "$(cat "$work/broker-pid" 2>/dev/null || echo "$broker_pid")" 2>/dev/null || echo "soak: the broker had gone" >&2
fi

read -r made forward back <"$work/knob" || { made=0 forward=0 back=0; }
stopping="$(sed -n 's/^crownpager: stopping: //p' "$work/crownpager.log" | tail -n 1)"
turned=$(sed -n 's/^the crown turned \([0-9]*\) detents.*/\1/p' <<<"$stopping")
applied=$(sed -n 's/.*, \([0-9]*\) applied.*/\1/p' <<<"$stopping")
warm=$((duration / 5))
read -r _ rss_warm _ fds_warm threads_warm _ < <(awk -v w="$warm" '$1 >= w' "$work/samples" | head -n 1)
read -r _ rss_end hwm_end fds_end threads_end _ < <(tail -n 1 "$work/samples")
peak_rss=$(awk 'max < $3 { max = $3 } END { print max + 0 }' "$work/samples")
growth=$((${rss_end:-0} - ${rss_warm:-0}))
lost=$(grep -c 'the display stopped answering' "$work/crownpager.log" || true)
recovered=$(grep -c 'the display answers again' "$work/crownpager.log" || true)
leftover=$(pgrep -f "sleep 61$token|sleep 31$token|yes soak $token:" | wc -l || true)

echo "soak: $minutes min of crownpager run on the fake kernel ($(uname -m), $(nproc) cores)"
echo "soak:   reloads $reloads, NACK bursts $bursts, adapter unplugged $unplugs times, button presses $presses"
echo "soak:   peak RSS ${peak_rss} kB; RSS ${rss_warm:-?} kB at ${warm} s and ${rss_end:-?} kB at the end (growth ${growth} kB)"
echo "soak:   RSS over the run (s:kB): $(awk -v n="$(wc -l <"$work/samples")" 'NR % int(n / 6 + 1) == 0 || NR == n { printf "%s:%s ", $1, $2 }' "$work/samples")"
echo "soak:   descriptors ${fds_warm:-?} at ${warm} s, ${fds_end:-?} at the end; threads ${threads_warm:-?} and ${threads_end:-?}"
echo "soak:   detents: the knob made $made ($forward forward, $back back); the pager saw ${turned:-?}, applied ${applied:-?}"
echo "soak:   the display stopped answering $lost times and answered again $recovered times"
echo "soak:   lines logged $(wc -l <"$work/crownpager.log"); exit status $status; command processes left $leftover"
if [ "$broker" = yes ]; then
  restarted=$(grep -c '^restart' "$work/broker" || true)
  reconnected=$(grep -c 'online again' "$work/broker" || true)
  echo "soak:   broker restarted $restarted times (every $restart_every s), the pager online again after each: $reconnected ($(grep -o 'after [0-9]* s' "$work/broker" | tr '\n' ' '))"
  echo "soak:   values published to its page: $published (refused while it restarted: $unpublished)"
fi
echo "soak:   samples (seconds, RSS kB, peak kB, descriptors, threads, children): $work/samples"
problems=()
$alive || problems+=("crownpager died during the run")
[ "$status" -eq 0 ] || problems+=("exit status $status on SIGTERM")
[ "${turned:-x}" = "$made" ] || problems+=("the pager saw ${turned:-no} detents of $made")
[ "${applied:-x}" = "$made" ] || problems+=("the pager applied ${applied:-no} detents of $made")
[ "$growth" -le 1024 ] || problems+=("RSS grew by $growth kB")
[ "${fds_end:-0}" -le "${fds_warm:-0}" ] || problems+=("descriptors grew from $fds_warm to $fds_end")
[ "${threads_end:-0}" -le "${threads_warm:-0}" ] || problems+=("threads grew from $threads_warm to $threads_end")
[ "$lost" -eq "$recovered" ] || problems+=("the display stopped answering $lost times but answered again $recovered times")
[ "$leftover" -eq 0 ] || problems+=("$leftover command processes outlived the run")
if [ "$broker" = yes ]; then
  [ "$restarted" -gt 0 ] && [ "$reconnected" -eq "$restarted" ] && ! grep -q '^start: no online' "$work/broker" \
    || problems+=("the broker: $(grep -v 'online again' "$work/broker" | tr '\n' ';' || echo "restarted $restarted times")")
  [ "$published" -gt 0 ] || problems+=("no value could be published to the broker")
fi
if [ "${#problems[@]}" -gt 0 ]; then
  printf 'soak: FAILED: %s\n' "${problems[@]}" >&2
  echo "soak: the program's last lines:" >&2
  tail -n 20 "$work/crownpager.log" >&2
  exit 1
fi
echo "soak: passed"
