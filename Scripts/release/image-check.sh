#!/usr/bin/env bash
# Checks the Raspberry Pi card image of Scripts/release/image.sh as a release artifact, then boots it.
#  1. Its contents, read without mounting (sfdisk, mtools, debugfs): an MBR with the FAT32 boot
#     partition (0x0C, bootable, at 4 MiB) and the ext4 root; the boot files of every listed board;
#     the card's crownpager.toml and cloud-init seed; an empty machine id, no SSH host keys, no
#     leftovers of the build; the service enabled with the card's drop-in (logins after its first
#     frame); networkd-wait-online bounded; cloud-init switched off after the first boot; with
#     --apt-repo, that repository's sources entry and key.
#  2. A boot under Debian 13's QEMU as a Pi 3 (-M raspi3b: the Pi's own I2C controller, driver
#     i2c-bcm2835) with a device at 0x3c on I2C1 (QEMU's ssd0303 acknowledges SSD1306 streams), of a
#     copy grown to 4 GiB with a crownpager.toml (with an [mqtt] host, so the service makes its
#     client id) and Imager-style cloud-init user-data put on its FAT from outside (mcopy):
#     multi-user.target reached, the service active under its sandbox, the bus acknowledging 0x3c,
#     that file the one in use, Imager's settings applied, the root grown, host keys made.
#  3. A second copy booted (cloud-init off, stopped as soon as the service has made its client id):
#     a machine id and an MQTT client id of its own. Results are read off the serial console
#     (Scripts/release/image/guest-check); there is no network on the emulated Pi.
#  4. --vm: the glass and the knob the emulated Pi cannot carry (its GPIO has no inputs, QEMU has no
#     SSD1306): a copy of the same card booted on QEMU's virt machine (aarch64, TCG) with the VM
#     rig's arm64 kernel (Scripts/dev/vm/kernel.sh) and root on the card's second partition, the
#     panel on a virtio-i2c adapter served by crownpager-vhost-i2c (the SSD1306 emulator), the knob
#     QEMU's virtio mouse. Nothing in the root changes: only the crownpager.toml on the FAT, put
#     there from outside (text pages, /dev/i2c-0, [crown] source = "evdev"). The service active
#     under its sandbox on the card's own systemd; the emulator's glass equal to the host's
#     `crownpager render --frozen` of that file on page 1, and after 3 detents (HMP mouse_move,
#     REL_X) on page 4; SSH up without cloud-init (the card's drop-in made the host keys). On the
#     2-core CI machine (load 5 to 8, the kernel and builds cached): kernel start to the first
#     frame 17-34 s, to multi-user.target 19-37 s; the whole scenario 41-49 s.
#
#   sudo Scripts/release/image-check.sh [IMAGE.img.xz]   default: out/crownpager_<version>_raspi-arm64.img.xz
#   --contents-only      leave out the boots
#   --one-boot           leave out the second boot (the machine id and MQTT client id of another card)
#   --apt-repo URL --key FILE   the image was made with these (image.sh): check that it trusts
#                        that repository with that key
#   --knob               the second card also turns its pages with a knob: QEMU's USB mouse, whose
#                        REL_X is the rotary-encoder overlay's axis (the emulated Pi's GPIO has no
#                        inputs), read as [crown] source = "evdev"
#   --vm                 also boot the card's root on the VM rig (4. above); --no-pi leaves out 2 and 3
#   --break-glass        with --vm, compare the glass with a reference one pixel off (the check must FAIL)
#   --keep               keep the work folder (serial logs)
#
# Prints ok/FAIL per check, the times from kernel start to the service's first frame and to
# multi-user.target, and `N passed, M failed`; exits 1 when any failed. Needs root (the tool root of
# image.sh, entered with chroot).
set -euo pipefail
cd "$(dirname "$0")/../.."
image=""
boot=1
second_boot=1
keep=0
knob=0
vm=0
pi=1
break_glass=0
apt_repo=""
apt_key=""
while [ $# -gt 0 ]; do
  case "$1" in
    --contents-only) boot=0; shift ;;
    --one-boot) second_boot=0; shift ;;
    --keep) keep=1; shift ;;
    --knob) knob=1; shift ;;
    --vm) vm=1; shift ;;
    --no-pi) pi=0; shift ;;
    --break-glass) break_glass=1; shift ;;
    --apt-repo) apt_repo="${2:?--apt-repo needs a URL}"; shift 2 ;;
    --key) apt_key="${2:?--key needs a file}"; shift 2 ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "image-check: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) image="$1"; shift ;;
  esac
