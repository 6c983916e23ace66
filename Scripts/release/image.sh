#!/usr/bin/env bash
# Builds the Raspberry Pi card image crownpager_<version>_raspi-arm64.img.xz (with its .sha256, a
# .bmap for bmaptool, and an os_list JSON for Raspberry Pi Imager) from Debian 13 packages and the
# project's own arm64 .deb: mmdebstrap makes the root, raspi-firmware's kernel hook fills the boot
# partition, genimage writes the card (MBR: FAT32 boot + ext4 root), all from Debian 13's own tools
# in a cached trixie root. Needs root (debootstrap, chroot) on an x86-64 Debian or Ubuntu machine.
#
#   sudo Scripts/release/image.sh                  the image in out/, from out/crownpager_<version>_arm64.deb
#                                                  (built with package.sh --arch arm64 if missing)
#   --deb FILE           the arm64 package to put on the card
#   --out DIR            where the image and its companions go (default: out/)
#   --apt-repo URL --key FILE   make the card trust the project's signed apt repository
#                        (Scripts/release/apt-repo.sh): apt upgrade then updates the pager
#   --url URL            where the image will be published, for the Imager list (default: the file name;
#                        the icon, crownpager-icon.png, is expected beside it)
#   --tools              only make the tool root (Debian 13: mmdebstrap, genimage, bmap-tools, mtools,
#                        QEMU 10 for Scripts/release/image-check.sh) and print its folder
#
# Cached under $CROWNPAGER_CACHE (default /var/cache/crownpager): the tool root (image-tools-trixie-amd64)
# and the arm64 base root (image-base-arm64-<key>.tar, ~13 min under qemu-user to make), keyed on
# the package list and the files of Hardware/image that go into it; a warm build only adds the .deb
# and packs the card. Prints the path of the .img.xz on its last line.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"
out="$repo/out"
deb=""
apt_repo=""
apt_key=""
url=""
tools_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --deb) deb="${2:?--deb needs a file}"; shift 2 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --apt-repo) apt_repo="${2:?--apt-repo needs a URL}"; shift 2 ;;
    --key) apt_key="${2:?--key needs a file}"; shift 2 ;;
    --url) url="${2:?--url needs a URL}"; shift 2 ;;
    --tools) tools_only=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "image: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
debian_root_who=image
. Scripts/dev/debian-root.sh
say() { debian_root_say "$@"; }
[ "$(id -u)" -eq 0 ] || { say "run as root: debootstrap and chroot need it (sudo Scripts/release/image.sh)"; exit 1; }
[ "$(dpkg --print-architecture)" = amd64 ] || { say "this script runs on an x86-64 (amd64) machine"; exit 2; }
{ [ -z "$apt_repo" ] && [ -z "$apt_key" ]; } || { [ -n "$apt_repo" ] && [ -f "$apt_key" ]; } \
  || { say "--apt-repo URL and --key FILE go together (the key: the repository's public key, from apt-repo.sh)"; exit 2; }
case "$apt_repo" in
  *[!A-Za-z0-9:/._~%+@-]*) say "--apt-repo '$apt_repo': a URL of letters, digits and :/._~%+@- only (it goes into an apt sources file)"; exit 2 ;;
esac
started=$SECONDS

# The tool root: Debian 13's mmdebstrap, genimage and QEMU (the host's may be older: Debian 12's
# QEMU 7.2 has no Pi I2C controller), kept in the cache; a changed list makes it again.
tool_packages=(mmdebstrap arch-test genimage mtools dosfstools e2fsprogs fdisk bmap-tools xz-utils
  qemu-user-static qemu-system-arm ca-certificates)
tools="$CROWNPAGER_CACHE/image-tools-trixie-amd64"
tools_ready() {
  local marker="$tools/.image-tools" wanted="${tool_packages[*]}" base
  [ -f "$marker" ] && [ "$(cat "$marker")" = "$wanted" ] && return 0
  base="$(debian_root_base trixie amd64)"
  debian_root_copy "$base" "$tools"
  debian_root_enter "$tools"
  say "installing the image tools in $tools: $wanted"
  debian_root_run "$tools" bash -c "apt-get update -qq && \
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $wanted >/dev/null"
  debian_root_leave "$tools"
  printf '%s' "$wanted" >"$marker"
}
trap debian_root_leave_all EXIT
Scripts/setup.sh --packaging >&2
debian_root_foreign_ready arm64
tools_ready
if [ "$tools_only" -eq 1 ]; then echo "$tools"; exit 0; fi
# This run's own view of the tool root and work folder (another run may share the cache).
debian_root_view "$tools" work
run="$debian_root_view_dir" w="$debian_root_view_work"
work="$run$w"
debian_root_enter "$run"

