#!/usr/bin/env bash
# The packaged service under a real systemd, with every hardening line of its unit in force (issue
# 12): boots a minimal Debian 13 root with systemd as PID 1 in a container (systemd-nspawn --boot),
# installs the amd64 .deb there, gives the service a display and a knob without hardware (the fake
# kernel of Tests/FakeKernel, preloaded by a drop-in), and checks from the host that:
#   - the service is active, and frames reach the fake I2C bus (its trace grows);
#   - the glass, replayed from that trace, is what `crownpager render` draws for the same
#     configuration: the command page's `vcgencmd measure_temp` output (README's example) shows;
#   - a command page that forks (`sh -c "... & wait"`) runs its child;
#   - `systemctl reload` after an edit logs "reloaded ...: 5 pages", keeps the process, and the
#     glass follows the new file;
#   - the journal has no "Operation not permitted", no "Bad system call", no status=31/SYS kill;
#   - `systemd-analyze security crownpager.service` (online, in the container) is 2.0 or under;
#   - it is Type=notify: ready, its status names the page and the panel, WatchdogSec=30s; it is
#     ordered after systemd-modules-load.service, and the package's modules-load.d names i2c-dev;
#   - `journalctl -p err` shows the program's error (a restart with no panel at 0x3d) and nothing
#     else; a broken reload is a warning, what it drives and the reloads are info;
#   - a loop stopped with SIGSTOP stops pinging the watchdog and systemd restarts the service;
#   - the control socket and the state directory: `crownpager notify` as root and as a member of
#     group crownpager, the overlay on the glass, back after a restart, and an action page pressed
#     on the fake knob, its result on the glass (Scripts/dev/unit-check-control.sh lists them);
#   - [mqtt] under Hardware/crownpager-mqtt.conf.example, the drop-in that lets the service reach
#     its broker and no other address, and the exposure with it (Scripts/dev/unit-check-mqtt.sh);
#   - [web] under Hardware/crownpager-web.conf.example, the drop-in that opens the live mirror to
#     one address and binds its port only, and the exposure with it (Scripts/dev/unit-check-web.sh);
#   - `systemctl stop` is clean: exit 0, result success, no process of the service user left.
# Prints a PASS or FAIL line for each and exits 1 when any failed.
#
#   sudo Scripts/dev/unit-check.sh                 checks out/crownpager_<version>_amd64.deb, built first
#                                              (Scripts/release/package.sh) when missing or built from another tree
#   --deb FILE         check this package instead (its unit must be this tree's)
#   --keep             leave the container's root in $CROWNPAGER_CACHE/unit-check to look around in
#   --polkit           also install polkitd there and try README.md's rule with an action page
#
# The drop-in adds only what the fake needs: LD_PRELOAD and the FAKE_* settings, and
# ReadWritePaths=/var/lib/crownpager-fake (the fake's device files and its trace; ProtectSystem=strict
# makes everything else read-only). Needs root; installs systemd-container (systemd-nspawn),
# debootstrap and gcc if missing. The root with systemd is cached as $CROWNPAGER_CACHE/machine-trixie-amd64
# (default /var/cache/crownpager, next to the minimal roots of Scripts/dev/debian-root.sh); every check
# boots a new copy. The container gets a cgroup v2 hierarchy of its own
# (SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1: Debian 13's systemd wants one), a private network, and is
# not registered with machined (--register=no --keep-unit), so the host needs no systemd running;
# the checks enter it with nsenter. About 130 s once the package and the cached roots exist
# (the watchdog takes 30 s to find the stopped loop).
set -euo pipefail
# What this writes into the container (the fake kernel, its folders, the configurations) is read by
# the service's own user: under a caller's umask 077 it would not be, and the unit would fail on
# that alone (as dpkg-buildpackage does, the modes are this script's, not the caller's).
umask 022
cd "$(dirname "$0")/../.."
repo="$PWD"
deb=""
keep=0
polkit=0
while [ $# -gt 0 ]; do
  case "$1" in
    --deb) deb="$(realpath "${2:?--deb needs a file}")"; shift 2 ;;
    --keep) keep=1; shift ;;
    --polkit) polkit=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "unit-check: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
