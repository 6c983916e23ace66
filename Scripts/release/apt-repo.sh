#!/usr/bin/env bash
# Builds or updates a signed apt repository of CrownPager packages that a fleet of Pis installs
# and upgrades from: pool/ and dists/SUITE/ (Packages per architecture, Release, InRelease,
# Release.gpg), made with apt-ftparchive and signed with gpg. Any static web server or file share
# can serve the folder.
#
#   Scripts/release/apt-repo.sh --out DIR --key-dir KEYDIR [--suite stable] DEB...
#   --out DIR        the repository; made if missing, else the packages are added to it
#   --key-dir KEYDIR a gpg home holding the signing key; when it holds no secret key, a test key
#                    without a passphrase is made there (an owner passes the folder of their own key)
#   --key ID         which secret key of KEYDIR signs, when it holds more than one
#   --suite NAME     the suite (default: stable)
#   --url URL        the address the Pis reach DIR at, for the printed sources line (default: file:DIR)
#
# Older versions stay in the pool and in the index: apt upgrades to the newest, and
# `apt-get install crownpager=VERSION` goes back. A file of the same name with other contents is
# refused (a Pi that read the index would fail on the hash). The architectures are those of the
# packages in the pool. DIR/crownpager-archive-keyring.gpg is the public key for
# /usr/share/keyrings/ on each Pi; the last line printed is the Pis' sources line.
set -euo pipefail
say() { printf 'apt-repo: %s\n' "$*" >&2; }
out=""
key_dir=""
key_id=""
suite="stable"
url=""
debs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --key-dir) key_dir="${2:?--key-dir needs a folder}"; shift 2 ;;
    --key) key_id="${2:?--key needs a key id or fingerprint}"; shift 2 ;;
    --suite) suite="${2:?--suite needs a name}"; shift 2 ;;
    --url) url="${2:?--url needs an address}"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) say "unknown option '$1' (try --help)"; exit 2 ;;
    *) debs+=("$1"); shift ;;
  esac
done
[ -n "$out" ] && [ -n "$key_dir" ] || { say "usage: apt-repo.sh --out DIR --key-dir KEYDIR [--suite stable] DEB... (try --help)"; exit 2; }
[ "${#debs[@]}" -gt 0 ] || { say "no .deb given: name the packages to publish"; exit 2; }
case "$suite" in *[!A-Za-z0-9._-]* | "") say "--suite takes letters, digits, '.', '_' and '-', not '$suite'"; exit 2 ;; esac
for tool in apt-ftparchive:apt-utils gpg:gnupg dpkg-deb:dpkg; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || { say "needs ${tool%%:*}: apt-get install ${tool#*:} (or Scripts/setup.sh --packaging)"; exit 1; }
done
for deb in "${debs[@]}"; do
  [ -f "$deb" ] || { say "$deb: no such file"; exit 1; }
  [ "$(dpkg-deb -f "$deb" Package 2>/dev/null)" = crownpager ] || { say "$deb: not a crownpager package"; exit 1; }
done

# Everyone reads the repository (apt fetches as its unprivileged _apt user); only the owner writes.
umask 022
mkdir -p "$out" && out="$(cd "$out" && pwd)"
mkdir -p "$key_dir" && key_dir="$(cd "$key_dir" && pwd)" && chmod 700 "$key_dir"
gpg_in() { gpg --homedir "$key_dir" --batch --yes --quiet --no-tty "$@"; }
# The agent gpg starts for this home is stopped when done; one that ran before (a key the owner
# unlocked in it) is left running.
agent="$(gpg-connect-agent --homedir "$key_dir" --no-autostart 'GETINFO pid' /bye 2>/dev/null)" || agent=""
if [ "${agent:0:2}" != "D " ]; then
  trap 'gpgconf --homedir "$key_dir" --kill gpg-agent 2>/dev/null || true' EXIT
fi

# The signing key: the one named, the only one, or a new test key.
secret_keys() { gpg_in --with-colons --list-secret-keys 2>/dev/null | awk -F: '$1 == "fpr" && prev == "sec" { print $10 } { prev = $1 }'; }
mapfile -t keys < <(secret_keys)
if [ -n "$key_id" ]; then
  keys=("$key_id")
