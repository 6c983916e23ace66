#!/usr/bin/env bash
# Installs CrownPager as a service on a Raspberry Pi (or any Debian-like Linux), from this checkout.
# Safe to run again: it says what it does and never overwrites an edited configuration.
#
#   sudo Scripts/install.sh                 packages, Swift, I2C on, release build, binary, config, udev, service
#   Scripts/install.sh --root DIR ...       install into DIR instead of / (for tests and images): no
#                                           packages, users, raspi-config or systemctl
#   Scripts/install.sh --user               just the command, into ~/.local/bin (no root, no service)
#   Scripts/install.sh --enable-i2c-only    only turn I2C on in config.txt (Scripts/deploy.sh uses it)
#   --binary PATH      install this built crownpager instead of building one
#   --skip-packages    do not install system packages or Swift (Scripts/setup.sh)
#   --no-start         enable the service but do not start it now
#
# On a Pi the Debian package is the shorter road (no compiler there): see Scripts/deploy.sh.
#
# Installs: /usr/local/bin/crownpager, /etc/crownpager/crownpager.toml (only if absent; the new
# default goes beside an edited one as crownpager.toml.default), /etc/udev/rules.d/99-crownpager-*.rules,
# /etc/systemd/system/crownpager.service, /etc/modules-load.d/crownpager.conf (i2c-dev at boot), and a system user 'crownpager' in the i2c, gpio, input and spi groups.
set -euo pipefail
cd "$(dirname "$0")/.."

root=""
binary=""
skip_packages=0
start_now=1
user_install=0
i2c_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --root) root="${2:?--root needs a folder}"; shift 2 ;;
    --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
    --skip-packages) skip_packages=1; shift ;;
    --no-start) start_now=0; shift ;;
    --user) user_install=1; shift ;;
    --enable-i2c-only) i2c_only=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "install: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
say() { printf 'install: %s\n' "$*"; }

build_release() {
  for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$dir/swift" ] && PATH="$PATH:$dir"; done
  Scripts/release/build-info.sh
  say "building crownpager in release mode (the first build takes several minutes on a Pi)"
  swift build -c release --product crownpager
  binary="$(swift build -c release --show-bin-path)/crownpager"
}

# The command alone, for this user: no root, no service, no configuration in /etc.
if [ "$user_install" -eq 1 ]; then
  [ "$(id -u)" -ne 0 ] || say "note: --user as root installs into /root/.local/bin"
  if [ -z "$binary" ]; then
    [ "$skip_packages" -eq 1 ] || Scripts/setup.sh
    build_release
  fi
  [ -x "$binary" ] || { say "no executable at $binary"; exit 1; }
  bin_dir="${XDG_BIN_HOME:-$HOME/.local/bin}"
  completions="${XDG_DATA_HOME:-$HOME/.local/share}/bash-completion/completions"
  install -d "$bin_dir" "$completions"
  install -m 0755 "$binary" "$bin_dir/crownpager"
  "$bin_dir/crownpager" --generate-completion-script bash >"$completions/crownpager"
  say "installed $bin_dir/crownpager ($("$bin_dir/crownpager" --version | head -n 1)) and its bash completion"
  case ":$PATH:" in
    *":$bin_dir:"*) say "run it: crownpager (in a terminal: the mock; crownpager --help)" ;;
    *) say "$bin_dir is not on your PATH: add it, e.g. echo 'export PATH=\"\$HOME/.local/bin:\$PATH\"' >> ~/.profile" ;;
  esac
  exit 0
fi
live=0
[ -z "$root" ] && live=1
if [ "$live" -eq 1 ] && [ "$(id -u)" -ne 0 ]; then
  say "run as root (sudo Scripts/install.sh), or give --root DIR to install into a folder"; exit 1
fi
[ -n "$root" ] && root="$(cd "$root" && pwd)"

# 1. System packages and Swift.
if [ "$live" -eq 1 ] && [ "$skip_packages" -eq 0 ] && [ "$i2c_only" -eq 0 ]; then Scripts/setup.sh; fi

# 2. I2C on, at 400 kHz (see Hardware/README.md for 1 MHz).
config_txt=""
for candidate in "$root/boot/firmware/config.txt" "$root/boot/config.txt"; do
  if [ -f "$candidate" ]; then config_txt="$candidate"; break; fi
done
if [ "$live" -eq 1 ] && command -v raspi-config >/dev/null 2>&1; then
  say "enabling I2C (raspi-config nonint do_i2c 0)"
  raspi-config nonint do_i2c 0
