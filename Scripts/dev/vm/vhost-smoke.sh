#!/usr/bin/env bash
# Boots a kernel with virtio-i2c under QEMU with crownpager-vhost-i2c as the device's back-end, and
# checks the panel on the guest's real /dev/i2c-N (issue 23 item 4): the adapter is full I2C
# (i2cdetect -F), a write to 0x3c is answered and one to 0x50 NACKed ("only 0/1 messages were sent"),
# i2cdetect sees 0x3c and not 0x3d, SIGUSR1 makes the panel absent (NACKs) and SIGUSR1 again brings
# it back, and the I2C trace of `crownpager render` replayed in the guest with i2ctransfer leaves
# the back-end's glass equal to render's picture. Prints PASS or FAIL per check; exits 1 on a FAIL.
#
#   Scripts/dev/vm/vhost-smoke.sh --kernel FILE    the bzImage (amd64, CONFIG_I2C_VIRTIO=y, virtio-blk, ext4)
#   --backend FILE     this crownpager-vhost-i2c instead of building it (swift build -c release)
#   --crownpager FILE  this crownpager for the render instead of building it
#   --verbose          the back-end logs every vhost-user message (in backend.log)
#   --keep             keep the work folder (console log, glass, root image) and say where
#
# The guest's root is a copy of $CROWNPAGER_CACHE/base-trixie-amd64 (Scripts/dev/debian-root.sh)
# with i2c-tools unpacked from $CROWNPAGER_CACHE/apt-archives-amd64, and a shell script as init:
# no systemd, so a run took 16 s here under TCG (2 cores, QEMU 7.2, the 6.12 kernel). Needs root
# (the copy keeps owners), qemu-system-x86 and e2fsprogs.
set -euo pipefail
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
kernel="" backend="" crownpager="" keep=false verbose=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --kernel) kernel=${2:?--kernel needs a file}; shift 2 ;;
    --backend) backend=${2:?--backend needs a file}; shift 2 ;;
    --crownpager) crownpager=${2:?--crownpager needs a file}; shift 2 ;;
    --keep) keep=true; shift ;;
    --verbose) verbose=(--verbose); shift ;;
    *) echo "vhost-smoke: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
[ -n "$kernel" ] || { echo "vhost-smoke: name the kernel with --kernel FILE (try --help)" >&2; exit 2; }
[ -f "$kernel" ] || { echo "vhost-smoke: no kernel at $kernel" >&2; exit 2; }
command -v qemu-system-x86_64 >/dev/null || { echo "vhost-smoke: needs qemu-system-x86_64 (apt-get install qemu-system-x86)" >&2; exit 1; }
cache=${CROWNPAGER_CACHE:-/var/cache/crownpager}
base="$cache/base-trixie-amd64"
[ -d "$base" ] || { echo "vhost-smoke: no Debian root at $base (Scripts/dev/debian-root.sh makes it)" >&2; exit 1; }
debs=()
for package in i2c-tools libi2c0; do
  deb=$(find "$cache/apt-archives-amd64" -name "${package}_*_amd64.deb" 2>/dev/null | sort | tail -n 1)
  [ -n "$deb" ] || { echo "vhost-smoke: no $package .deb in $cache/apt-archives-amd64" >&2; exit 1; }
  debs+=("$deb")
done
cd "$(dirname "$0")/../../.."
for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
if [ -z "$backend" ] || [ -z "$crownpager" ]; then
  swift build -c release --product crownpager-vhost-i2c >&2
  swift build -c release --product crownpager >&2
  bin="$(swift build -c release --show-bin-path)"
  backend=${backend:-$bin/crownpager-vhost-i2c} crownpager=${crownpager:-$bin/crownpager}
fi

work=$(mktemp -d /tmp/crownpager-vhost-smoke.XXXXXX)
backend_pid="" qemu_pid=""
finish() {
  [ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null
  [ -n "$backend_pid" ] && kill "$backend_pid" 2>/dev/null
  if $keep; then echo "vhost-smoke: the work folder is $work"; else rm -rf "$work"; fi
}
trap finish EXIT

# What the guest will send, and the picture it must leave: render's own trace and glass.
"$crownpager" render --out "$work/render" --trace "$work/render.trace" >/dev/null

# The root: Debian's base, i2c-tools, the trace and the init script.
cp -a "$base" "$work/root"
for deb in "${debs[@]}"; do dpkg-deb -x "$deb" "$work/root"; done
cp "$work/render.trace" "$work/root/render.trace"
cat >"$work/root/vhost-smoke-init" <<'INIT'
#!/bin/sh
# PID 1 of the guest: the checks, one SMOKE line each; the host reads them from the console.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
bus=""
for name in /sys/class/i2c-dev/i2c-*/name; do
  grep -q virtio "$name" 2>/dev/null && bus=$(basename "$(dirname "$name")" | sed 's/i2c-//')
done
say() { echo "SMOKE: $*"; }
if [ -z "$bus" ]; then say "FAIL no virtio I2C adapter in /sys/class/i2c-dev"; exit 1; fi
say "adapter i2c-$bus $(cat /sys/class/i2c-dev/i2c-$bus/name), $(ls -l /dev/i2c-$bus)"
i2cdetect -F "$bus" | grep -q '^I2C  *yes' && say "PASS i2cdetect -F $bus: I2C yes" || say "FAIL i2cdetect -F $bus: no plain I2C"
out=$(i2ctransfer -y "$bus" w3@0x3c 0x00 0xae 0xaf 2>&1); status=$?
[ $status -eq 0 ] && [ -z "$out" ] && say "PASS w3@0x3c answered" || say "FAIL w3@0x3c: status $status, $out"
out=$(i2ctransfer -y "$bus" w1@0x50 0x00 2>&1)
case "$out" in *"only 0/1 messages were sent"*) say "PASS w1@0x50 NACKed: $out" ;; *) say "FAIL w1@0x50: $out" ;; esac
out=$(i2cdetect -y "$bus" 0x3c 0x3d 2>&1)
echo "$out" | grep -q '30: .* 3c -- ' && say "PASS i2cdetect sees 0x3c, not 0x3d" || say "FAIL i2cdetect: $out"
# Absent and back: the host sends SIGUSR1 when it reads each request.
nacked() { case "$(i2ctransfer -y "$bus" w2@0x3c 0x00 0xa4 2>&1)" in *"only 0/1"*) return 0 ;; *) return 1 ;; esac; }
say "REQUEST absent"
tries=0; until nacked || [ $tries -ge 120 ]; do tries=$((tries + 1)); sleep 0.5; done
nacked && say "PASS absent panel NACKs" || say "FAIL the panel still answers after SIGUSR1"
say "REQUEST present"
tries=0; while nacked && [ $tries -lt 120 ]; do tries=$((tries + 1)); sleep 0.5; done
nacked && say "FAIL the panel still NACKs after the second SIGUSR1" || say "PASS the panel answers again"
# The frame: every line of render's trace, as its header says.
sent=0 failed=0
while read -r line; do
  case "$line" in "#"*|"") continue ;; esac
  # shellcheck disable=SC2086
  out=$(i2ctransfer -y "$bus" $line 2>&1) && [ -z "$out" ] && sent=$((sent + 1)) || failed=$((failed + 1))