debian_root_who=unit-check
. Scripts/dev/debian-root.sh
. Scripts/dev/unit-check-control.sh
. Scripts/dev/unit-check-journal.sh
. Scripts/dev/unit-check-mqtt.sh
. Scripts/dev/unit-check-web.sh
say() { debian_root_say "$@"; }
[ "$(id -u)" -eq 0 ] || { say "run as root (sudo Scripts/dev/unit-check.sh): debootstrap, chroot and systemd-nspawn need it"; exit 1; }
started=$SECONDS
arch="$(dpkg --print-architecture)"
[ "$arch" = amd64 ] || { say "this check boots an amd64 root; this machine is $arch"; exit 1; }
debian_root_need systemd-nspawn systemd-container || { say "cannot install systemd-container (for systemd-nspawn)"; exit 1; }
debian_root_need cc gcc || { say "cannot install gcc (for the fake kernel)"; exit 1; }
command -v nsenter >/dev/null || { say "no nsenter: install util-linux"; exit 1; }

# The package, and the unit it carries as package.sh makes it from Hardware/crownpager.service.
unit="$(sed 's|/usr/local/bin/crownpager|/usr/bin/crownpager|g; s|^Documentation=.*|Documentation=man:crownpager(1)|' Hardware/crownpager.service)"
packaged_unit() { dpkg-deb --fsys-tarfile "$1" | tar -xOf - ./usr/lib/systemd/system/crownpager.service; }
if [ -z "$deb" ]; then
  deb="$repo/out/crownpager_$(Scripts/release/package.sh --print-version)_amd64.deb"
  if [ ! -f "$deb" ]; then
    say "no $deb: building it (Scripts/release/package.sh --out out, several minutes)"
    Scripts/release/package.sh --out out >/dev/null
  else
    # The commit package.sh wrote into the changelog, against this tree (uncommitted changes too).
    built="$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/share/doc/crownpager/changelog.gz | gzip -dc \
      | sed -n 's/.*Built from commit \([0-9a-f]*\).*/\1/p')"
    if [ "$(packaged_unit "$deb")" != "$unit" ] || [ -z "$built" ] || ! git cat-file -e "$built^{commit}" 2>/dev/null \
      || ! git diff --quiet "$built" -- Sources Hardware/crownpager.service Hardware/debian Scripts/release/package.sh Package.swift; then
      say "$deb was built from ${built:-an unknown commit}, not this tree (its unit, sources or packaging differ): building it again"
      Scripts/release/package.sh --out out >/dev/null
    fi
  fi
fi
[ -f "$deb" ] || { say "no package at $deb"; exit 1; }
[ "$(packaged_unit "$deb")" = "$unit" ] \
  || { say "the unit in $deb differs from Hardware/crownpager.service: build the package from this tree"; exit 1; }

# A minimal trixie root with systemd, cached (made again when this list changes): the base root,
# systemd, dbus (systemd-analyze asks over the bus), the package's libraries, and libbpf1, which
# systemd loads to carry out SocketBindAllow= (unit-check-web.sh): without it systemd quietly binds
# anything. Every Debian system with iproute2 has it, the card image too.
machine_packages="systemd systemd-sysv dbus libgpiod3 libi2c0 libbpf1"
machine_base="$CROWNPAGER_CACHE/machine-trixie-amd64"
if [ "$(cat "$machine_base/.complete" 2>/dev/null)" != "$machine_packages" ]; then
  base="$(debian_root_base trixie amd64)"
  say "making $machine_base: the trixie root with $machine_packages"
  debian_root_copy "$base" "$machine_base"
  debian_root_enter "$machine_base"
  debian_root_run "$machine_base" bash -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $machine_packages >/dev/null" \
    || { say "could not install systemd into $machine_base"; exit 1; }
  debian_root_leave "$machine_base"
  printf '%s' "$machine_packages" >"$machine_base/.complete"
fi

root="$CROWNPAGER_CACHE/unit-check"
work="$(mktemp -d)"
nspawn=""
cleanup() {
  if [ -n "$nspawn" ] && kill -0 "$nspawn" 2>/dev/null; then
    say "stopping the container (systemd-nspawn $nspawn)"
    kill -TERM "$nspawn"
    wait "$nspawn" || say "systemd-nspawn ended with status $?"
  fi
  debian_root_leave_all
  rm -rf "$work"
  if [ "$keep" -eq 0 ]; then rm -rf "$root"; else say "kept the root: $root (systemd-nspawn -D $root -b)"; fi
}
trap cleanup EXIT
debian_root_copy "$machine_base" "$root"