done
debian_root_who=image-check
. Scripts/dev/debian-root.sh
say() { debian_root_say "$@"; }
[ "$(id -u)" -eq 0 ] || { say "run as root: the tools run in a chroot"; exit 77; }
[ -n "$image" ] || image="out/crownpager_$(Scripts/release/package.sh --print-version)_raspi-arm64.img.xz"
[ -f "$image" ] || { say "no image at $image: make it with sudo Scripts/release/image.sh"; exit 66; }
{ [ -z "$apt_repo" ] && [ -z "$apt_key" ]; } || { [ -n "$apt_repo" ] && [ -f "$apt_key" ]; } \
  || { say "--apt-repo URL and --key FILE go together (those image.sh was given)"; exit 2; }
started=$SECONDS
tools="$(Scripts/release/image.sh --tools | tail -n 1)"
# This run's own view of the tool root, and its work folder: $w inside, $work outside.
debian_root_view "$tools" imagecheck
run="$debian_root_view_dir" w="$debian_root_view_work"
work="$tools$w"
qemu_pid=""
cleanup() {
  if [ -n "$qemu_pid" ] && kill -0 "$qemu_pid" 2>/dev/null; then kill -TERM "$qemu_pid"; fi
  # The VM's back-end and the monitor's reader, when a run ends before they do (they are ours).
  for pid in "${vm_backend_pid:-}" "${hmp_cat:-}"; do [ -z "$pid" ] || kill -TERM "$pid" 2>/dev/null || true; done
  if [ "$keep" -eq 1 ]; then mv "$work" "$work.kept" && say "kept $work.kept"; fi
  debian_root_leave_all
}
trap cleanup EXIT
debian_root_enter "$run"
in_tools() { debian_root_run "$run" "$@"; }
passed=0
failed=0
check() {
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); say "ok: $what"; else failed=$((failed + 1)); say "FAIL: $what"; fi
}

# 1. Contents.
say "unpacking $image"
check "the .sha256 beside it matches" bash -c 'cd "$(dirname "$1")" && sha256sum -c --quiet "$(basename "$1").sha256"' _ "$image"
xz -dc "$image" >"$work/card.img"
table="$(in_tools sfdisk -d "$w/card.img")"
part() { sed -n "s|^$w/card.img$1 : start= *\([0-9]*\), size= *\([0-9]*\), type=\([0-9a-f]*\)\(, bootable\)\{0,1\}$|\1 \2 \3 \4|p" <<<"$table"; }
read -r boot_start boot_size boot_type boot_flags <<<"$(part 1)"
read -r root_start root_size root_type _ <<<"$(part 2)"
check "an MBR (dos) partition table with two partitions" \
  test "$(grep -c '^label: dos$' <<<"$table")/$(grep -c "^$w/card.img[0-9] :" <<<"$table")" = 1/2
check "partition 1: FAT32 (0x0C), bootable, at 4 MiB" test "$boot_start/$boot_type/${boot_flags:-}" = "8192/c/, bootable"
check "partition 2: Linux (0x83) after it" test "$root_type/$((root_start >= boot_start + boot_size))" = 83/1
fat="$w/card.img@@$((boot_start * 512))"
boot_files="$(in_tools mdir -b -i "$fat" :: | sed 's|^::/||')"
has_boot() { grep -qx "$1" <<<"$boot_files"; }
for file in bootcode.bin start.elf fixup.dat start4.elf fixup4.dat config.txt cmdline.txt \
  bcm2837-rpi-3-b.dtb bcm2837-rpi-3-b-plus.dtb bcm2837-rpi-3-a-plus.dtb bcm2837-rpi-zero-2-w.dtb \
  bcm2711-rpi-4-b.dtb bcm2711-rpi-400.dtb crownpager.toml user-data meta-data; do
  check "boot partition: $file" has_boot "$file"
done
kernel="$(grep -m 1 '^vmlinuz-' <<<"$boot_files" || true)"
initrd="$(grep -m 1 '^initrd.img-' <<<"$boot_files" || true)"
check "boot partition: a kernel and its initrd ($kernel, $initrd)" test -n "$kernel" -a -n "$initrd"
fat_info="$(in_tools minfo -i "$fat" ::)"
check "boot partition: FAT32, labelled RASPIFIRM" \
  bash -c 'grep -q "disk type=\"FAT32" <<<"$1" && grep -q "RASPIFIRM" <<<"$1"' _ "$fat_info"
