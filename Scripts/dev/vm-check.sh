#!/usr/bin/env bash
# The package on real kernels in VMs (issue 23, item 4): boots Debian 13 guests under QEMU with no
# network, the crownpager package installed with apt, and checks the service on real device nodes:
# the panel on a virtio-i2c adapter served by this project's vhost-user back-end (the SSD1306
# emulator, whose glass is compared with `render`), the knob on gpio-sim (libgpiod 3) and uinput.
# On amd64's custom kernel also a fleet's update: the next version published in the signed
# repository, `apt-get upgrade` (the service restarts on the new binary, the owner's files stay),
# and a repository signed by another key, refused.
#
#   sudo Scripts/dev/vm-check.sh                 the custom kernel on amd64 and arm64, then Debian's stock amd64 kernel
#   --arch amd64|arm64|all                       only the custom kernel of one architecture (default all)
#   --no-stock                                   leave out the stock-kernel VM
#   --break-glass                                compare the glass with a reference one pixel off (the check must FAIL)
#   --debs DIR                                   install DIR/crownpager_<version>_ARCH.deb (built from this tree, as
#                                                .ci/run does) instead of building them into the cache
#   --keep                                       keep the run's folder (console logs, journals, glasses)
#
# Prints a PASS or FAIL line per scenario, the boot times, and `N passed, M failed`; exits 1 when
# any failed. Kernels (Scripts/dev/vm/kernel.sh), packages (keyed by the tree) and images
# (Scripts/dev/vm/image.sh) are cached under $CROWNPAGER_CACHE (default /var/cache/crownpager).
# TCG unless KVM is probed and boots a kernel. Needs root.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"
arches=(amd64 arm64)
stock=1
break_glass=0
keep=0
debs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --arch)
      case "${2:-}" in amd64 | arm64) arches=("$2") ;; all) ;; *) echo "vm-check: --arch takes amd64, arm64 or all" >&2; exit 2 ;; esac
      shift 2 ;;
    --no-stock) stock=0; shift ;;
    --break-glass) break_glass=1; shift ;;
    --keep) keep=1; shift ;;
    --debs) debs="$(realpath "${2:?--debs needs a folder}")"; shift 2 ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "vm-check: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
debian_root_who=vm-check
. Scripts/dev/debian-root.sh
. Scripts/dev/vm/host.sh
say() { debian_root_say "$@"; }
[ "$(id -u)" -eq 0 ] || { say "run as root: the kernel and image builds use chroot"; exit 77; }
started=$SECONDS
work="$(mktemp -d /tmp/vm-check.XXXXXX)"
qemu_pid=""
cleanup() {
  local pid
  for pid in "$qemu_pid" "$vm_backend_pid"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" || say "process $pid ended with status $?"; fi
  done
  if [ "$keep" -eq 1 ]; then say "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
# QEMU and the ext4 tools, through the project's own setup (it installs only what is missing).
Scripts/setup.sh --vm >&2
for tool in qemu-system-x86_64 qemu-system-aarch64 debugfs mkfs.ext4; do
  command -v "$tool" >/dev/null || { say "no $tool after Scripts/setup.sh --vm"; exit 69; }
done

passed=0 failed=0
pass() { printf 'vm-check: PASS %s\n' "$*"; passed=$((passed + 1)); }
fail() { printf 'vm-check: FAIL %s\n' "$*"; failed=$((failed + 1)); }
timings=()

# --- what the VMs need, cached -----------------------------------------------------------------

# The package for ARCH, built from this tree: cached by what goes into it (the committed files of
# Sources, Hardware, Scripts/release and the manifest, and their uncommitted changes).
package_for() {
  local arch=$1 key dir extra=()
  if [ -n "$debs" ]; then
    dir="$debs/crownpager_$(Scripts/release/package.sh --print-version)_$arch.deb"
    [ -f "$dir" ] || { say "no $dir"; return 1; }
    echo "$dir"
    return 0
  fi
  # The documentation catalogues (*.docc) are not in the package: an edit there builds nothing.
  key="$( { git ls-tree -r HEAD Sources Hardware Scripts/release Package.swift Package.resolved | grep -v '\.docc/'
    git diff HEAD -- Sources Hardware Scripts/release Package.swift Package.resolved ':!*.docc/*'; } | sha256sum | cut -c1-16)"
  dir="$CROWNPAGER_CACHE/vm-debs/$key"
  if ! ls "$dir"/crownpager_*_"$arch".deb >/dev/null 2>&1; then
    [ "$arch" = amd64 ] || extra=(--arch "$arch")
    say "building the $arch package of $key (Scripts/release/package.sh)"
    Scripts/release/package.sh --out "$dir" --no-lintian "${extra[@]}" >"$work/package-$arch.log" 2>&1 \
      || { tail -n 20 "$work/package-$arch.log" >&2; return 1; }
  fi
  ls "$dir"/crownpager_*_"$arch".deb | tail -n 1
}

