#!/usr/bin/env bash
# Makes the VM check's Debian 13 disk image for an architecture and prints its folder: the cached
# minimal root, systemd, udev, the tools the guest's scenarios use (i2c-tools, gpiod, python3-evdev),
# the crownpager package installed with apt, the custom kernel's modules, and the two units that
# run the check's script from the run's disk. On amd64 also Debian's stock kernel and its initrd.
#
#   Scripts/dev/vm/image.sh ARCH DEB KERNELDIR      ARCH amd64 or arm64, DEB the package for it,
#                                                   KERNELDIR what Scripts/dev/vm/kernel.sh printed
#   Scripts/dev/vm/image.sh ARCH --base             only the cached root of the guest's Debian packages
#
# The folder holds root.img (ext4, made with mkfs.ext4 -d: no loop mounts) and, on amd64, vmlinuz
# and initrd.img of the stock kernel. Cached under $CROWNPAGER_CACHE as vm-image-ARCH-KEY, KEY a
# hash of the package, the kernel, this script and the units; older images of ARCH are removed.
set -euo pipefail
case "${1:-}" in -h|--help|"") awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
arch=$1
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../debian-root.sh"
debian_root_who=vm-image
trap debian_root_leave_all EXIT

# The guest's Debian packages, in a root of their own (vm-base-trixie-ARCH): a new crownpager
# package reuses it. On amd64 Debian's stock kernel too (its initrd loads i2c-stub and uinput).
packages="systemd systemd-sysv udev kmod i2c-tools gpiod python3-evdev procps psmisc"
[ "$arch" = amd64 ] && packages+=" linux-image-amd64 initramfs-tools"
vm_base="$CROWNPAGER_CACHE/vm-base-trixie-$arch"
if [ ! -f "$vm_base/.complete" ] || [ "$(cat "$vm_base/.complete")" != "$packages" ]; then
  base="$(debian_root_base trixie "$arch")"
  debian_root_say "making $vm_base: $packages"
  debian_root_copy "$base" "$vm_base"
  debian_root_enter "$vm_base"
  debian_root_run "$vm_base" bash -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends $packages >/root/apt.log 2>&1" || { tail -n 20 "$vm_base/root/apt.log" >&2; exit 1; }
  debian_root_leave "$vm_base"
  echo "$packages" >"$vm_base/.complete"
fi
[ "${2:-}" = --base ] && exit 0

deb="$(realpath "$2")" kernel="$(realpath "$3")"
[ -f "$deb" ] || { debian_root_say "no package at $deb"; exit 66; }
[ -f "$kernel/.complete" ] || { debian_root_say "no built kernel at $kernel"; exit 66; }
key="$( { sha256sum "$deb" | cut -d' ' -f1; basename "$kernel"; cat "$0" "$here"/vmcheck-*.service; } | sha256sum | cut -c1-12)"
out="$CROWNPAGER_CACHE/vm-image-$arch-$key"
if [ -f "$out/.complete" ]; then printf '%s\n' "$out"; exit 0; fi
started=$SECONDS
root="$CROWNPAGER_CACHE/vm-root-$arch"
debian_root_copy "$vm_base" "$root"
debian_root_enter "$root"
debian_root_say "making the $arch image (key $key)"

# The package, as an owner installs it. The one place that says where it comes from: the
# signed repository of Scripts/release/apt-repo.sh takes this function's place.
# As a fleet's Pi does: from a signed repository (Scripts/release/apt-repo.sh, a test key kept in
# the cache), on a file share at /srv/crownpager, its key in /usr/share/keyrings (signed-by=).
install_package() {
  local repo="$root/srv/crownpager" keys="$CROWNPAGER_CACHE/vm-repo-key"
  mkdir -p "$keys" && chmod 700 "$keys"
  Scripts/release/apt-repo.sh --out "$repo" --key-dir "$keys" --url file:/srv/crownpager "$deb" >"$root/root/sources.list" \
    || return 1
  install -D -m 0644 "$repo/crownpager-archive-keyring.gpg" "$root/usr/share/keyrings/crownpager-archive-keyring.gpg"
  tail -n 1 "$root/root/sources.list" >"$root/etc/apt/sources.list.d/crownpager.list"
  # Only this repository is read (the guests have no network); the Debian lists stay.
  debian_root_run "$root" bash -c "apt-get update -qq -o Dir::Etc::sourcelist=sources.list.d/crownpager.list \
    -o Dir::Etc::sourceparts=- -o APT::Get::List-Cleanup=0 >/root/apt.log 2>&1 \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq crownpager >>/root/apt.log 2>&1 \
    && apt-cache policy crownpager | grep -q 'file:/srv/crownpager'" \
    || { tail -n 20 "$root/root/apt.log" >&2; return 1; }
  rm -f "$root/root/sources.list"
}
install_package

# The custom kernel's modules (i2c-stub), and the units that run the check.
release="$(ls "$kernel/modules")"
rm -rf "$root/usr/lib/modules/$release"
mkdir -p "$root/usr/lib/modules"
cp -a "$kernel/modules/$release" "$root/usr/lib/modules/"
debian_root_run "$root" depmod -a "$release"
install -m 0644 "$here"/vmcheck-*.service "$root/etc/systemd/system/"
debian_root_run "$root" systemctl enable vmcheck-setup.service vmcheck-run.service >/dev/null 2>&1
mkdir -p "$root/vmcheck"
printf '/dev/vda / ext4 defaults 0 1\n/dev/vdb /vmcheck ext4 defaults,nofail,x-systemd.device-timeout=120s 0 2\n' >"$root/etc/fstab"
echo vmcheck >"$root/etc/hostname"
# Nobody logs in: no getty on the console, whose output is the host's log.
debian_root_run "$root" systemctl mask serial-getty@.service getty@.service getty-static.service >/dev/null 2>&1
debian_root_leave "$root"

rm -rf "$out.tmp" && mkdir -p "$out.tmp"
if [ "$arch" = amd64 ]; then
  cp "$(ls "$root"/boot/vmlinuz-* | sort -V | tail -n 1)" "$out.tmp/vmlinuz"
  cp "$(ls "$root"/boot/initrd.img-* | sort -V | tail -n 1)" "$out.tmp/initrd.img"
fi
rm -f "$root/root/apt.log" "$root/etc/resolv.conf"
mkfs.ext4 -q -F -L vmroot -d "$root" "$out.tmp/root.img" 3G >&2
rm -rf "$root"
touch "$out.tmp/.complete"
mv "$out.tmp" "$out"
for old in "$CROWNPAGER_CACHE"/vm-image-"$arch"-*; do [ "$old" = "$out" ] || rm -rf "$old"; done
debian_root_say "made the $arch image in $((SECONDS - started)) s: $out"
printf '%s\n' "$out"
