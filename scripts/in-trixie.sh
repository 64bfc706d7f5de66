#!/usr/bin/env bash
# Runs a command inside a Debian 13 ("trixie", GStreamer 1.26) root, with this
# repository at the same path and the CUDA toolkit (/usr/local/cuda, read
# only) visible there, so that the project builds and tests against
# GStreamer 1.26 on a Debian 12 machine:
#   scripts/in-trixie.sh bash scripts/test.sh
# The root is made on first use from Debian's packages (debootstrap
# --variant=minbase, then scripts/install-deps.sh inside it) in
# $TRIXIE_ROOT (default: .trixie/root in the repository, ignored by git) and
# reused after that. Needs root (chroot, mount) and Debian's mirror.
# The mounts are undone when the command ends, whatever its exit status.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=${TRIXIE_ROOT:-$repo/.trixie/root}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
[ $# -gt 0 ] || { echo "usage: $0 COMMAND [ARG...]" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "in-trixie: needs root (debootstrap, chroot, mount)" >&2; exit 2; }

mounted=()
unmount_all() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" 2>/dev/null || true
  done
}
trap unmount_all EXIT
mount_into() {  # mount_into TARGET MOUNT-ARGS...: mounts unless something is mounted there already
  local target=$1; shift
  mkdir -p "$target"
  mountpoint -q "$target" && return 0
  mount "$@" "$target"
  mounted+=("$target")
}

make_root() {
  command -v debootstrap >/dev/null || {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
  }
  echo "in-trixie: making a Debian 13 root in $root (debootstrap, about a minute)" >&2
  mkdir -p "$(dirname "$root")"
  local partial=$root.partial
  if findmnt -rn -o TARGET | grep -q "^$partial"; then
    echo "in-trixie: something is still mounted under $partial; not touching it" >&2
    exit 1
  fi
  rm -rf "$partial"
  debootstrap --variant=minbase trixie "$partial" "$mirror" > "$(dirname "$root")/debootstrap.log" 2>&1 || {
    tail -n 20 "$(dirname "$root")/debootstrap.log" >&2
    exit 1
  }
  mv "$partial" "$root"
}

[ -x "$root/usr/bin/apt-get" ] || make_root
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mount_into "$root/proc" -t proc proc
mount_into "$root/dev" --bind /dev
mount_into "$root/dev/pts" -t devpts devpts
if [ -d /usr/local/cuda ]; then
  mount_into "$root/usr/local/cuda" --bind /usr/local/cuda
  mount -o remount,bind,ro "$root/usr/local/cuda"
fi
mount_into "$root$repo" --bind "$repo"

# A clean environment: nothing of this machine's PATH, Python or locale.
in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" CI="${CI:-}" \
    PATH=/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}
in_root bash "$repo/scripts/install-deps.sh"
in_root bash -c 'cd "$1" && shift && exec "$@"' in-trixie "$repo" "$@"
