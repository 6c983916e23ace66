#!/usr/bin/env bash
# The VM check's script inside the guest (Scripts/dev/vm-check.sh copies it to the run's disk,
# /vmcheck): run by the image's units, not by hand.
#
#   guest.sh setup     before crownpager.service: the gpio-sim chip with the configured line names
#                      (custom kernel) or i2c-stub (stock kernel), and /etc/crownpager/crownpager.toml
#   guest.sh run       after multi-user.target: the scenarios, a PASS or FAIL line each in
#                      /vmcheck/out/results, then the journal in /vmcheck/out; the unit powers off
#
# /vmcheck/mode says which kernel this is: custom (virtio-i2c, gpio-sim, uinput) or stock (Debian's,
# i2c-stub and uinput). Requests to the host (a glass snapshot, the panel absent or present) are
# lines "@@vmcheck-host REQUEST" on the console; the host acts on them in order.
set -uo pipefail
case "${1:-}" in
  setup | run) ;;
  *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
esac
disk=/vmcheck
out=$disk/out
mode="$(cat "$disk/mode")"
config=/etc/crownpager/crownpager.toml
sim=/sys/kernel/config/gpio-sim/crown
# The configured lines: A, B and the button, as on a Raspberry Pi header (Hardware/crownpager.toml).
line_a=17 line_b=27 line_button=22
detents_forward=3
mkdir -p "$out"

say() { printf 'vmcheck: %s\n' "$*"; }
host() { printf '@@vmcheck-host %s @@\n' "$*" >/dev/console; }

# --- the devices -------------------------------------------------------------------------------

# A gpio-sim chip of 28 lines, the three configured ones named as on a Pi (GPIO17...), live.
gpio_sim_add() {
  local line
  mkdir -p "$sim/gpio-bank0" || return 1
  echo 28 >"$sim/gpio-bank0/num_lines"
  for line in $line_a $line_b $line_button; do
    mkdir -p "$sim/gpio-bank0/line$line"
    echo "GPIO$line" >"$sim/gpio-bank0/line$line/name"
  done
  echo 1 >"$sim/live"
  udevadm settle --timeout=30
}
gpio_sim_remove() {
  local line
  echo 0 >"$sim/live"
  for line in $line_a $line_b $line_button; do rmdir "$sim/gpio-bank0/line$line"; done
  rmdir "$sim/gpio-bank0" "$sim"
}
gpio_chip() { echo "/dev/$(cat "$sim/gpio-bank0/chip_name")"; }
# Drives line N to up or down through gpio-sim's pull (the consumer's bias is set at its request).
pull() { echo "pull-$2" >"/sys/devices/platform/$(cat "$sim/dev_name")/$(cat "$sim/gpio-bank0/chip_name")/sim_gpio$1/pull"; }
# One detent of quadrature from rest (both high), with contact bounce on the first edge:
# clockwise 11 -> 01 -> 00 -> 10 -> 11 (A falls first), counterclockwise B falls first.
detent() {
  local first=$line_a second=$line_b
  [ "$1" = back ] && first=$line_b second=$line_a
  pull "$first" down; pull "$first" up; pull "$first" down
  pull "$second" down
  pull "$first" up
  pull "$second" up
}
rest_lines() { pull $line_a up; pull $line_b up; pull $line_button up; }

# The adapter whose /sys name says DRIVER: "i2c-N", or nothing.
i2c_adapter() {
  local dir
  for dir in /sys/class/i2c-dev/i2c-*; do
    [ -e "$dir/name" ] && grep -qi "$1" "$dir/name" && { basename "$dir"; return 0; }
  done
  return 1
}