# The vhost-user I2C back-end (a product of this package), or nothing when this tree has none.
say "building crownpager-vhost-i2c (release)"
backend="$(vm_backend_build "$work/backend.log")" || backend=""

# The next version of DEB, as a release would publish it: the same files, VERSION in its control.
repackage() {
  local deb=$1 version=$2 dest=$3 tree="$work/repackage"
  rm -rf "$tree"
  dpkg-deb -R "$deb" "$tree"
  sed -i "s/^Version: .*/Version: $version/" "$tree/DEBIAN/control"
  dpkg-deb --root-owner-group -Zgzip -z1 -b "$tree" "$dest" >/dev/null
  rm -rf "$tree"
}

# A fleet's update on the run's disk (DIR): the signed repository of the image with DEB and its
# next version, and a repository of a newer one signed by another key (the guest must refuse it).
update_repositories() {
  local deb=$1 dir=$2 arch=$3 version
  version="$(dpkg-deb -f "$deb" Version)"
  repackage "$deb" "$version+vmcheck1" "$work/crownpager_${version}+vmcheck1_$arch.deb"
  repackage "$deb" "$version+vmcheck2" "$work/crownpager_${version}+vmcheck2_$arch.deb"
  Scripts/release/apt-repo.sh --out "$dir/next-repo" --key-dir "$CROWNPAGER_CACHE/vm-repo-key" \
    --url file:/vmcheck/next-repo "$deb" "$work/crownpager_${version}+vmcheck1_$arch.deb" | tail -n 1 >"$dir/next-repo.list"
  mkdir -p "$work/other-key" && chmod 700 "$work/other-key"
  Scripts/release/apt-repo.sh --out "$dir/foreign-repo" --key-dir "$work/other-key" \
    --url file:/vmcheck/foreign-repo "$work/crownpager_${version}+vmcheck2_$arch.deb" | tail -n 1 >"$dir/foreign-repo.list"
  echo "$version+vmcheck1" >"$dir/next-version"
  echo "$version+vmcheck2" >"$dir/foreign-version"
}

# --- one VM ------------------------------------------------------------------------------------