elif [ "${#keys[@]}" -eq 0 ]; then
  say "no secret key in $key_dir: making a test key (no passphrase; an owner signs with their own)"
  gpg_in --pinentry-mode loopback --passphrase '' \
    --quick-gen-key "CrownPager archive test key <crownpager@localhost>" ed25519 sign never
  mapfile -t keys < <(secret_keys)
elif [ "${#keys[@]}" -gt 1 ]; then
  say "$key_dir holds ${#keys[@]} secret keys: name the one that signs with --key (gpg --homedir $key_dir -K)"
  exit 2
fi
[ "${#keys[@]}" -eq 1 ] && [ -n "${keys[0]}" ] || { say "found no signing key in $key_dir"; exit 1; }
key="${keys[0]}"
gpg_in --list-secret-keys "$key" >/dev/null 2>&1 || { say "no secret key '$key' in $key_dir"; exit 1; }

# The pool: pool/main/c/crownpager/, as Debian's archive lays it out.
pool="pool/main/c/crownpager"
mkdir -p "$out/$pool"
# Every package is checked before any is added: a refusal leaves the repository as it was.
targets=()
labels=()
for deb in "${debs[@]}"; do
  fields="$(dpkg-deb -f "$deb" Version Architecture)"
  version="$(sed -n 's/^Version: //p' <<<"$fields")"
  arch="$(sed -n 's/^Architecture: //p' <<<"$fields")"
  target="$out/$pool/crownpager_${version}_${arch}.deb"
  if [ -f "$target" ] && ! cmp -s "$deb" "$target"; then
    say "$target exists with other contents: publish a new version instead (Scripts/release/package.sh --version)"
    exit 1
  fi
  targets+=("$target")
  labels+=("crownpager $version ($arch)")
done
for i in "${!debs[@]}"; do
  if [ -f "${targets[$i]}" ]; then
    say "${labels[$i]} is there already"
  else
    install -m 0644 "${debs[$i]}" "${targets[$i]}"
    say "added ${labels[$i]}"
  fi
done

# The indexes, per architecture of the pool (apt-ftparchive reads the pool, run from the top).
mapfile -t archs < <(for deb in "$out/$pool"/*.deb; do dpkg-deb -f "$deb" Architecture; done | sort -u)
dists="dists/$suite"
rm -rf "${out:?}/$dists"
for arch in "${archs[@]}"; do
  index="$dists/main/binary-$arch"
  mkdir -p "$out/$index"
  (cd "$out" && apt-ftparchive --arch "$arch" packages "$pool") >"$out/$index/Packages"
  gzip -9n -k "$out/$index/Packages"
  xz -k "$out/$index/Packages"
  printf 'Archive: %s\nComponent: main\nArchitecture: %s\n' "$suite" "$arch" >"$out/$index/Release"
done
(cd "$out/$dists" && apt-ftparchive \
  -o APT::FTPArchive::Release::Origin=CrownPager \
  -o APT::FTPArchive::Release::Label=CrownPager \
  -o APT::FTPArchive::Release::Suite="$suite" \
  -o APT::FTPArchive::Release::Codename="$suite" \
  -o APT::FTPArchive::Release::Architectures="${archs[*]}" \
  -o APT::FTPArchive::Release::Components=main \
  -o APT::FTPArchive::Release::Description="CrownPager packages" \
  release .) >"$out/$dists/Release.new"
mv "$out/$dists/Release.new" "$out/$dists/Release"
# SHA-512 signatures: Debian 13's apt (sqv) refuses SHA-1.
gpg_in --local-user "$key" --digest-algo SHA512 --clearsign -o "$out/$dists/InRelease" "$out/$dists/Release"
gpg_in --local-user "$key" --digest-algo SHA512 --armor --detach-sign -o "$out/$dists/Release.gpg" "$out/$dists/Release"
gpg_in --export "$key" >"$out/crownpager-archive-keyring.gpg"
chmod -R a+rX "$out"
say "$out: ${#archs[@]} architecture(s) (${archs[*]}), $(find "$out/$pool" -name '*.deb' | wc -l) package(s), signed by $key"
say "on each Pi: the keyring as /usr/share/keyrings/crownpager-archive-keyring.gpg, this line as /etc/apt/sources.list.d/crownpager.list:"
echo "deb [signed-by=/usr/share/keyrings/crownpager-archive-keyring.gpg] ${url:-file:$out} $suite main"