config_txt="$(in_tools mtype -i "$fat" ::config.txt)"
check "config.txt: 64-bit, the upstream kernel, I2C1 on" \
  bash -c 'grep -qx "arm_64bit=1" <<<"$1" && grep -qx "upstream_kernel=1" <<<"$1" && grep -qx "dtparam=i2c_arm=on" <<<"$1"' _ "$config_txt"
check "cmdline.txt: the root by label, the serial console" \
  bash -c 'grep -q "root=LABEL=RASPIROOT" <<<"$1" && grep -q "console=ttyS1,115200" <<<"$1"' _ "$(in_tools mtype -i "$fat" ::cmdline.txt)"
in_tools mtype -i "$fat" ::crownpager.toml >"$work/card.toml"
check "crownpager.toml: the first page says where the pager is and what to do" \
  bash -c 'awk "/^\[\[page\]\]/ { n++ } n == 1" "$1" | grep -q "values = \[\"hostname\", \"ip\"\]" && grep -q "^title = \"Edit crownpager.toml\"" "$1"' _ "$work/card.toml"

dd if="$work/card.img" of="$work/root.ext4" bs=1M iflag=skip_bytes,count_bytes skip=$((root_start * 512)) count=$((root_size * 512)) status=none
fs() { in_tools debugfs -R "$1" "$w/root.ext4" 2>/dev/null; }
exists() { in_tools debugfs -R "stat $1" "$w/root.ext4" 2>&1 | grep -q '^Inode:'; }
absent() { ! exists "$1"; }
check "root: ext4 labelled RASPIROOT" bash -c '[ "$1" = RASPIROOT ]' _ "$(in_tools e2label "$w/root.ext4")"
check "root: /etc/machine-id is empty (each card makes its own)" bash -c 'grep -q "Size: 0$" <<<"$1"' _ "$(fs 'stat /etc/machine-id' | grep -o 'Size: [0-9]*$')"
check "root: no D-Bus machine id" absent /var/lib/dbus/machine-id
check "root: no SSH host keys" bash -c '! grep -q ssh_host_ <<<"$1"' _ "$(fs 'ls /etc/ssh')"
check "root: the service enabled" bash -c 'grep -q crownpager.service <<<"$1"' _ "$(fs 'ls /etc/systemd/system/multi-user.target.wants')"
check "root: the card's drop-in reads /boot/firmware/crownpager.toml" \
  bash -c 'grep -q -- "--config /boot/firmware/crownpager.toml" <<<"$1"' _ "$(fs 'cat /etc/systemd/system/crownpager.service.d/card.conf')"
installed() { fs 'cat /var/lib/dpkg/status' | grep '^Package: crownpager$' >/dev/null; }
check "root: crownpager installed" installed
for leftover in /deb /work /base /etc/apt/apt.conf.d/00mmdebstrap /etc/apt/sources.list /etc/gitconfig /root/.gitconfig; do
  check "root: no leftover $leftover" absent "$leftover"
done
check "root: no leftover work.* (image.sh's work folder of a run)" bash -c '! grep -qE "[[:space:]]work\.[[:alnum:]]+" <<<"$1"' _ "$(fs 'ls /')"
check "root: no downloaded packages or package lists" \
  bash -c '! grep -q "\.deb\|_Packages" <<<"$1"' _ "$(fs 'ls /var/cache/apt/archives'; fs 'ls /var/lib/apt/lists')"
check "root: apt reads Debian's own mirror" bash -c 'grep -q "URIs: http://deb.debian.org/debian$" <<<"$1"' _ "$(fs 'cat /etc/apt/sources.list.d/debian.sources')"
check "root: resolv.conf is systemd-resolved's, not the build machine's" \
  bash -c 'grep -q "stub-resolv.conf" <<<"$1"' _ "$(fs 'stat /etc/resolv.conf')"
check "root: host name crownpager" bash -c '[ "$1" = crownpager ]' _ "$(fs 'cat /etc/hostname')"
check "root: networkd-wait-online bounded (a card without network boots without waiting 2 minutes)" \
  bash -c 'grep -q -- "--timeout=" <<<"$1"' _ "$(fs 'cat /etc/systemd/system/systemd-networkd-wait-online.service.d/bounded.conf')"
check "root: cloud-init switched off after the first boot (crownpager-cloud-init-once enabled)" \
  bash -c 'grep -q crownpager-cloud-init-once.service <<<"$1"' _ "$(fs 'ls /etc/systemd/system/cloud-init.target.wants')"
check "root: logins wait for the pager's first frame (the card's drop-in)" \
  bash -c 'grep -qx "Before=systemd-user-sessions.service" <<<"$1"' _ "$(fs 'cat /etc/systemd/system/crownpager.service.d/card.conf')"
