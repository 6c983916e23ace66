#!/usr/bin/env bash
# Cross-building crownpager for arm64 on an x86-64 machine, with Debian 13's own toolchain: its
# amd64 swiftlang (which has the AArch64 backend and ld.lld) in a trixie root, and a sysroot
# unpacked (dpkg -x, not installed) from Debian 13's arm64 packages of the same Swift version.
#
#   sudo Scripts/release/cross-root.sh prepare arm64    makes the builder root if missing (cached in
#                                               $CROWNPAGER_CACHE/builder-trixie-amd64); prints it
#   Scripts/release/cross-root.sh build arm64           inside that root, in a copy of the sources:
#                                               the release binary and its docs in .build-cross-arm64/
#
# Scripts/release/package.sh --arch arm64 does both. The traps met on the way (in order of the flags
# below): --sdk alone does not reach swiftc; the resource dir must be swift_static with a static
# stdlib; lld by -use-ld (a toolset's linker path is read relative to the bundle); C targets need
# -fPIC when cross-building. libgpiod is not needed: the program loads it at run time.
set -euo pipefail
cd "$(dirname "$0")/../.."
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  prepare | build) ;;
  *) echo "cross-root: usage: Scripts/release/cross-root.sh prepare|build arm64 (try --help)" >&2; exit 2 ;;
esac
action=$1
arch="${2:-arm64}"
[ "$arch" = arm64 ] || { echo "cross-root: only arm64 is set up, not '$arch'" >&2; exit 2; }
triple=aarch64-unknown-linux-gnu
multiarch=aarch64-linux-gnu
sysroot="/sysroot-$arch"
# What the builder root installs, and the target's packages unpacked into the sysroot.
builder_packages=(swiftlang libc6-dev libstdc++-14-dev git ca-certificates libi2c-dev libmosquitto-dev
  binutils-aarch64-linux-gnu qemu-user-static file)
sysroot_packages=(libc6 libc6-dev libcrypt1 libcrypt-dev libgcc-s1 libgcc-14-dev libstdc++6 libstdc++-14-dev
  libatomic1 libswiftlang swiftlang libi2c-dev libi2c0 libmosquitto-dev libmosquitto1 libcjson1 libssl3t64 zlib1g libzstd1
  libasan8 libtsan2 liblsan0 libubsan1 libhwasan0 libitm1 libgomp1)

if [ "$action" = prepare ]; then
  debian_root_who=cross-root
  . Scripts/dev/debian-root.sh
  [ "$(id -u)" -eq 0 ] || { debian_root_say "run as root: debootstrap and chroot need it"; exit 1; }
  builder="$CROWNPAGER_CACHE/builder-trixie-amd64"
  marker="$builder/.builder-$arch"
  # The marker holds what was asked for: a changed list makes the root again.
  wanted="${builder_packages[*]} | ${sysroot_packages[*]}"
  if [ -f "$marker" ] && [ "$(cat "$marker")" = "$wanted" ]; then echo "$builder"; exit 0; fi
  base="$(debian_root_base trixie amd64)"
  started=$SECONDS
  debian_root_copy "$base" "$builder"
  trap debian_root_leave_all EXIT
  debian_root_enter "$builder"
  debian_root_say "installing the toolchain in $builder: ${builder_packages[*]}"
  debian_root_run "$builder" bash -c "dpkg --add-architecture $arch && apt-get update -qq && \
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${builder_packages[*]} >/dev/null"
  debian_root_say "unpacking the $arch sysroot: ${sysroot_packages[*]} linux-libc-dev"
  # linux-libc-dev is Architecture: all in trixie: asked for without :arm64.
  debian_root_run "$builder" bash -c "mkdir -p /tmp/sysroot-debs && cd /tmp/sysroot-debs && \
    apt-get download -qq -o APT::Sandbox::User=root $(printf '%s:'"$arch"' ' "${sysroot_packages[@]}") linux-libc-dev && \
    rm -rf $sysroot && mkdir -p $sysroot && for deb in *.deb; do dpkg -x \"\$deb\" $sysroot; done && \
    ln -sfn usr/lib $sysroot/lib && ln -sfn usr/bin $sysroot/bin && rm -rf /tmp/sysroot-debs"
  printf '%s' "$wanted" >"$marker"
  debian_root_say "builder root ready in $((SECONDS - started)) s"
  echo "$builder"
  exit 0
fi

# build: inside the builder root.
[ -d "$sysroot/usr/lib/$multiarch" ] || { echo "cross-root: no sysroot at $sysroot: run 'prepare' (outside) first" >&2; exit 1; }
Scripts/release/build-info.sh
out=".build-cross-$arch"
# The release link of the amd64 package too (Scripts/release/release-link.sh): this root's glibc is the
# sysroot's, Debian 13's.
. Scripts/release/release-link.sh
swift build -c release --product crownpager --static-swift-stdlib --scratch-path ".build-$arch" \
  --triple "$triple" --sdk "$sysroot" -Xswiftc -sdk -Xswiftc "$sysroot" \
  -Xswiftc -resource-dir -Xswiftc "$sysroot/usr/libexec/swift/lib/swift_static" \
  -Xswiftc -use-ld=lld -Xcc -fPIC "${release_link[@]}"
rm -rf "$out" && mkdir -p "$out"
"$multiarch-strip" --strip-unneeded -o "$out/crownpager" ".build-$arch/release/crownpager"
# The docs come from the target's binary, run under qemu-user; generate-manual runs on the host.
swift build --product generate-manual --scratch-path .build-host
QEMU_LD_PREFIX="$sysroot" Scripts/release/docs.sh "$out/crownpager" .build-host/debug/generate-manual "$out/docs"
file "$out/crownpager" 2>/dev/null | grep -q 'ARM aarch64' || { echo "cross-root: $out/crownpager is not an aarch64 executable" >&2; exit 1; }
echo "cross-root: $out/crownpager and its docs"
