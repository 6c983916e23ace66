#!/usr/bin/env bash
# Builds the VM check's guest kernel from Debian 13's linux-source-6.12 with the fragments beside
# this script, in a Debian 13 builder root (the host may be older), and prints its folder.
#
#   Scripts/dev/vm/kernel.sh amd64      bzImage, config and modules/ (for i2c-stub)
#   Scripts/dev/vm/kernel.sh arm64      Image, cross-compiled with Debian's gcc-aarch64-linux-gnu
#   Scripts/dev/vm/kernel.sh --builder  only the builder root (the one part that runs apt), so that
#                                       the kernels can then build beside other work (.ci/run)
#
# The result is cached under $CROWNPAGER_CACHE (default /var/cache/crownpager) as
# vm-kernel-ARCH-KEY, KEY a hash of the fragments and the source package's version: an edited
# fragment or a new linux-source builds afresh. Niced, -j2. Needs root. Runs at once wait for each
# other: the builder root under one lock, each architecture's build under its own (a second caller
# waits, then finds the kernel made).
set -euo pipefail
case "${1:-}" in
  -h|--help|"") awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  amd64|arm64|--builder) arch=$1 ;;
  *) echo "vm-kernel: unknown architecture '$1' (amd64, arm64, or --builder)" >&2; exit 2 ;;
esac
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../debian-root.sh"
debian_root_who=vm-kernel
trap debian_root_leave_all EXIT
mkdir -p "$CROWNPAGER_CACHE"

# The builder: a copy of the cached minimal Debian 13 root with the kernel's source and tools.
builder="$CROWNPAGER_CACHE/vm-kbuild-trixie-amd64"
exec 8>"$builder.lock"
flock 8
if [ ! -f "$builder/.complete" ]; then
  base="$(debian_root_base trixie amd64)"
  debian_root_say "making the kernel builder root $builder"
  debian_root_copy "$base" "$builder"
  debian_root_enter "$builder"
  debian_root_run "$builder" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends linux-source-6.12 make gcc libc6-dev flex bison bc libelf-dev libssl-dev dwarves \
    cpio kmod xz-utils gcc-aarch64-linux-gnu >/dev/null'
  debian_root_leave "$builder"
  touch "$builder/.complete"
fi
exec 8>&-
if [ "$arch" = --builder ]; then printf '%s\n' "$builder"; exit 0; fi

version="$(chroot "$builder" dpkg-query -W -f '${Version}' linux-source-6.12)"
key="$(cat "$here/kernel.fragment" "$here/kernel-$arch.fragment" <(echo "$version") | sha256sum | cut -c1-12)"
out="$CROWNPAGER_CACHE/vm-kernel-$arch-$key"
exec 9>"$CROWNPAGER_CACHE/vm-kernel-$arch.lock"
flock 9
if [ -f "$out/.complete" ]; then printf '%s\n' "$out"; exit 0; fi

case "$arch" in
  amd64) make_args="ARCH=x86_64" image=arch/x86/boot/bzImage target=bzImage ;;
  arm64) make_args="ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-" image=arch/arm64/boot/Image target=Image ;;
esac
started=$SECONDS
debian_root_say "building linux-source-6.12 $version for $arch (key $key)"
rm -rf "$builder/build/$arch" "$builder/build/$arch-fragments" && mkdir -p "$builder/build/$arch" "$builder/build/$arch-fragments"
cp "$here/kernel.fragment" "$here/kernel-$arch.fragment" "$builder/build/$arch-fragments/"
# shellcheck disable=SC2016
debian_root_run "$builder" bash -c '
  set -euo pipefail
  arch=$1 target=$2; shift 2
  cd /build/$arch
  tar xaf /usr/src/linux-source-6.12.tar.xz --strip-components=1
  make "$@" tinyconfig >/dev/null
  env "$@" scripts/kconfig/merge_config.sh -m .config kernel/configs/kvm_guest.config \
    /build/$arch-fragments/kernel.fragment /build/$arch-fragments/kernel-$arch.fragment >/dev/null
  make "$@" olddefconfig >/dev/null
  # A line the configuration dropped (a dependency missing) would boot a kernel without it: say so.
  lost=$(grep -hE "^CONFIG_[A-Z0-9_]+=[ym]$" /build/$arch-fragments/kernel.fragment /build/$arch-fragments/kernel-$arch.fragment \
    | grep -vxFf .config || true)
  if [ -n "$lost" ]; then echo "vm-kernel: olddefconfig dropped these fragment lines:" >&2; echo "$lost" >&2; exit 1; fi
  nice -n 5 make "$@" -j2 "$target" modules >build.log 2>&1 || { tail -n 30 build.log >&2; exit 1; }
  rm -rf /build/$arch-modules
  make "$@" modules_install INSTALL_MOD_PATH=/build/$arch-modules >/dev/null
' bash "$arch" "$target" $make_args
rm -rf "$out.tmp" && mkdir -p "$out.tmp"
cp "$builder/build/$arch/$image" "$builder/build/$arch/.config" "$out.tmp/"
mv "$out.tmp/.config" "$out.tmp/config"
cp -a "$builder/build/$arch-modules/lib/modules" "$out.tmp/modules"
touch "$out.tmp/.complete"
rm -rf "$out" && mv "$out.tmp" "$out"
# The build tree (a gigabyte or two) is not kept: a changed fragment builds from a fresh source tree.
rm -rf "$builder/build/$arch" "$builder/build/$arch-modules" "$builder/build/$arch-fragments"
debian_root_say "built the $arch kernel in $((SECONDS - started)) s: $out"
printf '%s\n' "$out"