if [ -n "$apt_repo" ]; then
  # The repository of image.sh --apt-repo: its sources entry, and the key apt checks it with.
  sources="$(fs 'cat /etc/apt/sources.list.d/crownpager.sources')"
  keyring="$(sed -n 's|^Signed-By: ||p' <<<"$sources")"
  check "root: apt reads $apt_repo (crownpager.sources)" \
    bash -c 'grep -qx "URIs: $2" <<<"$1" && grep -qx "Suites: stable" <<<"$1" && grep -qx "Components: main" <<<"$1"' _ "$sources" "$apt_repo"
  rm -f "$work/keyring"
  in_tools debugfs -R "dump -p ${keyring:-/none} $w/keyring" "$w/root.ext4" >/dev/null 2>&1 || true
  check "root: the repository's key at ${keyring:-?} is the one given, readable by apt" \
    bash -c '[ -n "$1" ] && cmp -s "$2" "$3" && [ "$(stat -c %a "$3")" = 644 ]' _ "$keyring" "$apt_key" "$work/keyring"
else
  check "root: no repository but Debian's (no --apt-repo)" absent /etc/apt/sources.list.d/crownpager.sources
fi
[ "$boot" -eq 1 ] || { say "$passed passed, $failed failed (contents only) in $((SECONDS - started)) s"; [ "$failed" -eq 0 ]; exit; }

# 2. Boots on the emulated Pi 3: the image's own kernel, initrd and device tree (the Pi's firmware
# does not run under QEMU), its cmdline.txt, and the check script started by systemd.run.
for file in "$kernel" "$initrd" bcm2837-rpi-3-b.dtb; do in_tools mcopy -n -i "$fat" "::$file" "$w/$file"; done
cp Scripts/release/image/guest-check "$work/imagecheck.sh"
# The card's own file with its first page renamed (so the check sees this file in use) and an MQTT
# broker, none listening: the service still makes and keeps its client id, which the two boots compare.
sed -e 's/^title = "Edit crownpager.toml"$/title = "Image check"/' \
  -e 's/^# host = "192.168.1.10" .*/host = "127.0.0.1"/' "$work/card.toml" >"$work/crownpager.toml"
grep -q '^host = "127.0.0.1"$' "$work/crownpager.toml" || { say "the card's crownpager.toml has no '# host = ...' line under [mqtt] to turn on"; exit 1; }
# --knob: the second card reads the knob from the first input device (the USB mouse), as a Pi with
# the kernel's rotary-encoder overlay would.
sed 's/^source = "gpio" .*/source = "evdev"/' "$work/crownpager.toml" >"$work/crownpager-knob.toml"
grep -q '^source = "evdev"$' "$work/crownpager-knob.toml" || { say "the card's crownpager.toml has no [crown] source = \"gpio\" line to change"; exit 1; }
touch "$work/knob"
# What Raspberry Pi Imager 2.x writes for a host name, a user with an SSH key and a time zone.
cat >"$work/user-data" <<'USERDATA'
#cloud-config
hostname: imagecheck
manage_etc_hosts: true
timezone: Europe/Berlin
users:
- name: pi
  groups: users,adm,dialout,audio,netdev,video,plugdev,input,gpio,spi,i2c,sudo
  shell: /bin/bash
  lock_passwd: true
  ssh_authorized_keys:
    - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB0Lz0nlr1TBHy8bIgzKrDkAzJ+j3FhsY2X9Tx1DFcdT imagecheck
  sudo: ALL=(ALL) NOPASSWD:ALL
