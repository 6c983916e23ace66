#!/usr/bin/env bash
# Proves the Debian packages in fresh Debian 13 roots (needs root):
#  1. amd64: publish the packages in a signed apt repository (Scripts/release/apt-repo.sh, a key
#     made for the check) and install from it with signed-by; check the user, groups, unit,
#     conffile and the program; edit the configuration and add a file of one's own; publish the
#     next version and `apt-get upgrade` (the edit and the file stay, a new program, the service
#     restarted); a repository signed by another key is refused; remove (the configuration stays);
#     purge (the conffile goes, the owner's file stays).
#  2. arm64, under qemu-user: install from the same repository, `crownpager --version`, and
#     `render` of the default configuration, whose PBM frames and I2C trace must be byte-identical
#     to the amd64 build's.
#
#   sudo Scripts/release/package-check.sh AMD64_DEB [ARM64_DEB]      without ARM64_DEB only part 1 runs
#
# Both roots start as copies of cached minimal roots ($CROWNPAGER_CACHE, Scripts/dev/debian-root.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  "" | -*) echo "package-check: usage: Scripts/release/package-check.sh AMD64_DEB [ARM64_DEB] (try --help)" >&2; exit 2 ;;
esac
amd64_deb="$(realpath "$1")"
arm64_deb="${2:+$(realpath "$2")}"
debian_root_who=package-check
. Scripts/dev/debian-root.sh
say() { debian_root_say "$@"; }
[ "$(id -u)" -eq 0 ] || { say "run as root: debootstrap and chroot need it"; exit 1; }
fail() { say "FAILED: $*"; exit 1; }
# The repository's tools (Scripts/setup.sh --packaging installs them too).
debian_root_need apt-ftparchive apt-utils || fail "apt-ftparchive is missing and apt-utils did not install"
debian_root_need gpg gnupg || fail "gpg is missing and gnupg did not install"
work="$(mktemp -d)"
trap 'debian_root_leave_all; rm -rf "$work" "$CROWNPAGER_CACHE/check-amd64" "$CROWNPAGER_CACHE/check-arm64"' EXIT
# The render both architectures must agree on: the default configuration, a few turns, a press.
render=(render --out /tmp/frames --crown "+1,+1,-1,press,+2" --frozen --no-png --trace /tmp/frames/trace.txt)
in_root() { local dir=$1; shift; debian_root_run "$dir" bash -c "$*"; }
apt_options="-y -qq -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold"
# What apt offers of crownpager in a root, read whole before it is searched: a `grep -q` that
# closed the pipe early would fail the pipeline under pipefail.
policy() { in_root "$1" "apt-cache policy crownpager"; }
# The amd64 build under another version, into OUT (the program's version is stamped in the control
# file only, so only the version differs); further options go to dpkg-deb --build.
repack() {
  local version=$1 out=$2 tree
  shift 2
  tree="$(mktemp -d -p "$work")"
  dpkg-deb -R "$amd64_deb" "$tree"
  sed -i "s/^Version: .*\$/Version: $version/" "$tree/DEBIAN/control"
  dpkg-deb --root-owner-group "$@" --build "$tree" "$out" >/dev/null
}

# No Swift on the target: the runtime is inside the program.
for deb in "$amd64_deb" ${arm64_deb:+"$arm64_deb"}; do
  depends="$(dpkg-deb -f "$deb" Depends)"
  say "$(basename "$deb") depends on: $depends"
  if grep -qi swift <<<"$depends"; then fail "$(basename "$deb") depends on Swift"; fi
done

# The fleet's road: both packages in a signed apt repository (Scripts/release/apt-repo.sh, a key
# made for the check), which each root sees on a file share at /srv/crownpager, with the keyring
# and a signed-by sources line.
repo="$work/repo"
sources_line="$(Scripts/release/apt-repo.sh --out "$repo" --key-dir "$work/key" --url file:/srv/crownpager "$amd64_deb" ${arm64_deb:+"$arm64_deb"} | tail -n 1)"
use_repository() {
  local dir=$1
  debian_root_bind "$repo" "$dir/srv/crownpager"
  # Modes stated: apt verifies as its user _apt, which a keyring made under umask 077 would shut out.
  install -m 0644 "$repo/crownpager-archive-keyring.gpg" "$dir/usr/share/keyrings/"
  echo "$sources_line" >"$dir/etc/apt/sources.list.d/crownpager.list"
  chmod 0644 "$dir/etc/apt/sources.list.d/crownpager.list"
}