# The arm64 base root: Debian 13 with the Pi's boot firmware and kernel, Wi-Fi firmware, the
# network Imager's settings drive (cloud-init renders them through netplan to systemd-networkd and
# wpa_supplicant), ssh, time sync, growpart for the first boot, i2c-tools, and the libraries the
# package depends on. Made once per list (the slow part: maintainer scripts and mkinitramfs run under
# qemu-user), kept as a folder in the cache; the pager itself is added to a copy of it.
base_packages=(linux-image-arm64 raspi-firmware initramfs-tools zstd systemd-sysv udev kmod dbus
  firmware-brcm80211 wireless-regdb iproute2 netplan.io wpasupplicant systemd-resolved systemd-timesyncd
  openssh-server cloud-init cloud-guest-utils fdisk e2fsprogs sudo ca-certificates i2c-tools
  procps libi2c0 libgpiod3 libmosquitto1 passwd)
# Documentation and translations stay off the card (copyright files are kept).
base_dpkg_options=('path-exclude=/usr/share/man/*' 'path-exclude=/usr/share/locale/*'
  'path-include=/usr/share/locale/locale.alias' 'path-exclude=/usr/share/doc/*'
  'path-include=/usr/share/doc/*/copyright' 'path-exclude=/usr/share/info/*')
