#!/usr/bin/env bash
# Minimal Debian roots for the fresh-root check and the packaging scripts: made once with
# debootstrap (--variant=minbase), kept under $CROWNPAGER_CACHE (default /var/cache/crownpager),
# copied afresh for each use, entered with chroot. Needs root. Sourced, not run:
#
#   . Scripts/dev/debian-root.sh
#   debian_root_base trixie amd64             prints the folder of a pristine minbase root, made if missing
#   debian_root_enter DIR                     mounts /proc, /sys, /dev, resolv.conf, the apt cache and the
#                                             host's git configuration (with the local folders it points at)
#   debian_root_run DIR COMMAND...            runs COMMAND in DIR with a clean environment (cd /root)
#   debian_root_leave DIR                     unmounts all of it (also done by debian_root_leave_all)
#   debian_root_view DIR NAME                 this run's own view of a shared cached root, with a work folder
#                                             of its own: sets debian_root_view_dir (enter it instead of DIR)
#                                             and debian_root_view_work (/NAME.XXXXXX inside it)
#
# The mirror is the one this machine's apt sources use for Debian; no host is written down here.
# A foreign architecture (arm64 on x86-64) runs under qemu-user-static through binfmt_misc.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; fi
CROWNPAGER_CACHE="${CROWNPAGER_CACHE:-/var/cache/crownpager}"
debian_root_entered=()
debian_root_views=()

debian_root_say() { printf '%s: %s\n' "${debian_root_who:-root}" "$*" >&2; }