fi
if [ -n "$config_txt" ]; then
  # I2C must be on: a line that turns it off is changed, not taken for "set".
  if grep -Eq '^[[:space:]]*dtparam=i2c_arm=on[[:space:]]*$' "$config_txt"; then say "$config_txt already enables I2C"
  elif grep -Eq '^[[:space:]]*dtparam=i2c_arm=' "$config_txt"; then
    say "changing $(grep -Em1 '^[[:space:]]*dtparam=i2c_arm=' "$config_txt") to dtparam=i2c_arm=on in $config_txt (takes effect after a reboot)"
    sed -i -E 's/^[[:space:]]*dtparam=i2c_arm=.*/dtparam=i2c_arm=on/' "$config_txt"
  else say "adding 'dtparam=i2c_arm=on' to $config_txt (takes effect after a reboot)"; printf '%s\n' "dtparam=i2c_arm=on" >>"$config_txt"; fi
  # The bus speed: the owner's choice stands when there is one.
  if grep -Eq '^[[:space:]]*dtparam=i2c_arm_baudrate=' "$config_txt"; then say "$config_txt already sets the I2C speed"
  else say "adding 'dtparam=i2c_arm_baudrate=400000' to $config_txt"; printf '%s\n' "dtparam=i2c_arm_baudrate=400000" >>"$config_txt"; fi
else
  say "no config.txt under $root/boot: enable I2C by hand if this is a Pi (Hardware/README.md)"
fi

[ "$i2c_only" -eq 1 ] && { [ -n "$config_txt" ] && say "if I2C was just enabled, reboot once (sudo reboot)"; exit 0; }

# 3. Build.
if [ -z "$binary" ]; then build_release; fi
[ -x "$binary" ] || { say "no executable at $binary"; exit 1; }

# 4. Files.
install -d -m 0755 "$root/usr/local/bin" "$root/etc/crownpager" "$root/etc/udev/rules.d" "$root/etc/systemd/system" \
  "$root/etc/modules-load.d"
say "installing $root/usr/local/bin/crownpager"
install -m 0755 "$binary" "$root/usr/local/bin/crownpager"
# crownpager.toml(5), the settings of the file, from the program's own table.
install -d -m 0755 "$root/usr/local/share/man/man5"
"$binary" check --print-manual >"$root/usr/local/share/man/man5/crownpager.toml.5"
config="$root/etc/crownpager/crownpager.toml"
if [ ! -e "$config" ]; then
  say "installing the default configuration $config"
  install -m 0644 Hardware/crownpager.toml "$config"
elif cmp -s Hardware/crownpager.toml "$config"; then
  say "$config is the default already"
else
  say "keeping your edited $config; the new default is beside it as crownpager.toml.default"
  install -m 0644 Hardware/crownpager.toml "$config.default"
fi
for rules in 99-crownpager-i2c.rules 99-crownpager-gpio.rules 99-crownpager-spi.rules; do
  install -m 0644 "Hardware/$rules" "$root/etc/udev/rules.d/$rules"
done
say "installing $root/etc/systemd/system/crownpager.service"
install -m 0644 Hardware/crownpager.service "$root/etc/systemd/system/crownpager.service"
say "installing $root/etc/modules-load.d/crownpager.conf (i2c-dev, loaded at boot before the service)"
install -m 0644 Hardware/crownpager-modules.conf "$root/etc/modules-load.d/crownpager.conf"

if [ "$live" -eq 0 ]; then say "installed under $root"; exit 0; fi

# 5. The service user, the device groups, udev, systemd.
for group in i2c gpio input spi; do getent group "$group" >/dev/null || { say "creating group $group"; groupadd --system "$group"; }; done
if ! id crownpager >/dev/null 2>&1; then
  say "creating the system user crownpager"
  useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin --user-group crownpager
fi
usermod -a -G i2c,gpio,input,spi crownpager
# udev is not running in a chroot or while an image is built: the rules then apply at the next boot.
if command -v udevadm >/dev/null 2>&1 && [ -d /run/udev ]; then
  udevadm control --reload || say "udevadm could not reload the rules: they apply at the next boot"
  udevadm trigger --subsystem-match=i2c-dev --subsystem-match=gpio --subsystem-match=spidev || say "udevadm trigger failed: the device permissions apply at the next boot"
fi
# i2c-dev now too, for the service started below: its DeviceAllow=char-i2c needs the driver loaded.
if [ ! -d /sys/module/i2c_dev ] && command -v modprobe >/dev/null 2>&1; then
  modprobe i2c-dev || say "could not load i2c-dev now (modprobe i2c-dev): it loads at the next boot"
fi
"$root/usr/local/bin/crownpager" check "$config" || { say "the configuration has an error (above): fix it, then run this again"; exit 1; }
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  if [ "$start_now" -eq 1 ]; then systemctl enable --now crownpager; systemctl restart crownpager; else systemctl enable crownpager; fi
  say "done: systemctl status crownpager; journalctl -u crownpager -f"
else
  say "no systemd running here: start /usr/local/bin/crownpager run --config $config yourself"
fi
[ -n "$config_txt" ] && say "if I2C was just enabled, reboot once (sudo reboot)"
exit 0