# Acts on the guest's requests ("@@vmcheck-host glass NAME @@", "absent", "present") in order.
serve_requests() {
  local console=$1 dir=$2 handled=0 requests request i inode
  while kill -0 "$qemu_pid" 2>/dev/null; do
    requests=()
    [ -f "$console" ] && mapfile -t requests < <(grep -a -oE '@@vmcheck-host [a-z]+( [a-z0-9-]+)? @@' "$console" || [ $? -eq 1 ])
    for ((i = handled; i < ${#requests[@]}; i++)); do
      request="${requests[i]#@@vmcheck-host }" request="${request% @@}"
      case "$request" in
        glass\ *) vm_glass "$dir" "${request#glass }" ;;
        absent | present) [ -n "$vm_backend_pid" ] && kill -USR1 "$vm_backend_pid" ;;
      esac
    done
    handled=${#requests[@]}
    sleep 0.2
  done
}

# Boots ARCH with MODE (custom or stock) and reports its scenarios.
vm_run() {
  local arch=$1 mode=$2 kernel_dir=$3 image_dir=$4 dir accel began qemu machine kernel append extra=() boot
  dir="$work/$arch-$mode"
  mkdir -p "$dir/disk/out"
  cp Scripts/dev/vm/guest.sh "$dir/disk/guest.sh"
  echo "$mode" >"$dir/disk/mode"
  # The update runs once, on amd64's custom kernel: what it checks (apt, dpkg, systemd) does not
  # depend on the kernel or the architecture, and arm64's TCG would double its minute.
  if [ "$mode" = custom ] && [ "$arch" = amd64 ]; then
    update_repositories "$deb" "$dir/disk" "$arch" 2>"$dir/update-repositories.log" \
      || fail "[$arch] update: no repositories for the next version ($(tail -n 2 "$dir/update-repositories.log" | tr '\n' ' '))"
  fi
  mkfs.ext4 -q -F -L vmcheck -d "$dir/disk" "$dir/run.img" 64M >"$dir/mkfs.log"
  case "$arch" in
    amd64) qemu=qemu-system-x86_64 machine="-M pc" console=ttyS0 kernel="$kernel_dir/bzImage" ;;
    arm64) qemu=qemu-system-aarch64 machine="-M virt" console=ttyAMA0 kernel="$kernel_dir/Image" ;;
  esac
  append="root=/dev/vda rw console=$console panic=-1 quiet"
  accel="$(vm_accel "$arch" "$kernel")"
  if [ "$mode" = stock ]; then
    kernel="$image_dir/vmlinuz"
    extra+=(-initrd "$image_dir/initrd.img")
  elif [ -n "$backend" ]; then
    vm_backend_start "$backend" "$dir" \
      || fail "[$arch] panel: crownpager-vhost-i2c made no socket: $(tail -n 3 "$dir/backend.log" | tr '\n' ' ')"
    extra+=("${vm_i2c_args[@]}")
  else
    fail "[$arch] panel: no vhost-user I2C back-end in this tree (crownpager-vhost-i2c): the panel scenarios cannot pass"
  fi
  say "booting $arch on the $mode kernel ($accel)"
  local began=$SECONDS
  # shellcheck disable=SC2086
  timeout 600 $qemu $machine $accel -smp 2 -m 1G -nic none -display none -monitor none -no-reboot \
    -serial "file:$dir/console.log" -kernel "$kernel" -append "$append" "${extra[@]}" \
    -drive "file=$image_dir/root.img,format=raw,if=virtio,snapshot=on" \
    -drive "file=$dir/run.img,format=raw,if=virtio" >"$dir/qemu.log" 2>&1 &
  qemu_pid=$!
  serve_requests "$dir/console.log" "$dir"
  wait "$qemu_pid" || say "QEMU ended with status $? ($(tail -n 2 "$dir/qemu.log" | tr '\n' ' '))"
  qemu_pid=""
  vm_backend_stop
  local seconds=$((SECONDS - began))
  debugfs -R "rdump /out $dir" "$dir/run.img" >"$dir/debugfs.log" 2>&1 || say "debugfs could not read the run's disk: $(tail -n 1 "$dir/debugfs.log")"
  if [ ! -f "$dir/out/results" ]; then
    fail "[$arch $mode] the guest wrote no results in $seconds s; the console's end:"
    if [ -f "$dir/console.log" ]; then tail -n 25 "$dir/console.log" >&2; else tail -n 3 "$dir/qemu.log" >&2; fi
    keep=1
    return
  fi
  while read -r verdict text; do
    case "$verdict" in PASS) pass "[$arch $mode] $text" ;; *) fail "[$arch $mode] $text" ;; esac
  done <"$dir/out/results"
  [ "$mode" = custom ] && compare_glasses "$arch" "$dir"
  boot="$(awk '{ printf "userspace from %.1f s, multi-user.target at %.1f s", $1 / 1e6, $2 / 1e6 }' "$dir/out/boot-times")"
  timings+=("$arch $mode kernel: $boot after the kernel started; the whole VM $seconds s")
}

# The emulator's glass after the turns and after the NACK's recovery is render's.
compare_glasses() {
  local arch=$1 dir=$2 name reference
  reference="$dir/out/reference-turns.pbm"
  if [ "$break_glass" -eq 1 ] && [ -f "$reference" ]; then
    # One pixel flipped: the comparison must fail.
    vm_glass_broken "$reference" "$dir/reference-broken.pbm"
    reference="$dir/reference-broken.pbm"
  fi
  for name in turns recovered; do
    if vm_glass_equal "$dir/glass-$name.pbm" "$reference"; then
      pass "[$arch custom] glass $name: the emulator's glass equals render of the same configuration after 3 detents"
    else
      fail "[$arch custom] glass $name: the emulator's glass ($dir/glass-$name.pbm) differs from render's ($reference) or is missing"
      keep=1
    fi
  done
}

# --- the VMs -----------------------------------------------------------------------------------

for arch in "${arches[@]}"; do
  # What cannot be made is a FAIL of its own; the other architecture still runs.
  kernel_dir="$(Scripts/dev/vm/kernel.sh "$arch")" || { fail "[$arch] no custom kernel (Scripts/dev/vm/kernel.sh $arch)"; continue; }
  deb="$(package_for "$arch")" || { fail "[$arch] no package (Scripts/release/package.sh)"; continue; }
  image_dir="$(Scripts/dev/vm/image.sh "$arch" "$deb" "$kernel_dir")" || { fail "[$arch] no image (Scripts/dev/vm/image.sh)"; continue; }
  vm_run "$arch" custom "$kernel_dir" "$image_dir"
  if [ "$arch" = amd64 ] && [ "$stock" -eq 1 ]; then vm_run amd64 stock "$kernel_dir" "$image_dir"; fi
done
if [ "$stock" -eq 1 ] && [[ " ${arches[*]} " != *" amd64 "* ]]; then say "the stock kernel runs with --arch amd64 or all"; fi

for line in "${timings[@]}"; do say "boot: $line"; done
say "the whole check: $((SECONDS - started)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