base_key="$(printf '%s\n' "${base_packages[*]}" "${base_dpkg_options[*]}" | sha256sum | cut -c1-16)"
base="$CROWNPAGER_CACHE/image-base-arm64-$base_key"
if [ ! -f "$base.complete" ]; then
  mirror="$(debian_root_host_mirror)"
  say "making the arm64 base root $base with mmdebstrap (about 15 minutes under qemu-user): ${base_packages[*]}"
  began=$SECONDS
  # Older bases (another package list) go: they are this script's alone.
  for old in "$CROWNPAGER_CACHE"/image-base-arm64-*; do [ -e "$old" ] && rm -rf "$old"; done
  mkdir -p "$base"
  debian_root_bind "$base" "$run/base"
  dpkg_options=()
  for option in "${base_dpkg_options[@]}"; do dpkg_options+=("--dpkgopt=$option"); done
  # One initrd, made once everything is configured: the kernel's hook would make one as the kernel is
  # configured and initramfs-tools' trigger a second at the end, each 2 min 18 s under qemu-user
  # (measured: update-initramfs in this root, at nice 19 beside a CI run). INITRD=No skips the
  # first (the switch of the kernel's hooks; the trigger then finds no initrd to update). The hook
  # below makes it (raspi-firmware's post-update hook copies it to /boot/firmware) and the
  # /initrd.img links that INITRD=No also left out, as the kernel's postinst would have.
  debian_root_run "$run" env INITRD=No mmdebstrap --mode=root --arch=arm64 --variant=minbase \
    --components=main,non-free-firmware --include="${base_packages[*]}" "${dpkg_options[@]}" \
    "--customize-hook=chroot \"\$1\" env -u INITRD sh -c 'for v in \$(linux-version list); do
      update-initramfs -c -k \"\$v\" && linux-update-symlinks install \"\$v\" \"/boot/vmlinuz-\$v\" || exit 1; done'" \
    --customize-hook='ls "$1"/initrd.img "$1"/boot/firmware/initrd.img-* >/dev/null' \
    trixie /base ${mirror:-http://deb.debian.org/debian} >&2
  umount "$run/base"
  touch "$base.complete"
  say "made the base root in $((SECONDS - began)) s ($(du -sh "$base" | cut -f1))"
fi

# The package: the one given, else this checkout's in the output folder, built if missing.
version="$(Scripts/release/package.sh --print-version)"
mkdir -p "$out" && out="$(cd "$out" && pwd)"
[ -n "$deb" ] || deb="$out/crownpager_${version}_arm64.deb"
if [ ! -f "$deb" ]; then
  say "no $deb: building it (Scripts/release/package.sh --arch arm64)"
  deb="$(Scripts/release/package.sh --arch arm64 --out "$out" | tail -n 1)"
fi
[ "$(dpkg-deb -f "$deb" Package Architecture | tr '\n' ' ')" = "Package: crownpager Architecture: arm64 " ] \
  || { say "$deb is not crownpager for arm64"; exit 1; }
version="$(dpkg-deb -f "$deb" Version)"
name="crownpager_${version}_raspi-arm64"

# The card's root: a copy of the base with the package installed (mmdebstrap's custom variant on
# top of the base, so apt and dpkg run with mmdebstrap's mounts and policy-rc.d), then the card's
# own files in customize hooks. The boot partition's configuration is the package's, with the
# card's first pages ahead of the built-in ones.
mkdir -p "$work/deb" "$work/files"
cp "$deb" "$work/deb/"
cp Hardware/image/* "$work/files/"
awk 'FNR == NR { first = first $0 "\n"; next } /^\[\[page\]\]/ && !done { printf "%s", first; done = 1 } { print }' \
  Hardware/image/first-pages.toml Hardware/crownpager.toml \
  | sed '1s|^# CrownPager configuration: .*|# CrownPager configuration: crownpager.toml on the card'"'"'s boot partition (/boot/firmware)|' \
  >"$work/files/crownpager.toml"
# apt reads an armoured key only from a file named .asc, a binary one from .gpg.
key_file=crownpager-archive-keyring.gpg
if [ -n "$apt_key" ]; then
  grep -q -- '-----BEGIN PGP PUBLIC KEY BLOCK-----' "$apt_key" && key_file=crownpager-archive-keyring.asc
  cp "$apt_key" "$work/files/$key_file"
fi
hooks=(
  # The user's apt sources (the build's mirror is not theirs), and the project's repository if given.
  'rm -f "$1/etc/apt/sources.list"; install -m 0644 /work/files/debian.sources "$1/etc/apt/sources.list.d/debian.sources"'
  'ln -sfn ../run/systemd/resolve/stub-resolv.conf "$1/etc/resolv.conf"'
  'install -m 0644 /work/files/fstab "$1/etc/fstab"; echo crownpager >"$1/etc/hostname"; printf "127.0.0.1\tlocalhost\n127.0.1.1\tcrownpager\n::1\tlocalhost ip6-localhost ip6-loopback\n" >"$1/etc/hosts"'
  'install -D -m 0644 /work/files/crownpager-card.conf "$1/etc/systemd/system/crownpager.service.d/card.conf"'
  'install -D -m 0644 /work/files/ssh-keygen.conf "$1/etc/systemd/system/ssh.service.d/host-keys.conf"'
  'install -D -m 0644 /work/files/cloud.cfg "$1/etc/cloud/cloud.cfg.d/99-crownpager.cfg"'
  'install -D -m 0644 /work/files/cloud-init-local.conf "$1/etc/systemd/system/cloud-init-local.service.d/boot-firmware.conf"'
  'install -D -m 0644 /work/files/wait-online.conf "$1/etc/systemd/system/systemd-networkd-wait-online.service.d/bounded.conf"'
  'install -m 0644 /work/files/cloud-init-once.service "$1/etc/systemd/system/crownpager-cloud-init-once.service"'
  # The boot partition: the configuration and cloud-init's seed beside the firmware; config.txt keeps
  # the I2C line across kernel updates through raspi-firmware-custom.
  'install -m 0644 /work/files/crownpager.toml /work/files/user-data /work/files/meta-data "$1/boot/firmware/"'
  # raspi-firmware's kernel hook wrote cmdline.txt with the build machine's root device: the card's
  # root is by label, its console the serial one and the screen; the hook writes both files again.
  'printf "ROOTPART=\"LABEL=RASPIROOT\"\nCONSOLES=\"tty0 ttyS1,115200\"\n" >>"$1/etc/default/raspi-firmware"'
  'install -m 0644 /work/files/config.txt "$1/etc/default/raspi-firmware-custom"'
  'chroot "$1" env DEB_MAINT_PARAMS=configure /etc/kernel/postinst.d/z50-raspi-firmware'
  'chroot "$1" systemctl enable systemd-networkd.service systemd-resolved.service systemd-timesyncd.service ssh.service crownpager-cloud-init-once.service'
  # Every card makes its own host keys and machine id (mmdebstrap empties /etc/machine-id).
  'rm -f "$1"/etc/ssh/ssh_host_*; rm -f "$1/var/lib/dbus/machine-id"; rm -rf "$1/deb" "$1/work/"'
)
if [ -n "$apt_repo" ]; then
  hooks+=("install -D -m 0644 $w/files/$key_file \"\$1/usr/share/keyrings/$key_file\"; printf 'Types: deb\nURIs: %s\nSuites: stable\nComponents: main\nSigned-By: /usr/share/keyrings/$key_file\n' '$apt_repo' >\"\$1/etc/apt/sources.list.d/crownpager.sources\"")
fi
hook_options=()
# The hooks name the work folder /work/: this run's is $w.
for hook in "${hooks[@]}"; do hook_options+=("--customize-hook=${hook//\/work\//$w/}"); done
debian_root_bind "$base" "$run/base"
mount -o remount,bind,ro "$run/base"
say "installing $(basename "$deb") on a copy of the base root"
began=$SECONDS
debian_root_run "$run" mmdebstrap --mode=root --arch=arm64 --variant=custom \
  --components=main,non-free-firmware --skip=check/empty \
  --setup-hook='cp -a /base/. "$1"' --hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
  --include="$w/deb/$(basename "$deb")" "${hook_options[@]}" \
  trixie "$w/root" "${mirror:-$(debian_root_host_mirror)}" >&2
say "root ready in $((SECONDS - began)) s"

# The card: genimage writes the FAT32 boot partition from /boot/firmware (mtools, no mounts) and
# the ext4 root from the rest (mke2fs -d), into an MBR image: the Pi's boot ROM reads the first
# FAT partition (type 0x0C, at 4 MiB); the root grows to fill the card on the first boot. The
# root's size is its content and a quarter more, so the written image stays small.
root_mib="$(du -sm --exclude=./boot/firmware "$work/root" | cut -f1)"
root_mib=$(((root_mib * 5 / 4 + 63) / 64 * 64))
cat >"$work/genimage.cfg" <<CFG
image boot.vfat {
  vfat {
    label = "RASPIFIRM"
    extraargs = "-F 32"
  }
  mountpoint = "/boot/firmware"
  size = 256M
}
image root.ext4 {
  ext4 {
    label = "RASPIROOT"
    use-mke2fs = true
  }
  size = ${root_mib}M
}
image $name.img {
  hdimage {
    partition-table-type = "mbr"
  }
  partition boot {
    partition-type = 0xC
    bootable = true
    offset = 4M
    image = "boot.vfat"
  }
  partition root {
    partition-type = 0x83
    image = "root.ext4"
  }
}
CFG
began=$SECONDS
debian_root_run "$run" genimage --config "$w/genimage.cfg" --rootpath "$w/root" --tmppath "$w/genimage-tmp" \
  --inputpath "$w" --outputpath "$w/images" >&2
say "card written in $((SECONDS - began)) s"
img="$work/images/$name.img"
installed_mib="$(du -sm "$work/root" | cut -f1)"
written_bytes="$(stat -c %s "$img")"
# The map lets bmaptool write only the blocks in use; xz -3 (CROWNPAGER_XZ_LEVEL), of about the size -6 gives at a third of its time.
debian_root_run "$run" bmaptool create -o "$w/images/$name.img.bmap" "$w/images/$name.img" >&2
extract_sha="$(sha256sum "$img" | cut -d' ' -f1)"
began=$SECONDS
xz -T0 -"${CROWNPAGER_XZ_LEVEL:-3}" -f "$img"
say "compressed in $((SECONDS - began)) s"
xz_bytes="$(stat -c %s "$img.xz")"
mv -f "$img.xz" "$work/images/$name.img.bmap" "$out/"
(cd "$out" && sha256sum "$name.img.xz" >"$name.img.xz.sha256")

# Raspberry Pi Imager's repository list (its os_list JSON): added as a custom repository, it offers
# this image in a menu; init_format "cloudinit" makes Imager write its settings as cloud-init files.
# The icon: the clock page as the pager draws it, beside the image (Imager loads it from the list's URL).
cp Hardware/pictures/clock-128x64.png "$out/crownpager-icon.png"
case "$url" in */*) icon="${url%/*}/crownpager-icon.png" ;; *) icon=crownpager-icon.png ;; esac
cat >"$out/${name}.os_list.json" <<JSON
{
  "os_list": [
    {
      "name": "CrownPager $version",
      "description": "Debian 13 that boots into CrownPager: pages on an SSD1306 OLED turned by a rotary encoder. Edit crownpager.toml on the card's boot partition.",
      "icon": "$icon",
      "url": "${url:-$name.img.xz}",
      "release_date": "$(date -u +%Y-%m-%d)",
      "extract_size": $written_bytes,
      "extract_sha256": "$extract_sha",
      "image_download_size": $xz_bytes,
      "image_download_sha256": "$(cut -d' ' -f1 "$out/$name.img.xz.sha256")",
      "init_format": "cloudinit",
      "devices": ["pi3-64bit", "pi4-64bit"]
    }
  ]
}
JSON
say "$name.img.xz: $((xz_bytes / 1048576)) MiB compressed, $((written_bytes / 1048576)) MiB written, $installed_mib MiB installed; in $((SECONDS - started)) s"
echo "$out/$name.img.xz"