# The URI of the apt source on this machine that serves SUITE (not the security archive), or
# nothing. Scripts/release/libgpiod2.sh reads bookworm-backports' mirror with it too.
debian_root_mirror() {
  local suite=$1 files=() file mirror=""
  for file in /etc/apt/sources.list.d/*.sources; do [ -f "$file" ] && files+=("$file"); done
  if [ "${#files[@]}" -gt 0 ]; then
    mirror="$(awk -v suite="$suite" '
      /^[[:space:]]*$/ { if (uris != "" && found) { print uris; exit } uris = ""; found = 0; next }
      tolower($1) == "uris:" { uris = $2 }
      tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i == suite) found = 1 }
      END { if (uris != "" && found) print uris }
    ' "${files[@]}" | head -n 1)"
  fi
  if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
    mirror="$(awk -v suite="$suite" '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i ~ /:\/\//) { if ($(i + 1) == suite) { print $i; exit } } }' /etc/apt/sources.list)"
  fi
  printf '%s' "$mirror"
}

# The Debian archive this machine uses, for debootstrap: only on Debian (an Ubuntu mirror has no
# trixie); elsewhere nothing, and debootstrap uses its own default.
debian_root_host_mirror() {
  local ID="" VERSION_CODENAME=""
  [ -f /etc/os-release ] && . /etc/os-release
  [ "$ID" = debian ] && [ -n "$VERSION_CODENAME" ] && debian_root_mirror "$VERSION_CODENAME"
  return 0
}

# Makes sure a command is here, installing its Debian package if not.
debian_root_need() {
  local command=$1 package=$2
  command -v "$command" >/dev/null 2>&1 && return 0
  debian_root_say "installing $package (for $command)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package" >/dev/null
}

# binfmt_misc mounted and qemu-aarch64 registered, so an arm64 root runs here.
debian_root_foreign_ready() {
  local arch=$1
  [ "$arch" = "$(dpkg --print-architecture)" ] && return 0
  [ "$arch" = arm64 ] || { debian_root_say "only arm64 is set up as a foreign architecture, not $arch"; return 1; }
  debian_root_need qemu-aarch64-static qemu-user-static || return 1
  debian_root_need update-binfmts binfmt-support || return 1
  if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
      || { debian_root_say "cannot mount binfmt_misc: arm64 programs cannot run on this machine"; return 1; }
  fi
  [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64 >/dev/null \
    || { debian_root_say "cannot register qemu-aarch64 with binfmt_misc"; return 1; }
}

# Prints the folder of a pristine minimal root of SUITE for ARCH, made with debootstrap if missing.
debian_root_base() {
  local suite=$1 arch=$2 dir mirror started
  dir="$CROWNPAGER_CACHE/base-$suite-$arch"
  if [ -f "$dir/.complete" ]; then printf '%s\n' "$dir"; return 0; fi
  debian_root_need debootstrap debootstrap || return 1
  debian_root_foreign_ready "$arch" || return 1
  rm -rf "$dir" && mkdir -p "$CROWNPAGER_CACHE"
  mirror="$(debian_root_host_mirror)"
  started=$SECONDS
  debian_root_say "debootstrap --variant=minbase $suite ($arch) into $dir${mirror:+ from $mirror}"
  if [ "$arch" = "$(dpkg --print-architecture)" ]; then
    debootstrap --variant=minbase --arch "$arch" "$suite" "$dir" $mirror >"$dir.log" 2>&1
  else
    debootstrap --variant=minbase --arch "$arch" --foreign "$suite" "$dir" $mirror >"$dir.log" 2>&1 \
      && chroot "$dir" /debootstrap/debootstrap --second-stage >>"$dir.log" 2>&1
  fi || { debian_root_say "debootstrap failed; its log: $dir.log"; tail -n 20 "$dir.log" >&2; return 1; }
  touch "$dir/.complete"
  debian_root_say "made the $suite $arch root in $((SECONDS - started)) s"
  printf '%s\n' "$dir"
}

# A fresh copy of the base root at DIR (what a previous use left there is removed first).
debian_root_copy() {
  local base=$1 dir=$2
  debian_root_leave "$dir"
  rm -rf "$dir"
  cp -a "$base" "$dir"
  rm -f "$dir/.complete"
}

debian_root_bind() {
  local source=$1 target=$2
  mkdir -p "$target"
  mount --bind "$source" "$target"
}

# Mounts what a build and the tests need, and gives the root this machine's git configuration.
debian_root_enter() {
  local dir=$1 arch base path
  arch="$(chroot "$dir" dpkg --print-architecture)"
  debian_root_entered+=("$dir")
  mount -t proc proc "$dir/proc"
  mount --rbind /sys "$dir/sys" && mount --make-rslave "$dir/sys"
  mount --rbind /dev "$dir/dev" && mount --make-rslave "$dir/dev"
  cp -L /etc/resolv.conf "$dir/etc/resolv.conf"
  # Downloaded packages are kept between roots: the second run fetches nothing it has.
  mkdir -p "$CROWNPAGER_CACHE/apt-archives-$arch/partial"
  debian_root_bind "$CROWNPAGER_CACHE/apt-archives-$arch" "$dir/var/cache/apt/archives"
  rm -f "$dir/etc/apt/apt.conf.d/docker-clean"
  # Git reads packages as the host does: its configuration, and any local folder a url.insteadOf names.
  [ -f /etc/gitconfig ] && cp /etc/gitconfig "$dir/etc/gitconfig"
  [ -f "$HOME/.gitconfig" ] && cp "$HOME/.gitconfig" "$dir/root/.gitconfig"
  while read -r base; do
    path="${base#file://}"
    case "$path" in /*) ;; *) continue ;; esac
    [ -d "$path" ] || continue
    debian_root_bind "$path" "$dir$path"
    mount -o remount,bind,ro "$dir$path"
  done < <(git config --get-regexp '^url\..*\.insteadof$' 2>/dev/null | sed -E 's/^url\.(.*)\.insteadof .*$/\1/I' | sort -u)
}

# Runs a command in the root as root, in /root, with a clean environment (CI and TERM kept).
debian_root_run() {
  local dir=$1; shift
  chroot "$dir" /usr/bin/env -i HOME=/root USER=root LOGNAME=root LANG=C.UTF-8 TERM="${TERM:-xterm}" \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin ${CI:+CI=$CI} \
    /bin/bash -c 'cd /root && "$@"' bash "$@"
}

# Undoes debian_root_enter: every mount below DIR, deepest first.
debian_root_leave() {
  local dir=$1 mounts="" round
  [ -d "$dir" ] || return 0
  dir="$(realpath "$dir")"
  # The list is read afresh each round until nothing is left: a lazy unmount takes the mounts below
  # it along (the host's cgroup hierarchies under a bound /sys), so a later name of the list may be
  # gone already, and one that failed to go would otherwise stay and be mounted over next time.
  local failed=""
  for round in 1 2 3 4 5 6 7 8; do
    mounts="$(awk -v d="$dir" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/self/mounts | sort -r)"
    [ -z "$mounts" ] && return 0
    while read -r mount; do
      if ! umount -l "$mount" 2>/dev/null; then failed=$mount; fi
    done <<<"$mounts"
  done
  debian_root_say "could not unmount ${failed:-$(head -n 1 <<<"$mounts")} after $round rounds"
  return 1
}

# Two runs that shared one cached root (image.sh and image-check.sh in two checkouts at once) would
# mount over each other's /proc and /work, and leaving it would unmount the other's too. A view is
# DIR bound alone (what is mounted below it stays out) at a new folder beside it, so its mounts are
# this run's, under a path of its own; its work folder (in DIR) is this run's too. The host's mounts
# are private (no propagation between the view and DIR). debian_root_leave_all unmounts the view and
# removes it and its work folder, nothing else.
debian_root_view() {
  local dir=$1 name=$2 work
  debian_root_view_dir="$(mktemp -d "$dir.run.XXXXXX")"
  work="$(mktemp -d "$dir/$name.XXXXXX")"
  debian_root_view_work="/${work##*/}"
  debian_root_views+=("$debian_root_view_dir" "$work")
  mount --bind "$dir" "$debian_root_view_dir"
  mount --make-private "$debian_root_view_dir"
}

debian_root_leave_all() {
  local dir i
  for dir in "${debian_root_entered[@]}"; do debian_root_leave "$dir"; done
  # A view's folder is removed only once nothing is mounted there (rmdir refuses a busy one); its work
  # folder is reached through DIR itself, where none of the view's mounts are.
  for ((i = 0; i < ${#debian_root_views[@]}; i += 2)); do
    debian_root_leave "${debian_root_views[i]}" && rmdir "${debian_root_views[i]}"
    rm -rf "${debian_root_views[i + 1]}"
  done
  debian_root_views=()
}