done </render.trace
[ $failed -eq 0 ] && say "PASS replayed $sent transfers of render's trace" || say "FAIL $failed of $((sent + failed)) transfers of the trace failed"
say "DONE"
# init ending panics the kernel; with panic=-1 and QEMU's -no-reboot, that ends the VM. The pause
# lets the console drain first, or the panic's message lands inside the last lines.
sleep 1
INIT
chmod 755 "$work/root/vhost-smoke-init"
mkfs.ext4 -q -F -L vhost-smoke -d "$work/root" "$work/root.img" 1G >/dev/null
rm -rf "$work/root"

"$backend" --socket "$work/vi2c.sock" --glass "$work/glass.pbm" "${verbose[@]}" 2>"$work/backend.log" &
backend_pid=$!
for _ in $(seq 100); do [ -S "$work/vi2c.sock" ] && break; sleep 0.1; done
[ -S "$work/vi2c.sock" ] || { echo "vhost-smoke: the back-end did not listen:" >&2; cat "$work/backend.log" >&2; exit 1; }
started=$SECONDS
qemu-system-x86_64 -accel tcg,thread=multi -M pc -smp 2 -m 1G -nic none -nographic -no-reboot \
  -object memory-backend-memfd,id=mem,size=1G,share=on -numa node,memdev=mem \
  -chardev socket,id=vi2c,path="$work/vi2c.sock" -device vhost-user-i2c-pci,chardev=vi2c,event_idx=off \
  -drive file="$work/root.img",format=raw,if=virtio,snapshot=on \
  -kernel "$kernel" -append "console=ttyS0 root=/dev/vda rw init=/vhost-smoke-init panic=-1" \
  </dev/null >"$work/console.log" 2>&1 &
qemu_pid=$!
# Answer the guest's requests for SIGUSR1 as they appear on the console; stop at DONE or after 5 minutes.
asked=0
while kill -0 "$qemu_pid" 2>/dev/null && [ $((SECONDS - started)) -lt 300 ]; do
  requests=$(grep -c 'SMOKE: REQUEST' "$work/console.log" || true)
  while [ "$asked" -lt "$requests" ]; do kill -USR1 "$backend_pid"; asked=$((asked + 1)); done
  grep -q 'SMOKE: DONE' "$work/console.log" && break
  sleep 0.2
done
# The guest's init ends after DONE and QEMU leaves; kill it only if it hangs.
for _ in $(seq 150); do kill -0 "$qemu_pid" 2>/dev/null || break; sleep 0.2; done
kill "$qemu_pid" 2>/dev/null || true
wait "$qemu_pid" 2>/dev/null || true
qemu_pid=""
backend_status=0
wait "$backend_pid" || backend_status=$?
backend_pid=""
seconds=$((SECONDS - started))

# The guest's verdicts, then the host's.
tr -d '\r' <"$work/console.log" | sed -n 's/^SMOKE: \(PASS\|FAIL\|adapter\)/\1/p'
fails=$(tr -d '\r' <"$work/console.log" | grep -c '^SMOKE: FAIL' || true)
check() { if [ "$1" = PASS ]; then echo "PASS $2"; else echo "FAIL $2"; fails=$((fails + 1)); fi; }
grep -q 'SMOKE: DONE' "$work/console.log" && check PASS "the guest ran every check in $seconds s" ||
  { check FAIL "the guest did not finish; the console's end:"; tail -n 20 "$work/console.log"; }
[ "$backend_status" -eq 0 ] && check PASS "crownpager-vhost-i2c exited 0: $(tail -n 1 "$work/backend.log")" ||
  { check FAIL "crownpager-vhost-i2c exited $backend_status:"; cat "$work/backend.log"; }
if [ -f "$work/glass.pbm" ] && cmp -s <(grep -v '^#' "$work/glass.pbm") <(grep -v '^#' "$work/render/step-00.pbm"); then
  check PASS "the back-end's glass equals render's picture"
else
  check FAIL "the back-end's glass differs from render's picture (keep it with --keep)"
fi
[ "$fails" -eq 0 ] || { echo "vhost-smoke: $fails checks failed" >&2; exit 1; }
echo "vhost-smoke: every check passed"