USERDATA
# The Pi's firmware, which reads cmdline.txt, does not run under QEMU: the kernel gets the serial
# console and the root by label (the line checked above) from here.
cmdline="console=ttyS1,115200 root=LABEL=RASPIROOT rw fsck.repair=yes net.ifnames=0 rootwait"
# put_on_fat IMAGE FILE[:NAME]...: files of the work folder onto the card's FAT, from outside (mtools).
put_on_fat() {
  local image=$1 file; shift
  for file in "$@"; do in_tools mcopy -o -i "$image@@$((boot_start * 512))" "$w/${file%%:*}" "::${file##*:}"; done
}
# QEMU's human monitor on a pair of FIFOs ($work/NAME.hmp.in and .out, QEMU_PATH.in and .out to QEMU):
# hmp_args are QEMU's options for it, and commands go to the descriptor hmp_in.
hmp_open() {
  local name=$1 qemu_path=$2
  rm -f "$work/$name.hmp.in" "$work/$name.hmp.out" && mkfifo "$work/$name.hmp.in" "$work/$name.hmp.out"
  exec {hmp_in}<>"$work/$name.hmp.in" {hmp_out}<>"$work/$name.hmp.out"
  cat <&"$hmp_out" >"$work/$name.hmp.log" &
  hmp_cat=$!
  hmp_args=(-chardev "pipe,id=hmp,path=$qemu_path" -mon chardev=hmp,mode=readline)
}
hmp_close() { kill "$hmp_cat" 2>/dev/null || true; hmp_cat=""; exec {hmp_in}>&- {hmp_out}>&-; }
# Writes the serial console's "imagecheck:" lines of a boot of a copy of the card, grown to 4 GiB
# (QEMU's SD card must be a power of two in size; the root grows into the rest).
boot_copy() {
  local name=$1 mode=$2 began=$SECONDS timeout=${CROWNPAGER_IMAGE_BOOT_TIMEOUT:-1800}
  local copy="$w/$name.img" serial="$work/$name.serial"
  cp --sparse=always "$work/card.img" "$tools$copy" && truncate -s 4G "$tools$copy"
  echo "$mode" >"$work/mode"
  local files=(imagecheck.sh mode:imagecheck.mode) extra="" devices=()
  # The second card skips cloud-init: what it costs shows in the two boots' times.
  if [ "$mode" = full ]; then files+=(crownpager.toml user-data); else extra=" cloud-init=disabled"; fi
  if [ "$mode" = quick ] && [ "$knob" -eq 1 ]; then
    # The USB mouse shows as /dev/input/event0 only without USB autosuspend (the emulated hub
    # re-enumerates on every resume); the human monitor on a pair of FIFOs turns its wheel.
    files+=(crownpager-knob.toml:crownpager.toml knob:imagecheck.knob)
    extra+=" usbcore.autosuspend=-1"
    hmp_open "$name" "$w/$name.hmp"
    devices=(-device usb-mouse "${hmp_args[@]}")
  elif [ "$mode" = quick ]; then
    files+=(crownpager.toml)
  fi
  put_on_fat "$copy" "${files[@]}"
  : >"$serial"
  in_tools qemu-system-aarch64 -M raspi3b -m 1G -accel tcg,tb-size=256 \
    -kernel "$w/$kernel" -initrd "$w/$initrd" -dtb "$w/bcm2837-rpi-3-b.dtb" \
    -drive "file=$copy,if=sd,format=raw" \
    -append "$cmdline$extra systemd.unit=multi-user.target systemd.wants=kernel-command-line.service systemd.run=/boot/firmware/imagecheck.sh systemd.run_success_action=none systemd.run_failure_action=none systemd.mask=serial-getty@ttyS1.service" \
    -device ssd0303,address=0x3c,bus=i2c-bus.1 "${devices[@]}" -display none -monitor none \
    -serial null -serial "file:$w/$name.serial" -pidfile "$w/$name.pid" -daemonize >&2
  qemu_pid="$(cat "$work/$name.pid")"
  local turned=0
  until grep -q '^imagecheck: done' "$serial" 2>/dev/null; do
    if [ "${#devices[@]}" -gt 0 ] && [ "$turned" -eq 0 ] && grep -q '^imagecheck: knob=ready' "$serial" 2>/dev/null; then
      # One detent clockwise: run reads the rotary-encoder overlay's axis, REL_X (not the wheel's
      # REL_WHEEL), so the mouse moves one unit right: REL_X +1.
      echo "mouse_move 1 0" >&"$hmp_in"
      turned=1
    fi
    kill -0 "$qemu_pid" 2>/dev/null || { say "QEMU ended before the check did ($name)"; break; }
    [ $((SECONDS - began)) -lt "$timeout" ] || { say "no end of the check after $timeout s ($name): tail of its console:"; tail -n 30 "$serial" >&2; break; }
    sleep 5
  done
  kill -TERM "$qemu_pid" 2>/dev/null || true
  qemu_pid=""
  if [ "${#devices[@]}" -gt 0 ]; then hmp_close; fi
  say "boot '$name' took $((SECONDS - began)) s (wall clock, QEMU start to the check's end)"
  tr -d '\r' <"$serial" | sed -n 's/^imagecheck: //p' >"$work/$name.results"
}
value() { sed -n "s/^$1=//p" <<<"$2" | head -n 1; }
if [ "$pi" -eq 1 ]; then
say "first boot of a copy (the check waits for multi-user.target and the service)"
boot_copy first full
first="$(cat "$work/first.results")"
printf '%s\n' "$first" | sed 's/^/  /' >&2
check "multi-user.target reached" bash -c '[ "${1:-0}" -gt 0 ]' _ "$(value multi-user-us "$first")"
check "the service active (READY=1: the panel shows the first page)" test "$(value crownpager-state "$first")" = active
check "the service runs as crownpager, no new privileges, seccomp, no capabilities" \
  bash -c '[ "$1" = crownpager ] && grep -q "NoNewPrivs: 1" <<<"$2" && grep -q "Seccomp: 2" <<<"$2" && grep -q "CapEff: 0000000000000000" <<<"$2"' _ \
  "$(value service-user "$first")" "$(value service-proc "$first")"