# 1. amd64: install, upgrade, remove, purge.
root="$CROWNPAGER_CACHE/check-amd64"
debian_root_copy "$(debian_root_base trixie amd64)" "$root"
debian_root_enter "$root"
# No systemd runs in a root: a stand-in systemctl records what the maintainer scripts ask of it
# (through the real deb-systemd-invoke), and /run/systemd/system says systemd is there. Its
# modprobe keeps the postinst off the host's kernel. The VM check shows the real restart.
mkdir -p "$root/run/systemd/system"
cat >"$root/usr/local/sbin/systemctl" <<'EOF_SYSTEMCTL'
#!/bin/sh
echo "$*" >>/var/log/systemctl-calls
case " $* " in *" is-enabled "*)
  if [ -e /etc/systemd/system/multi-user.target.wants/crownpager.service ]; then echo enabled; else echo disabled; exit 1; fi ;;
esac
exit 0
EOF_SYSTEMCTL
printf '#!/bin/sh\necho "modprobe $*" >>/var/log/systemctl-calls\n' >"$root/usr/local/sbin/modprobe"
chmod 0755 "$root/usr/local/sbin/systemctl" "$root/usr/local/sbin/modprobe"
# apt gives dpkg a PATH of its own (DPkg::Path), without /usr/local.
echo 'DPkg::Path "/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin";' >"$root/etc/apt/apt.conf.d/99stand-ins"
asked_systemd() {
  grep -qx -- "$1" "$root/var/log/systemctl-calls" 2>/dev/null && return 0
  say "systemctl was not asked '$1' but: $(tr '\n' ';' <"$root/var/log/systemctl-calls" 2>/dev/null)"
  return 1
}

use_repository "$root"
say "amd64: apt install crownpager from $sources_line"
in_root "$root" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install $apt_options --no-install-recommends crownpager >/dev/null"
grep -q "file:/srv/crownpager stable/main amd64" <<<"$(policy "$root")" || fail "crownpager did not come from the repository"
in_root "$root" "crownpager --version" | sed 's/^/  | /'
in_root "$root" "getent passwd crownpager >/dev/null" || fail "no crownpager user"
for group in i2c gpio input spi; do
  in_root "$root" "id -nG crownpager | tr ' ' '\n' | grep -qx $group" || fail "crownpager is not in group $group"
done
[ -L "$root/etc/systemd/system/multi-user.target.wants/crownpager.service" ] || fail "the service is not enabled"
asked_systemd "--quiet --system start crownpager.service" || fail "the install did not start the service"
in_root "$root" "crownpager check /etc/crownpager/crownpager.toml >/dev/null" || fail "the installed configuration does not check"
in_root "$root" "crownpager ${render[*]} >/dev/null" || fail "render fails on amd64"
cp -a "$root/tmp/frames" "$work/frames-amd64"
in_root "$root" "man -w crownpager >/dev/null 2>&1 || test -f /usr/share/man/man1/crownpager.1.gz" || fail "no man page"
echo '# edited by the owner' >>"$root/etc/crownpager/crownpager.toml"
echo 'P1 1 1 1' >"$root/etc/crownpager/logo.pbm"
edited="$(md5sum <"$root/etc/crownpager/crownpager.toml")"

# The next version, published to the same repository: the same build under a higher version.
version="$(dpkg-deb -f "$amd64_deb" Version)+check1"
mkdir "$work/upgrade"
repack "$version" "$work/upgrade/crownpager_${version}_amd64.deb"
Scripts/release/apt-repo.sh --out "$repo" --key-dir "$work/key" --url file:/srv/crownpager "$work/upgrade/crownpager_${version}_amd64.deb" >/dev/null
# Another file under a published name is refused, and the repository stays as it was: a Pi that
# read the index would fail on the file's hash.
repack "$version" "$work/upgrade/same-name.deb" -Zgzip
cp -a "$repo" "$work/upgrade/repo-before"
if Scripts/release/apt-repo.sh --out "$repo" --key-dir "$work/key" "$work/upgrade/same-name.deb" 2>"$work/upgrade/same-name.log"; then
  fail "apt-repo.sh published another file as crownpager_${version}_amd64.deb"
fi
grep -q "exists with other contents" "$work/upgrade/same-name.log" || { cat "$work/upgrade/same-name.log" >&2; fail "apt-repo.sh refused the file without saying why"; }
diff -r "$work/upgrade/repo-before" "$repo" >/dev/null || fail "a refused package changed the repository"