write_config() {
  local bus=$1 source=$2 evdev=${3:-/dev/input/event0}
  cat >"$config" <<EOF
# The VM check's configuration (Scripts/dev/vm/guest.sh): text pages only, so render draws the same.
[display]
bus = $bus
address = 0x3c
dim_after = "never"
off_after = "never"

[crown]
source = "$source"
chip = "/dev/gpiochip0"
lines.a = $line_a
lines.b = $line_b
lines.button = $line_button
evdev = "$evdev"
acceleration = false

[indicator]
style = "minimal"
EOF
  local page
  for page in One Two Three Four Five Six; do
    printf '\n[[page]]\nkind = "text"\ntitle = "%s"\ntext = "Page %s of the VM check"\n' "$page" "$page" >>"$config"
  done
}

setup() {
  # The nodes that exist at boot with their groups (udev's rules) before the service opens them.
  udevadm settle --timeout=60
  case "$mode" in
    custom)
      gpio_sim_add || say "could not make the gpio-sim chip"
      local bus
      bus="$(i2c_adapter virtio)" || bus="i2c-missing"
      write_config "${bus#i2c-}" gpio
      say "setup: gpio-sim $(gpio_chip) with GPIO$line_a, GPIO$line_b, GPIO$line_button; panel on /dev/$bus"
      ;;
    stock)
      modprobe i2c-stub chip_addr=0x3c || say "could not load i2c-stub"
      udevadm settle --timeout=30
      local bus knob
      bus="$(i2c_adapter "SMBus stub")" || bus="i2c-missing"
      knob="$(uinput_hold "vmcheck held knob")"
      write_config "${bus#i2c-}" evdev "$knob"
      say "setup: i2c-stub on /dev/$bus, a uinput knob on $knob"
      ;;
  esac
}

# --- checking ----------------------------------------------------------------------------------

passed=0 failed=0
pass() { printf 'PASS %s\n' "$*" | tee -a "$out/results" >/dev/console; passed=$((passed + 1)); }
fail() { printf 'FAIL %s\n' "$*" | tee -a "$out/results" >/dev/console; failed=$((failed + 1)); }
# check NAME DETAIL COMMAND...: PASS or FAIL by COMMAND's status. DETAIL is expanded after COMMAND
# ran (single-quoted at the call: it shows the state the command waited for).
check() {
  local name=$1 detail=$2 text; shift 2
  if "$@"; then eval "text=\"$detail\""; pass "$name: $text"; else eval "text=\"$detail\""; fail "$name: $text"; fi
}
# Waits up to $1 seconds for the command after it to succeed (polled every 0.2 s).
wait_for() {
  local deadline=$((SECONDS + $1)); shift
  while [ "$SECONDS" -lt "$deadline" ]; do "$@" && return 0; sleep 0.2; done
  "$@"
}
prop() { systemctl show -p "$1" --value crownpager.service; }
main_pid() { prop MainPID; }
is_active() { [ "$(systemctl is-active crownpager.service)" = active ]; }
status_has() { [[ "$(prop StatusText)" == *"$1"* ]]; }
journal_has() { journalctl -t crownpager -o cat --no-pager | grep -q -- "$1"; }
journal_count() { journalctl -t crownpager -o cat --no-pager | grep -c -- "$1"; }
last_tally() { journalctl -t crownpager -o cat --no-pager | grep 'stopping: the crown turned' | tail -n 1; }
# The reference: what render draws for this configuration after STEPS, settled.
reference() {
  local name=$1 steps=$2
  rm -rf "/tmp/render-$name"
  crownpager render --config "$config" --out "/tmp/render-$name" --crown "$steps" --steps-only --no-png \
    </dev/null >/dev/null 2>"$out/render-$name.err" || return 1
  cp "$(ls "/tmp/render-$name"/step-*.pbm | sort | tail -n 1)" "$out/reference-$name.pbm"
}
# Asks the host for the emulator's glass now; it lands next to the reference as glass-NAME.pbm.
glass() { host "glass $1"; }