check "systemd-analyze security on the Pi: 2.0 or under ($(value exposure "$first"))" \
  awk -v e="$(value exposure "$first")" 'BEGIN { exit !(e != "" && e <= 2.0) }'
check "no warnings from the service in the journal" test "$(value journal-errors "$first")" = 0
check "I2C1: 0x3c acknowledges (the panel's address), an empty 0x50 does not" \
  test "$(value i2c-0x3c "$first")/$(value i2c-0x50 "$first")" = ack/nack
check "the service reads /boot/firmware/crownpager.toml" test "$(value config "$first")" = "--config /boot/firmware/crownpager.toml"
check "the crownpager.toml put on the FAT from outside is the one in use ($(value status "$first"))" \
  bash -c 'grep -q "^page 1 of [0-9]*: Image check" <<<"$1"' _ "$(value status "$first")"
check "cloud-init: the host name from user-data" test "$(value hostname "$first")" = imagecheck
check "cloud-init: Imager's user, in sudo and i2c, with the SSH key" \
  bash -c 'grep -q "sudo" <<<"$1" && grep -q "i2c" <<<"$1" && [ "$2" = 1 ]' _ "$(value user-pi "$first")" "$(value pi-keys "$first")"
check "cloud-init: the time zone" test "$(value timezone "$first")" = Europe/Berlin
check "the root partition grew to the card (from $root_size sectors to $(value root-sectors "$first"))" \
  bash -c '[ "${1:-0}" -gt $(($2 * 2)) ] && [ "${3:-0}" -gt $(($2 * 512 * 2)) ]' _ "$(value root-sectors "$first")" "$root_size" "$(value root-fs-bytes "$first")"
check "SSH host keys made on the first boot" bash -c '[ "${1:-0}" -ge 2 ]' _ "$(value ssh-host-keys "$first")"
check "cloud-init finished without errors, and is off for later boots" \
  test "$(value cloud-init-finished "$first")/$(value cloud-init-errors "$first")/$(value cloud-init-disabled "$first")" = yes/none/yes
ready_us="$(value crownpager-ready-us "$first")"
multi_us="$(value multi-user-us "$first")"

if [ "$second_boot" -eq 1 ]; then
say "second boot, of another copy of the image"
boot_copy second quick
second="$(cat "$work/second.results")"
printf '%s\n' "$second" | sed 's/^/  /' >&2
check "each card its own machine id ($(value machine-id "$first") / $(value machine-id "$second"))" \
  bash -c '[ ${#1} -eq 32 ] && [ ${#2} -eq 32 ] && [ "$1" != "$2" ]' _ "$(value machine-id "$first")" "$(value machine-id "$second")"
# The MQTT client id (issue 33), kept in /var/lib/crownpager/mqtt-client-id: 12 letters or digits.
check "each card its own MQTT client id ($(value client-id "$first") / $(value client-id "$second"))" \
  bash -c '[[ $1 =~ ^[0-9a-z]{12}$ ]] && [[ $2 =~ ^[0-9a-z]{12}$ ]] && [ "$1" != "$2" ]' _ "$(value client-id "$first")" "$(value client-id "$second")"
second_ready_us="$(value crownpager-ready-us "$second")"
if [ "$knob" -eq 1 ]; then
  check "the knob (the USB mouse's REL_X, one detent) turns page 1 to page 2 ($(value knob-before "$second") -> $(value knob-after "$second"))" \
    bash -c 'grep -q "^page 1 of " <<<"$1" && grep -q "^page 2 of " <<<"$2"' _ "$(value knob-before "$second")" "$(value knob-after "$second")"
fi
fi
getty_us="$(value getty-us "$first")"
check "the glass lights before the login prompt (first frame $((${ready_us:-0} / 1000)) ms, getty on tty1 $((${getty_us:-0} / 1000)) ms)" \
  bash -c '[ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] && [ "$1" -lt "$2" ]' _ "$ready_us" "$getty_us"