# The upgrade, over a running pager: the pager runs by hand, in the terminal mock on a
# pseudo-terminal (script(1)), as the old program.
say "amd64: apt-get update && apt-get upgrade to $version over a running pager"
in_root "$root" "sleep 600 | script -qfc 'crownpager run --mock' /dev/null >/dev/null 2>&1 &"
pager=""
for _ in $(seq 1 50); do pager="$(pgrep -f "^crownpager run --mock" | head -n 1)" && [ -n "$pager" ] && break; sleep 0.1; done
[ -n "$pager" ] || fail "the pager did not start before the upgrade"
old_inode="$(stat -c %i "$root/usr/bin/crownpager")"
rm -f "$root/var/log/systemctl-calls"
in_root "$root" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get upgrade $apt_options >/dev/null"
[ "$(in_root "$root" "dpkg-query -W -f '\${Version}' crownpager")" = "$version" ] || fail "apt-get upgrade did not install $version"
grep -q "^ *$(dpkg-deb -f "$amd64_deb" Version) " <<<"$(policy "$root")" || fail "the repository dropped the older version"
[ "$(md5sum <"$root/etc/crownpager/crownpager.toml")" = "$edited" ] || fail "the upgrade changed the edited configuration"
[ -f "$root/etc/crownpager/logo.pbm" ] || fail "the upgrade removed the owner's file"
[ "$(stat -c %i "$root/usr/bin/crownpager")" != "$old_inode" ] || fail "the upgrade did not put a new program in place"
asked_systemd "--quiet --system restart crownpager.service" || fail "the upgrade did not restart the service"
kill -0 "$pager" || fail "the running pager died in the upgrade"
readlink "/proc/$pager/exe" | grep -q '(deleted)' || fail "the running pager's program was not replaced by a new file"
kill -TERM "$pager"
for _ in $(seq 1 50); do kill -0 "$pager" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pager" 2>/dev/null && fail "the old pager did not stop on SIGTERM after the upgrade"
pkill -f "^sleep 600" || say "the helper sleep had gone already"

# A repository signed by another key, named with the fleet's keyring: apt must refuse it, and the
# higher version it offers must not become installable.
say "amd64: a repository signed by another key is refused"
mkdir "$work/foreign"
repack "$version+foreign" "$work/foreign/crownpager.deb"
Scripts/release/apt-repo.sh --out "$work/foreign/repo" --key-dir "$work/foreign/key" "$work/foreign/crownpager.deb" >/dev/null
debian_root_bind "$work/foreign/repo" "$root/srv/foreign"
sed 's|file:/srv/crownpager|file:/srv/foreign|' <<<"$sources_line" >"$root/etc/apt/sources.list.d/foreign.list"
if in_root "$root" "apt-get update" >"$work/foreign/update.log" 2>&1; then
  cat "$work/foreign/update.log" >&2; fail "apt-get update accepted a repository signed by another key"
fi
grep -E "NO_PUBKEY|Missing key|is not signed" "$work/foreign/update.log" | sed 's/^/  | /' | head -n 3 >&2
grep -q "file:/srv/foreign stable InRelease.*is not signed" "$work/foreign/update.log" || { cat "$work/foreign/update.log" >&2; fail "apt did not say the foreign repository is not signed"; }
grep -q -- "+foreign" <<<"$(policy "$root")" && fail "apt offers the version of the foreign repository"
rm "$root/etc/apt/sources.list.d/foreign.list"

say "amd64: remove, then purge"
in_root "$root" "DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq crownpager >/dev/null"
[ ! -e "$root/usr/bin/crownpager" ] || fail "remove left the program"
asked_systemd "stop crownpager.service" || fail "remove did not stop the service"
[ "$(md5sum <"$root/etc/crownpager/crownpager.toml")" = "$edited" ] || fail "remove touched the configuration"
in_root "$root" "DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq crownpager >/dev/null"
[ ! -e "$root/etc/crownpager/crownpager.toml" ] || fail "purge left the configuration"
[ -f "$root/etc/crownpager/logo.pbm" ] || fail "purge removed a file the package never installed"
[ ! -e "$root/etc/systemd/system/multi-user.target.wants/crownpager.service" ] || fail "purge left the service enabled"
debian_root_leave "$root"
say "amd64: install from a signed repository, upgrade through it, refusal of another key, remove and purge passed"

[ -n "$arm64_deb" ] || exit 0

# 2. arm64 under qemu: install from the repository, --version, the same render.
root="$CROWNPAGER_CACHE/check-arm64"
debian_root_copy "$(debian_root_base trixie arm64)" "$root"
debian_root_enter "$root"
use_repository "$root"
say "arm64: apt install crownpager from the repository (under qemu)"
in_root "$root" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install $apt_options --no-install-recommends crownpager >/dev/null"
grep -q "file:/srv/crownpager stable/main arm64" <<<"$(policy "$root")" || fail "the arm64 package did not come from the repository"
in_root "$root" "crownpager --version" | sed 's/^/  | /'
in_root "$root" "crownpager --version | grep -q 'for aarch64'" || fail "the arm64 program does not say aarch64"
in_root "$root" "crownpager ${render[*]} >/dev/null" || fail "render fails on arm64"
cp -a "$root/tmp/frames" "$work/frames-arm64"
debian_root_leave "$root"
diff -r "$work/frames-amd64" "$work/frames-arm64" >"$work/diff" || { head -n 40 "$work/diff" >&2; fail "arm64 and amd64 render differently"; }
say "arm64: installed and rendered $(find "$work/frames-arm64" -name '*.pbm' | wc -l) frames and a $(wc -l <"$work/frames-arm64/trace.txt")-line trace, byte-identical to amd64"