service_confined() {
  local pid=$1 status root_mount
  status="$(awk '$1 == "Seccomp:" || $1 == "NoNewPrivs:" || $1 == "CapEff:" { printf "%s %s ", $1, $2 }' "/proc/$pid/status")"
  root_mount="$(awk '$5 == "/" { print $6 }' "/proc/$pid/mountinfo")"
  confined_text="$status/ mounted $root_mount, drop-ins: '$(prop DropInPaths)'"
  [[ "$status" == *"CapEff: 0000000000000000 "* && "$status" == *"NoNewPrivs: 1 "* && "$status" == *"Seccomp: 2 "* \
    && "$root_mount" == ro,* && -z "$(prop DropInPaths)" ]]
}
# The service (or process PID) holds NODE open (root may read its descriptors).
holds() { pid_holds "$(main_pid)" "$1"; }
pid_holds() { [ "$1" != 0 ] && ls -l "/proc/$1/fd" 2>/dev/null | grep -q -- "-> $2\$"; }

# A uinput knob (python3-evdev): REL_X and KEY_ENTER, as the rotary-encoder overlay makes.
# uinput_start NAME creates it (its node in $uinput_node); uinput_turn N sends N detents; uinput_stop.
# Not in a subshell: the python process and the fifo's write end belong to this shell.
uinput_start() {
  mkfifo /run/vmcheck-uinput
  python3 -c '
import sys, evdev
from evdev import ecodes as e
device = evdev.UInput({e.EV_REL: [e.REL_X], e.EV_KEY: [e.KEY_ENTER]}, name=sys.argv[1])
print(device.device.path, flush=True)
for line in open("/run/vmcheck-uinput"):
    for _ in range(int(line)):
        device.write(e.EV_REL, e.REL_X, 1)
        device.syn()
device.close()
' "$1" >/run/vmcheck-uinput.path &
  uinput_pid=$!
  # Read-write: opening never blocks, even when python failed before opening its end.
  exec {uinput_fd}<>/run/vmcheck-uinput
  # 60 s: python3 and evdev's import under TCG on a loaded host took more than 20 (the device's
  # path came back empty and the evdev scenario failed with no device to turn).
  wait_for 60 test -s /run/vmcheck-uinput.path && udevadm settle --timeout=30
  uinput_node="$(cat /run/vmcheck-uinput.path)"
}
# A uinput knob that outlives this script (the setup unit's process, kept while it is active):
# the stock kernel has no GPIO chip, so the service there reads its crown from this one.
uinput_hold() {
  python3 -c '
import signal, sys, evdev
from evdev import ecodes as e
device = evdev.UInput({e.EV_REL: [e.REL_X], e.EV_KEY: [e.KEY_ENTER]}, name=sys.argv[1])
print(device.device.path, flush=True)
signal.pause()
' "$1" >/run/vmcheck-held-knob &
  wait_for 20 test -s /run/vmcheck-held-knob && udevadm settle --timeout=30
  cat /run/vmcheck-held-knob
}
uinput_turn() { echo "$1" >&"$uinput_fd"; }
uinput_stop() { exec {uinput_fd}>&-; wait "$uinput_pid"; rm -f /run/vmcheck-uinput /run/vmcheck-uinput.path; }

# --- the scenarios -----------------------------------------------------------------------------