# The fake kernel, built here (the host's glibc is older than trixie's: the library loads there).
fake_lib=/usr/local/lib/crownpager-fake/libFakeKernel.so
fake=/var/lib/crownpager-fake
mkdir -p "$root${fake_lib%/*}"
cc -shared -fPIC -O1 -I Tests/FakeKernel/include Tests/FakeKernel/*.c -o "$root$fake_lib" -ldl -lpthread \
  || { say "could not build the fake kernel (Tests/FakeKernel)"; exit 1; }

# The configurations: the README's command page, a command that forks, a system page, a clock;
# the second one (the reload) retitles the first page and adds a fifth.
write_config() {
  local title=$1 extra=$2
  cat <<EOF
# Scripts/dev/unit-check.sh: the fake display on bus 1 and the fake GPIO chip 0 (Tests/FakeKernel).
[display]
bus = 1
address = 0x3c
dim_after = "never"
off_after = "never"

[crown]
source = "gpio"
chip = "/dev/gpiochip0"

[[page]]
kind = "command"
title = "$title"
argv = ["vcgencmd", "measure_temp"]
refresh = "5s"
timeout = "2s"

[[page]]
kind = "command"
title = "Forked"
argv = ["sh", "-c", "echo \$\$ >$fake/forked; uname -s & wait"]
refresh = "5s"
timeout = "2s"

[[page]]
kind = "system"
title = "System"
values = ["hostname", "ip", "load", "memory", "uptime"]

[[page]]
kind = "clock"
title = "Clock"
time = "%H:%M"
$extra
EOF
}
mkdir -p "$root/root/unit-check"
write_config "Temperature" "" >"$root/root/unit-check/first.toml"
write_config "Temp, reloaded" $'\n[[page]]\nkind = "text"\ntitle = "Reloaded"\ntext = "A fifth page"' >"$root/root/unit-check/reloaded.toml"
printf '#!/bin/sh\n# Scripts/dev/unit-check.sh: what vcgencmd prints on a Pi.\necho "temp=48.3'"'"'C"\n' >"$root/usr/bin/vcgencmd"
chmod 0755 "$root/usr/bin/vcgencmd"
cp "$deb" "$root/root/unit-check/"
cat >"$root/root/unit-check/fake-hardware.conf" <<EOF
# Scripts/dev/unit-check.sh: a display and a knob without hardware (Tests/FakeKernel, preloaded). Only
# adds what the fake needs; every line of the shipped unit stays in force. The fake serves
# /dev/i2c-1 and /dev/gpiochip0 from files under $fake/root and appends each I2C write to
# $fake/trace.txt: ProtectSystem=strict makes the system read-only, so that one folder is writable.
[Service]
Environment=LD_PRELOAD=$fake_lib
Environment=FAKE_KERNEL_ROOT=$fake/root FAKE_I2C_DEVICES=1:0x3c FAKE_GPIO_CHIPS=0:54 FAKE_I2C_TRACE=$fake/trace.txt
Environment=FAKE_GPIO_INPUT=$fake/gpio-input
ReadWritePaths=$fake
EOF

control_prepare "$root" "$fake_lib" "$polkit"

# Installed as an owner would (apt, its dependencies from the cached lists), and the references:
# what `render` draws for each configuration once the commands have answered (as root, unconfined).
debian_root_enter "$root"
debian_root_run "$root" bash -c "
  set -e
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./unit-check/$(basename "$deb") >unit-check/apt.log 2>&1 \
    || { tail -n 20 unit-check/apt.log; exit 1; }
  install -d -m 0755 /etc/systemd/system/crownpager.service.d
  install -m 0644 unit-check/fake-hardware.conf /etc/systemd/system/crownpager.service.d/fake-hardware.conf
  install -m 0644 unit-check/first.toml /etc/crownpager/crownpager.toml
  crownpager check unit-check/first.toml >/dev/null && crownpager check unit-check/reloaded.toml >/dev/null
  install -d -o crownpager -g crownpager -m 0700 $fake
  for name in first reloaded; do
    crownpager render --config unit-check/\$name.toml --out unit-check/reference-\$name --crown 'wait 3s' --no-png </dev/null >/dev/null
  done
  rm -f $fake/forked
  bash unit-check/control-setup.sh
  systemctl is-enabled crownpager.service >/dev/null
" || { say "could not install $(basename "$deb") and the configuration into $root"; exit 1; }
debian_root_leave_all
say "installed $(basename "$deb") into $root ($((SECONDS - started)) s so far)"

# The boot: systemd as PID 1, journal and console to $work/console.log.
machine="crownpager-unit-$$"
# bpf(2) allowed: systemd in the container applies IPAddressDeny= (unit-check-mqtt.sh) with it, and
# without it quietly does not (nspawn's filter refuses bpf, and systemd takes that as no support).
SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1 systemd-nspawn --quiet --directory "$root" --boot --machine "$machine" \
  --register=no --keep-unit --private-network --system-call-filter=bpf --console=passive </dev/null >"$work/console.log" 2>&1 &
nspawn=$!
# The container's PID 1 is systemd-nspawn's child once it has become systemd.
leader=""
for _ in $(seq 1 50); do
  kill -0 "$nspawn" 2>/dev/null || { say "systemd-nspawn ended at once:"; cat "$work/console.log" >&2; nspawn=""; exit 1; }
  for child in $(pgrep -P "$nspawn"); do
    [ "$(cat "/proc/$child/comm" 2>/dev/null)" = systemd ] && leader=$child
  done
  [ -n "$leader" ] && break
  sleep 0.2
done
[ -n "$leader" ] || { say "systemd did not start in the container:"; cat "$work/console.log" >&2; exit 1; }
in_machine() {
  nsenter --target "$leader" --all env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 SYSTEMD_COLORS=0 "$@"
}
# systemctl reaches PID 1 through /run/systemd/private, made a moment after systemd starts: asked
# before that, `is-system-running --wait` fails at once ("Failed to connect to system scope bus").
private_socket() { nsenter --target "$leader" --all test -S /run/systemd/private; }
for _ in $(seq 1 100); do private_socket && break; sleep 0.2; done
# running, or degraded (a unit failed: listed); anything else after two minutes stops the check.
state="$(timeout 120 nsenter --target "$leader" --all env -i PATH=/usr/bin:/bin systemctl is-system-running --wait)" \
  || say "systemctl is-system-running --wait: '$state' (status $?)"
systemd_version="$(in_machine systemctl --version | awk 'NR == 1 { print $2 }')"
say "booted $machine: systemd $systemd_version is $state ($((SECONDS - started)) s so far)"
case "$state" in
  running) ;;
  degraded) say "failed units: $(in_machine systemctl --failed --plain --no-legend | awk '{ printf "%s ", $1 }')" ;;
  *) say "the container did not finish booting (state '$state'):"; tail -n 30 "$work/console.log" >&2; exit 1 ;;
esac

failures=0
pass() { printf 'unit-check: PASS %s\n' "$*"; }
fail() { printf 'unit-check: FAIL %s\n' "$*"; failures=$((failures + 1)); }
journal() { in_machine journalctl --no-pager -o cat "$@"; }
# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
  local seconds=$1 until; shift
  until=$((SECONDS + seconds))
  while [ "$SECONDS" -lt "$until" ]; do "$@" && return 0; sleep 1; done
  "$@"
}
# The glass the service shows, replayed from its trace, equals the reference render of NAME.
trace_bytes() { if [ -f "$root$fake/trace.txt" ]; then stat -c %s "$root$fake/trace.txt"; else echo 0; fi; }
trace_started() { [ "$(trace_bytes)" -gt 0 ]; }
glass_is() {
  local name=$1
  rm -rf "$root/root/unit-check/glass"
  in_machine crownpager replay "$fake/trace.txt" --out /root/unit-check/glass >/dev/null 2>&1 || return 1
  cmp -s <(grep -v '^#' "$root/root/unit-check/glass/glass.pbm") <(grep -v '^#' "$root/root/unit-check/reference-$name/step-00.pbm")
}
is_active() { [ "$(in_machine systemctl is-active crownpager.service)" = active ]; }

# 1. Started at boot, with the drop-in, and stays up.
if wait_for 15 is_active; then
  pass "crownpager.service is active ($(in_machine systemctl show -p MainPID --value crownpager.service) as user $(in_machine systemctl show -p User --value crownpager.service), $(in_machine systemctl show -p DropInPaths --value crownpager.service))"
else
  fail "crownpager.service is not active:"; in_machine systemctl status --no-pager crownpager.service || say "(systemctl status: $?)"
fi
pid="$(in_machine systemctl show -p MainPID --value crownpager.service)"
# The sandbox is there for real: the filter, no new privileges, no capabilities, a read-only root.
confined="$(in_machine awk '$1 == "Seccomp:" || $1 == "NoNewPrivs:" || $1 == "CapEff:" { printf "%s %s ", $1, $2 }' "/proc/$pid/status")"
root_mount="$(in_machine awk '$5 == "/" { print $6 }' "/proc/$pid/mountinfo")"
if [[ "$confined" == *"CapEff: 0000000000000000 "* && "$confined" == *"NoNewPrivs: 1 "* && "$confined" == *"Seccomp: 2 "* && "$root_mount" == ro,* ]]; then
  pass "the service runs confined: $confined/ mounted $root_mount"
else
  fail "the service is not confined: $confined/ mounted $root_mount"
fi

# 2. Frames on the fake bus, and the command page's output on the glass.
if wait_for 15 trace_started; then pass "frames reach the fake I2C bus ($(trace_bytes) bytes of trace)"; else fail "no frame reached the fake I2C bus ($fake/trace.txt)"; fi
if wait_for 20 glass_is first; then
  pass "the glass (the trace replayed) is the reference render: the command page shows vcgencmd's temp=48.3'C"
else
  fail "the glass replayed from the trace is not the reference render (see $root/root/unit-check/glass and reference-first)"; keep=1
fi
if wait_for 15 test -s "$root$fake/forked"; then
  pass "the forking command page ran: sh (pid $(cat "$root$fake/forked")) forked its child"
else
  fail "the forking command page wrote nothing to $fake/forked"
fi

# 3. Reload after an edit: logged, same process, the glass follows.
cp "$root/root/unit-check/reloaded.toml" "$root/etc/crownpager/crownpager.toml"
before="$(trace_bytes)"
if in_machine systemctl reload crownpager.service; then pass "systemctl reload crownpager exited 0"; else fail "systemctl reload crownpager failed ($?)"; fi
reloaded() { journal -u crownpager.service | grep -q 'reloaded /etc/crownpager/crownpager.toml: 5 pages'; }
if wait_for 10 reloaded; then pass "the journal says: $(journal -u crownpager.service | grep 'reloaded /etc/crownpager/crownpager.toml' | tail -n 1)"; else fail "no 'reloaded /etc/crownpager/crownpager.toml: 5 pages' in the journal"; fi
if [ "$(in_machine systemctl show -p MainPID --value crownpager.service)" = "$pid" ] && is_active; then pass "still active after the reload, same process ($pid)"; else fail "the reload did not keep process $pid running"; fi
if wait_for 20 glass_is reloaded; then
  pass "frames after the reload ($before -> $(trace_bytes) bytes of trace) show the edited file (the reference render of it)"
else
  fail "after the reload the glass is not the reference render of the edited file ($before -> $(trace_bytes) bytes of trace)"; keep=1
fi

# 4. What the hardening could have broken: nothing denied, nothing killed.
denied="$(journal -u crownpager.service | grep -Ei 'operation not permitted|permission denied|bad system call|not found on PATH|timed out after|exit status' || [ $? -eq 1 ])"
if [ -z "$denied" ]; then pass "the service's journal has no 'Operation not permitted', 'Permission denied', 'Bad system call', failed or timed-out command"; else fail "the service's journal: $denied"; fi
killed="$(journal -b | grep -E 'status=31/SYS|SIGSYS' || [ $? -eq 1 ])"
if [ -z "$killed" ]; then pass "no process was killed by the system-call filter (no status=31/SYS, no SIGSYS in the journal)"; else fail "the journal: $killed"; fi

# 5. The exposure, rated by the systemd that runs it (the drop-in included; Scripts/dev/unit-check-mqtt.sh).
security_check "the fake hardware's drop-in"

# 6. Type=notify: ready, the status (the page and the panel), the watchdog.
notify="$(in_machine systemctl show -p Type -p WatchdogUSec -p StatusText crownpager.service | tr '\n' ' ')"
case "$notify" in
  *"Type=notify"*"StatusText=page 1 of 5, Temp, reloaded; the panel is on"*"WatchdogUSec=30s"* | \
  *"Type=notify"*"WatchdogUSec=30s"*"StatusText=page 1 of 5, Temp, reloaded; the panel is on"*)
    pass "ready and telling: $notify" ;;
  *) fail "not the notify service wanted (Type=notify, WatchdogUSec=30s, the first page as its status): $notify" ;;
esac

# i2c-dev before the unit: the package's modules-load.d file, and the order (the container has
# no kernel modules to load: systemd-modules-load.service is skipped there, by its condition).
after="$(in_machine systemctl show -p After --value crownpager.service)"
if [[ " $after " == *" systemd-modules-load.service "* ]] && grep -qx 'i2c-dev' "$root/usr/lib/modules-load.d/crownpager.conf"; then
  pass "ordered after systemd-modules-load.service, which loads i2c-dev from /usr/lib/modules-load.d/crownpager.conf"
else
  fail "not ordered after systemd-modules-load.service ($after), or no i2c-dev in /usr/lib/modules-load.d/crownpager.conf"
fi

# 7. The journal's priorities (Scripts/dev/unit-check-journal.sh).
journal_checks

# 8. The watchdog: a loop that stops turning (SIGSTOP) stops pinging; systemd aborts and restarts it.
pid="$(in_machine systemctl show -p MainPID --value crownpager.service)"
restarts="$(in_machine systemctl show -p NRestarts --value crownpager.service)"
stopped_at=$SECONDS
in_machine kill -STOP "$pid"
restarted() {
  local now
  now="$(in_machine systemctl show -p MainPID --value crownpager.service)"
  [ "$now" != "$pid" ] && [ "$now" != 0 ] && is_active
}
if wait_for 60 restarted; then
  pass "stopped with SIGSTOP, process $pid was restarted by the watchdog after $((SECONDS - stopped_at)) s: now $(in_machine systemctl show -p MainPID --value crownpager.service), NRestarts $restarts -> $(in_machine systemctl show -p NRestarts --value crownpager.service); $(journal -u crownpager.service | grep -m 1 -i 'watchdog timeout')"
else
  fail "process $pid, stopped with SIGSTOP, was not restarted within 60 s: $(in_machine systemctl show -p ActiveState -p SubState -p Result crownpager.service | tr '\n' ' ')"
fi
if journal -u crownpager.service | grep -qi 'watchdog timeout'; then :; else fail "no 'Watchdog timeout' in the journal"; fi

# 9. The control socket, the state directory, an action (Scripts/dev/unit-check-control.sh).
control_checks

# 10. A broker reached under the drop-in that narrows the network to it (Scripts/dev/unit-check-mqtt.sh).
mqtt_checks

# 11. The live mirror under the drop-in that opens it to one address (Scripts/dev/unit-check-web.sh).
web_checks

# 12. A clean stop: exit 0, result success, no process of the service user left.
if in_machine systemctl stop crownpager.service; then pass "systemctl stop crownpager exited 0"; else fail "systemctl stop crownpager failed ($?)"; fi
result="$(in_machine systemctl show -p Result -p ExecMainCode -p ExecMainStatus crownpager.service | tr '\n' ' ')"
case "$result" in
  *"Result=success"*"ExecMainStatus=0"*) pass "stopped: $result" ;;
  *) fail "stopped with $result" ;;
esac
left="$(in_machine find /proc -ignore_readdir_race -mindepth 1 -maxdepth 1 -regex '/proc/[0-9]+' -user crownpager)"
if [ -z "$left" ]; then pass "no process of user crownpager is left"; else fail "left running after the stop: $(in_machine sh -c 'for dir; do printf "%s (%s) " "$dir" "$(cat "$dir/comm")"; done' sh $left)"; fi

say "powering the container off"
in_machine systemctl poweroff
if timeout 60 tail --pid "$nspawn" -f /dev/null; then wait "$nspawn" || say "systemd-nspawn ended with status $?"; nspawn=""; fi
if [ "$failures" -eq 0 ]; then
  say "passed: the packaged unit, hardening and all, under systemd $systemd_version in Debian 13, in $((SECONDS - started)) s"
else
  say "$failures checks FAILED ($((SECONDS - started)) s); the root is kept: $root"
  keep=1
  exit 1
fi
