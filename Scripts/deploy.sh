#!/usr/bin/env bash
# Installs CrownPager on a Raspberry Pi over SSH, from this checkout on your desktop:
# copies the sources to ~/crownpager on the Pi and runs Scripts/install.sh there with sudo.
#
#   Scripts/deploy.sh pi@crownpi.local [install.sh options]
set -euo pipefail
cd "$(dirname "$0")/.."
host="${1:?usage: Scripts/deploy.sh user@host [install.sh options]}"
shift
echo "deploy: copying the sources to $host:~/crownpager"
git ls-files -z | tar --null -T - -czf - | ssh "$host" 'mkdir -p ~/crownpager && tar -xzf - -C ~/crownpager'
echo "deploy: installing on $host (sudo may ask for a password)"
ssh -t "$host" "cd ~/crownpager && sudo Scripts/install.sh $*"