custom_scenarios() {
  local bus pid node
  bus="$(i2c_adapter virtio)" || bus=""
  # 1. The installed service, every hardening line of the shipped unit, on the real nodes.
  if [ -n "$bus" ] && [ "$(stat -c %t "/dev/$bus")" = 59 ]; then
    pass "panel adapter: /dev/$bus is virtio-i2c ($(cat "/sys/class/i2c-dev/$bus/name")), major 89, $(i2cdetect -F "${bus#i2c-}" | grep -m 1 'I2C ')"
  else
    fail "panel adapter: no virtio-i2c adapter (the host's vhost-user back-end did not come up)"
  fi
  check "service starts" 'crownpager.service active at boot, ready: $(prop StatusText)' wait_for 30 status_has "page 1 of 6"
  pid="$(main_pid)"
  if [ "$pid" != 0 ] && service_confined "$pid"; then pass "hardening: $confined_text"; else fail "hardening: ${confined_text:-no process}"; fi
  check "real nodes" 'the service holds /dev/${bus:-i2c-?} and $(gpio_chip)' holds "/dev/${bus:-none}"
  reference turns "+1,+1,+1,wait 3s" || fail "render: $(cat "$out/render-turns.err")"

  # 2. Detents on gpio-sim, read by libgpiod 3 in the service, bounce and all.
  local n
  for n in $(seq "$detents_forward"); do detent forward; done
  check "gpio-sim knob" '$detents_forward detents with bounce: $(prop StatusText)' wait_for 20 status_has "page 4 of 6"
  # The page has arrived; its slide (a few hundred ms) settles within the reference's 3 s.
  sleep 3
  glass turns

  # 3. NACK: the back-end stops answering; a detent makes the service write (an idle pager sends
  # nothing), it reports the NACK and retries; back, the panel is initialised afresh, and a detent
  # back shows page 4 again.
  host absent
  detent forward
  check "NACK" '$(journalctl -t crownpager -o cat --no-pager | grep -m 1 "stopped answering" | cut -c1-150)' \
    wait_for 30 journal_has "the display stopped answering"
  host present
  check "recovery" '$(journalctl -t crownpager -o cat --no-pager | grep -m 1 "answers again")' \
    wait_for 30 journal_has "the display answers again"
  detent back
  check "after recovery" 'a detent back: $(prop StatusText)' wait_for 20 status_has "page 4 of 6"
  sleep 3
  glass recovered

  # 4. The chip removed and re-added.
  gpio_sim_remove
  check "chip removed" "the service reports the knob's chip gone" wait_for 20 journal_has "knob's chip /dev/gpiochip0 disappeared"
  gpio_sim_add
  check "chip re-added" 'the service opens it again' wait_for 30 journal_has "the knob is back"
  detent back
  check "knob after re-add" 'a detent back turns the page: $(prop StatusText)' wait_for 20 status_has "page 3 of 6"

  # 5. Every detent made is applied: the tally the service logs as it stops.
  systemctl stop crownpager.service
  # 3 forward, one forward and one back around the NACK, one back after the chip came back.
  local want="the crown turned $((detents_forward + 3)) detents ($((detents_forward + 1)) forward, 2 back), $((detents_forward + 3)) applied"
  check "detents applied" '$(last_tally)' journal_has "$want"

  # 6. The evdev knob through uinput.
  uinput_start "vmcheck knob"
  node=$uinput_node
  write_config "${bus#i2c-}" evdev "$node"
  systemctl start crownpager.service
  wait_for 30 holds "$node"
  uinput_turn 2
  check "evdev knob" '2 detents on $node (uinput) reach the service: $(prop StatusText)' wait_for 20 status_has "page 3 of 6"
  systemctl stop crownpager.service
  check "evdev applied" '$(last_tally)' journal_has "the crown turned 2 detents (2 forward, 0 back), 2 applied"
  uinput_stop

  # 7. crownpager doctor on the real nodes (the service stopped: the doctor draws its pattern).
  local doctor doctor_status
  doctor="$(crownpager doctor display --i2c-bus "${bus#i2c-}" 2>&1)"
  doctor_status=$?
  printf '%s\n' "$doctor" >"$out/doctor-display.txt"
  check "doctor display" "exit $doctor_status: $(grep -m 1 'answers at' <<<"$doctor")" \
    grep -q 'a display answers at 0x3c' <<<"$doctor"
  rest_lines
  crownpager doctor crown --chip "$(gpio_chip)" --count 2 --duration 30 --lines >"$out/doctor-crown.txt" 2>&1 &
  local doctor_pid=$!
  wait_for 20 pid_holds "$doctor_pid" "$(gpio_chip)"
  detent forward
  detent back
  wait "$doctor_pid"
  check "doctor crown" "on $(gpio_chip): $(grep '^final:' "$out/doctor-crown.txt")" \
    grep -q '^final: detents 0 (cw 1, ccw 1)' "$out/doctor-crown.txt"

  # 8. The watchdog: a loop stopped with SIGSTOP stops pinging; systemd aborts it and starts it again.
  write_config "${bus#i2c-}" gpio
  systemctl start crownpager.service
  wait_for 30 status_has "page 1 of 6"
  pid="$(main_pid)"
  local restarts stopped_at=$SECONDS
  restarts="$(prop NRestarts)"
  kill -STOP "$pid"
  restarted() { local now; now="$(main_pid)"; [ "$now" != "$pid" ] && [ "$now" != 0 ] && is_active; }
  check "watchdog" 'process $pid stopped with SIGSTOP, restarted after $((SECONDS - stopped_at)) s (NRestarts $restarts -> $(prop NRestarts))' \
    wait_for 60 restarted

  journal_priorities "the display stopped answering|knob's chip .* disappeared"
  [ -f "$disk/next-repo.list" ] && upgrade_scenarios
}

# A fleet's update (issue 23, item 7): the next version from the signed repository the host put
# on the run's disk, with apt-get upgrade; then a repository signed by another key, refused.
upgrade_scenarios() {
  local list=/etc/apt/sources.list.d/crownpager.list pid before next foreign config_sum status
  local apt_options=(-o Dir::Etc::sourcelist=sources.list.d/crownpager.list -o Dir::Etc::sourceparts=-
    -o APT::Get::List-Cleanup=0)
  wait_for 30 status_has "page 1 of 6"
  pid="$(main_pid)"
  before="$(dpkg-query -W -f '${Version}' crownpager)"
  next="$(cat "$disk/next-version")" foreign="$(cat "$disk/foreign-version")"
  # The owner's edits: the configuration (a conffile, already rewritten above) and a file of their own.
  echo "# the owner's own line" >>"$config"
  config_sum="$(sha256sum "$config")"
  echo "the owner's notes" >/etc/crownpager/owner-notes.txt
  cp "$disk/next-repo.list" "$list"
  apt-get update "${apt_options[@]}" >"$out/apt-upgrade.log" 2>&1 \
    && DEBIAN_FRONTEND=noninteractive apt-get upgrade -y -o Dpkg::Options::=--force-confold "${apt_options[@]}" \
      >>"$out/apt-upgrade.log" 2>&1
  status=$?
  version() { dpkg-query -W -f '${Version}' crownpager; }
  check "apt-get upgrade" 'exit $status: $before -> $(version) from $(grep -o "file:[^ ]*" "$list")' \
    test "$(version)" = "$next"
  restarted_on_new_binary() {
    local now; now="$(main_pid)"
    [ "$now" != "$pid" ] && [ "$now" != 0 ] && is_active && [[ "$(readlink "/proc/$now/exe")" != *deleted* ]]
  }
  check "upgrade restarts" 'process $pid -> $(main_pid), running $(readlink /proc/$(main_pid)/exe): $(prop StatusText)' \
    wait_for 60 restarted_on_new_binary
  check "upgrade keeps files" "the edited $config and /etc/crownpager/owner-notes.txt are as the owner left them" \
    eval '[ "$(sha256sum "$config")" = "$config_sum" ] && grep -q "owner.s notes" /etc/crownpager/owner-notes.txt'
  # Another key: apt refuses the index, so its newer version is never a candidate.
  cp "$disk/foreign-repo.list" "$list"
  apt-get update "${apt_options[@]}" >"$out/apt-foreign.log" 2>&1
  status=$?
  check "other key refused" 'apt-get update exit $status: $(grep -m 1 -oE "NO_PUBKEY [0-9A-F]+|is not signed" "$out/apt-foreign.log")' \
    eval '[ "$status" -ne 0 ] && grep -qE "NO_PUBKEY|is not signed" "$out/apt-foreign.log" \
      && ! apt-cache madison crownpager | grep -qF "$foreign"'
}

stock_scenarios() {
  local bus node
  bus="$(i2c_adapter "SMBus stub")" || bus=""
  # 1. i2c-dev from modules-load.d before the unit, so its DeviceAllow=char-i2c resolved.
  local after
  after="$(prop After)"
  if [ -d /sys/module/i2c_dev ] && [[ " $after " == *" systemd-modules-load.service "* ]] \
    && grep -qx i2c-dev /usr/lib/modules-load.d/crownpager.conf; then
    pass "modules-load.d: i2c-dev is loaded ($(modinfo -F filename i2c-dev)) and the unit is ordered after systemd-modules-load.service"
  else
    fail "modules-load.d: i2c_dev loaded: $([ -d /sys/module/i2c_dev ] && echo yes || echo no); After=$after"
  fi
  # 2. i2c-stub is SMBus only: the service says the adapter lacks plain I2C transfers.
  check "i2c-stub adapter" "/dev/${bus:-?} ($(i2cdetect -F "${bus#i2c-}" 2>/dev/null | grep -m 1 'I2C '))" test -n "$bus"
  check "SMBus-only adapter" '$(journalctl -t crownpager -o cat --no-pager | grep -m 1 I2C_FUNC_I2C)' \
    wait_for 40 journal_has "I2C_FUNC_I2C"
  check "device cgroup" "the service opened /dev/${bus:-?} and wrote to it (no 'Operation not permitted': char-i2c resolved at its start)" \
    eval 'journal_has I2C_FUNC_I2C && [ "$(journal_count "Operation not permitted")" = 0 ]'
  systemctl stop crownpager.service
  # 3. The uinput knob, read by the doctor (no panel here).
  uinput_start "vmcheck knob"
  node=$uinput_node
  crownpager doctor crown --evdev "$node" --count 3 --duration 30 --lines >"$out/doctor-evdev.txt" 2>&1 &
  local doctor_pid=$!
  wait_for 20 pid_holds "$doctor_pid" "$node"
  uinput_turn 3
  wait "$doctor_pid"
  check "uinput knob" "3 detents on $node: $(grep '^final:' "$out/doctor-evdev.txt")" \
    grep -q '^final: detents +3 (cw 3, ccw 0)' "$out/doctor-evdev.txt"
  uinput_stop
  journal_priorities "I2C_FUNC_I2C"
}

# journalctl -p err shows the program's errors (those the scenarios caused, PATTERN) and nothing
# else; its informational lines stay at info.
journal_priorities() {
  local errors others
  errors="$(journalctl -t crownpager -p err -o cat --no-pager)"
  others="$(grep -Ev -- "$1" <<<"$errors" | grep . || true)"
  if [ -n "$errors" ] && [ -z "$others" ]; then
    pass "journalctl -p err: only the errors the scenarios caused ($(wc -l <<<"$errors") lines, e.g. $(head -n 1 <<<"$errors" | cut -c1-100))"
  else
    fail "journalctl -p err: '${others:-nothing}' (only /$1/ wanted)"
  fi
  if [ "$mode" = custom ]; then
    check "journal info" 'what it drives is info, not err' journal_has_priority info "crownpager: driving"
  fi
}
journal_has_priority() { journalctl -t crownpager -p "$1..$1" -o cat --no-pager | grep -q -- "$2"; }

run() {
  say "run: $mode kernel $(uname -r), $(uname -m); up $(cut -d' ' -f1 /proc/uptime) s; $(systemctl is-system-running)"
  # systemd-analyze waits for the boot's last job, this one: the manager's timestamps instead
  # (microseconds since the kernel started): userspace started, multi-user.target reached.
  printf '%s %s\n' "$(systemctl show -p UserspaceTimestampMonotonic --value)" \
    "$(systemctl show -p ActiveEnterTimestampMonotonic --value multi-user.target)" >"$out/boot-times"
  case "$mode" in
    custom) custom_scenarios ;;
    stock) stock_scenarios ;;
  esac
  journalctl -b --no-pager >"$out/journal.txt"
  echo "$passed passed, $failed failed" >"$out/summary"
  host done
  sync
}

"$1"