say "emulated Pi 3 (TCG): kernel start to the first frame $((${ready_us:-0} / 1000)) ms, to the login prompt $((${getty_us:-0} / 1000)) ms, to multi-user.target $((${multi_us:-0} / 1000)) ms"
[ -z "${second_ready_us:-}" ] || say "second card (cloud-init off): kernel start to the first frame $((${second_ready_us:-0} / 1000)) ms"
fi

# 4. The card's root on the VM rig: QEMU virt (aarch64, TCG, the host's QEMU as vm-check.sh uses)
# with the rig's arm64 kernel (everything built in, no initrd: virtio-blk, ext4, vfat, virtio-i2c,
# virtio-input), root on the card's second partition; cloud-init off, as on the second card.
# poll_glass NAME REFERENCE: the emulator's glass taken each second until it equals the reference
# (the page's slide and the indicator settle in their own time under TCG), at most a minute.
poll_glass() {
  local name=$1 reference=$2
  for _ in $(seq 60); do
    vm_glass "$work/vm" "$name" && vm_glass_equal "$work/vm/glass-$name.pbm" "$reference" && return 0
    sleep 1
  done
  return 1
}
vm_boot() {
  local dir="$work/vm" kernel backend render began=$SECONDS timeout=${CROWNPAGER_IMAGE_BOOT_TIMEOUT:-600}
  local detents=3 first_glass="" turned_glass="" step
  mkdir -p "$dir"
  . Scripts/dev/vm/host.sh
  Scripts/setup.sh --vm >&2
  kernel="$(Scripts/dev/vm/kernel.sh arm64)/Image" || { check "virt: the VM rig's arm64 kernel (Scripts/dev/vm/kernel.sh arm64)" false; return; }
  say "building crownpager-vhost-i2c (release) and crownpager (render, on this host)"
  backend="$(vm_backend_build "$dir/backend-build.log")" || { check "virt: crownpager-vhost-i2c builds" false; return; }
  swift build --product crownpager >"$dir/render-build.log" 2>&1 || { tail -n 20 "$dir/render-build.log" >&2; check "virt: crownpager builds on this host" false; return; }
  render="$(swift build --show-bin-path)/crownpager"
  # The configuration, from outside: text pages (render draws them as the card does), the panel on
  # the VM's only I2C adapter (virtio-i2c, /dev/i2c-0), the knob the virtio mouse (event0).
  cat >"$work/vm.toml" <<'TOML'
# image-check.sh --vm: put on the card's FAT in place of its own crownpager.toml.
[display]
bus = 0
address = 0x3c
dim_after = "never"
off_after = "never"

[crown]
source = "evdev"
evdev = "/dev/input/event0"
acceleration = false
TOML
  for step in North East South West Centre; do
    printf '\n[[page]]\nkind = "text"\ntitle = "%s"\ntext = "The card on the VM rig: %s"\n' "$step" "$step" >>"$work/vm.toml"
  done
  for step in "first:wait 3s" "turns:$(printf '+1,%.0s' $(seq "$detents"))wait 3s"; do
    rm -rf "$dir/render-${step%%:*}"
    "$render" render --config "$work/vm.toml" --frozen --crown "${step#*:}" --steps-only --no-png \
      --out "$dir/render-${step%%:*}" >/dev/null 2>"$dir/render.err" || { cat "$dir/render.err" >&2; check "virt: render draws the configuration" false; return; }
    cp "$(ls "$dir/render-${step%%:*}"/step-*.pbm | sort | tail -n 1)" "$dir/reference-${step%%:*}.pbm"
  done
  if [ "$break_glass" -eq 1 ]; then
    vm_glass_broken "$dir/reference-turns.pbm" "$dir/reference-broken.pbm"
    mv "$dir/reference-broken.pbm" "$dir/reference-turns.pbm"
  fi
  echo vm >"$work/mode"
  echo "page $((detents + 1)) of" >"$work/vm-knob"
  cp --sparse=always "$work/card.img" "$work/vm.img"
  put_on_fat "$w/vm.img" imagecheck.sh mode:imagecheck.mode vm.toml:crownpager.toml vm-knob:imagecheck.knob
  vm_backend_start "$backend" "$dir" || { check "virt: crownpager-vhost-i2c serves $dir/i2c.sock" false; return; }
  hmp_open vm "$work/vm.hmp"
  : >"$dir/serial"
  # shellcheck disable=SC2046
  qemu-system-aarch64 -M virt $(vm_accel arm64 "$kernel") -smp 2 -m 1G -nic none -display none -monitor none \
    -no-reboot -serial "file:$dir/serial" -kernel "$kernel" "${vm_i2c_args[@]}" "${hmp_args[@]}" \
    -device virtio-mouse-pci -drive "file=$work/vm.img,format=raw,if=virtio" \
    -append "root=/dev/vda2 rw rootwait console=ttyAMA0 panic=-1 cloud-init=disabled net.ifnames=0 systemd.unit=multi-user.target systemd.wants=kernel-command-line.service systemd.run=/boot/firmware/imagecheck.sh systemd.run_success_action=none systemd.run_failure_action=none systemd.mask=serial-getty@ttyAMA0.service" \
    >"$dir/qemu.log" 2>&1 &
  qemu_pid=$!
  until grep -q '^imagecheck: done' "$dir/serial" 2>/dev/null; do
    if [ -z "$first_glass" ] && grep -q '^imagecheck: knob=ready' "$dir/serial"; then
      poll_glass first "$dir/reference-first.pbm" && first_glass=$((SECONDS - began)) || first_glass=no
      for _ in $(seq "$detents"); do echo "mouse_move 1 0" >&"$hmp_in"; done
      poll_glass turns "$dir/reference-turns.pbm" && turned_glass=yes || turned_glass=no
    fi
    kill -0 "$qemu_pid" 2>/dev/null || { say "QEMU ended before the check did (virt): $(tail -n 2 "$dir/qemu.log" | tr '\n' ' ')"; break; }
    [ $((SECONDS - began)) -lt "$timeout" ] || { say "no end of the check after $timeout s (virt): tail of its console:"; tail -n 30 "$dir/serial" >&2; break; }
    sleep 1
  done
  kill -TERM "$qemu_pid" 2>/dev/null && wait "$qemu_pid" || true
  qemu_pid=""
  hmp_close
  vm_backend_stop
  local results
  results="$(tr -d '\r' <"$dir/serial" | sed -n 's/^imagecheck: //p')"
  printf '%s\n' "$results" | sed 's/^/  /' >&2
  check "virt: multi-user.target reached on the card's own systemd" bash -c '[ "${1:-0}" -gt 0 ]' _ "$(value multi-user-us "$results")"
  check "virt: the service active as crownpager, no new privileges, seccomp, no capabilities" \
    bash -c '[ "$1" = active ] && [ "$2" = crownpager ] && grep -q "NoNewPrivs: 1" <<<"$3" && grep -q "Seccomp: 2" <<<"$3" && grep -q "CapEff: 0000000000000000" <<<"$3"' _ \
    "$(value crownpager-state "$results")" "$(value service-user "$results")" "$(value service-proc "$results")"
  check "virt: the panel on the virtio-i2c adapter the FAT's crownpager.toml names, held by the service ($(value i2c-adapter "$results"))" \
    bash -c '[[ $1 == "/dev/i2c-0 "*virtio* ]] && [ "${2:-0}" -ge 1 ]' _ "$(value i2c-adapter "$results")" "$(value holds-i2c "$results")"
  check "virt: the glass (the emulator behind virtio-i2c) equals render --frozen of that file: page 1" test "${first_glass:-no}" != no
  check "virt: $detents detents of the virtio mouse ($(value knob-device "$results")) turn it to page $((detents + 1)) ($(value knob-before "$results") -> $(value knob-after "$results"))" \
    bash -c 'grep -q "^page 1 of " <<<"$1" && grep -q "^page $3 of " <<<"$2"' _ "$(value knob-before "$results")" "$(value knob-after "$results")" "$((detents + 1))"
  check "virt: the glass then equals render's after --crown +1 x$detents (page $((detents + 1)))" test "${turned_glass:-no}" = yes
  check "virt: no warnings from the service in the journal" test "$(value journal-errors "$results")" = 0
  check "virt: SSH up on a card that skipped cloud-init (the card's drop-in made its host keys)" test "$(value ssh-state "$results")" = active
  vm_ready_us="$(value crownpager-ready-us "$results")" vm_multi_us="$(value multi-user-us "$results")"
  say "virt (TCG, the rig's kernel): kernel start to the first frame $((${vm_ready_us:-0} / 1000)) ms, to multi-user.target $((${vm_multi_us:-0} / 1000)) ms; QEMU start to the glass of page 1 ${first_glass:-?} s; the scenario $((SECONDS - began)) s"
}
if [ "$vm" -eq 1 ]; then
  say "the card's root on the VM rig (QEMU virt, the rig's arm64 kernel, the emulator behind virtio-i2c)"
  vm_boot
fi
say "$passed passed, $failed failed in $((SECONDS - started)) s"
[ "$failed" -eq 0 ]
