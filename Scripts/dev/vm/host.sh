#!/usr/bin/env bash
# The host's side of a VM with the panel on virtio-i2c (Scripts/dev/vm-check.sh and
# Scripts/release/image-check.sh --vm): this package's vhost-user back-end (crownpager-vhost-i2c,
# the SSD1306 emulator) behind QEMU's vhost-user-i2c-pci, its glass taken and compared with render's.
# Sourced, not run:
#
#   vm_backend_build LOG          builds the back-end (release) and prints its path; 1 if this tree has none
#   vm_backend_start BACKEND DIR  starts it on DIR/i2c.sock with its glass in DIR/glass.pbm: sets
#                                 vm_backend_pid and vm_i2c_args (QEMU's options for it); 1 without a socket
#   vm_backend_stop               after QEMU: waits for the back-end to end (it does once QEMU is gone)
#   vm_glass DIR NAME             the emulator's glass now, as DIR/glass-NAME.pbm
#   vm_glass_equal A B            the two PBM pictures have the same pixels (comments aside)
#   vm_glass_broken IN OUT        OUT is IN with its first pixel flipped (a check that must fail)
#   vm_accel ARCH KERNEL          QEMU's accelerator options: KVM only when it boots KERNEL here
if [ "${BASH_SOURCE[0]}" = "$0" ]; then awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0; fi
vm_backend_pid=""
vm_i2c_args=()

vm_backend_build() {
  local log=$1
  grep -q '"crownpager-vhost-i2c"' Package.swift || return 1
  swift build -c release --product crownpager-vhost-i2c >"$log" 2>&1 || { tail -n 20 "$log" >&2; return 1; }
  echo "$(swift build -c release --show-bin-path)/crownpager-vhost-i2c"
}

vm_backend_start() {
  local backend=$1 dir=$2
  "$backend" --socket "$dir/i2c.sock" --address 0x3c --panel 128x64 --glass "$dir/glass.pbm" \
    >"$dir/backend.log" 2>&1 &
  vm_backend_pid=$!
  for _ in $(seq 50); do [ -S "$dir/i2c.sock" ] && break; sleep 0.1; done
  # QEMU shares the guest's memory with the back-end (a memfd), which serves the virtqueue in it.
  vm_i2c_args=(-object memory-backend-memfd,id=mem,size=1G,share=on -numa node,memdev=mem
    -chardev "socket,id=vi2c,path=$dir/i2c.sock" -device vhost-user-i2c-pci,chardev=vi2c,event_idx=off)
  [ -S "$dir/i2c.sock" ]
}

vm_backend_stop() {
  [ -n "$vm_backend_pid" ] || return 0
  # It ends by itself once QEMU has disconnected; one that does not is stopped (and says so).
  for _ in $(seq 50); do kill -0 "$vm_backend_pid" 2>/dev/null || break; sleep 0.2; done
  kill -0 "$vm_backend_pid" 2>/dev/null && { echo "the back-end outlived QEMU: stopping it" >&2; kill -TERM "$vm_backend_pid"; }
  wait "$vm_backend_pid" || echo "the back-end ended with status $?" >&2
  vm_backend_pid=""
}

vm_glass() {
  local dir=$1 name=$2 inode
  [ -n "$vm_backend_pid" ] || return 1
  inode="$(stat -c %i "$dir/glass.pbm" 2>/dev/null || echo none)"
  kill -USR2 "$vm_backend_pid"
  # The back-end writes the file anew (a rename): wait for the new one.
  for _ in $(seq 100); do [ "$(stat -c %i "$dir/glass.pbm" 2>/dev/null || echo none)" != "$inode" ] && break; sleep 0.1; done
  # A glass that never came is missing at the comparison, which fails.
  [ -f "$dir/glass.pbm" ] && cp "$dir/glass.pbm" "$dir/glass-$name.pbm"
}

vm_glass_equal() {
  [ -f "$1" ] && [ -f "$2" ] && cmp -s <(grep -v '^#' "$1" | tr -d ' \t\r\n') <(grep -v '^#' "$2" | tr -d ' \t\r\n')
}

vm_glass_broken() {
  awk '/^#/ { print; next } { n++ } n == 3 && !done { $0 = (substr($0, 1, 1) == "0" ? "1" : "0") substr($0, 2); done = 1 } { print }' \
    "$1" >"$2"
}

# /dev/kvm may be a paravirtual one that cannot boot a kernel (vm-rig.md): probe, do not assume.
vm_accel() {
  local arch=$1 kernel=$2
  if [ "$arch" = amd64 ] && [ -w /dev/kvm ] && timeout 30 qemu-system-x86_64 -M pc -accel kvm -cpu host -m 256M \
    -kernel "$kernel" -append "console=ttyS0 panic=-1" -nic none -display none -monitor none -serial stdio \
    -no-reboot </dev/null 2>/dev/null | grep -q 'Kernel panic'; then
    echo "-accel kvm -cpu host"
  elif [ "$arch" = amd64 ]; then
    echo "-accel tcg,thread=multi,tb-size=256"
  else
    echo "-accel tcg,thread=multi,tb-size=256 -cpu cortex-a53"
  fi
}
