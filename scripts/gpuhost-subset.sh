#!/usr/bin/env bash
# A part of the pack for one device call, where the whole of .gpuhost/ no
# longer fits the device tool's 64 MiB carry beside the tracked files:
#   scripts/gpuhost-subset.sh DIR PART...
# DIR: a folder .gpuhost-NAME (ignored by git) made afresh with hard links
# to the dispatcher, the steps, the scripts and the probes, and to each PART
# of .gpuhost/ (gst122.tar.xz, gst126.tar.xz, ffmpeg.tar.xz,
# baseline.tar.xz, decode-matrix, media/clip-1080p.mp4, ...). Carry DIR and
# run `bash DIR/gpuhost-run.sh $OUT STEP...`; a step finds what it needs
# under its folder and says in the summary what is missing. Exits 1 when
# DIR and the tracked files come to 64 MiB or more.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
dir=${1:?usage: gpuhost-subset.sh .gpuhost-NAME PART...}
shift
case "$dir" in
  .gpuhost-*) ;;
  *) echo "gpuhost-subset: DIR must be .gpuhost-NAME (git ignores those), not $dir" >&2; exit 2 ;;
esac
[ -f .gpuhost/gpuhost-run.sh ] || { echo "gpuhost-subset: no .gpuhost/: run scripts/gpuhost-pack.sh first" >&2; exit 1; }
rm -rf "$dir"
mkdir -p "$dir"
for part in gpuhost-run.sh steps scripts probes "$@"; do
  [ -e ".gpuhost/$part" ] || { echo "gpuhost-subset: the pack has no $part" >&2; exit 1; }
  mkdir -p "$dir/$(dirname "$part")"
  cp -al ".gpuhost/$part" "$dir/$part"
done
pack=$(du -sb "$dir" | cut -f1)
tree=$(git ls-files -z | xargs -0 du -cb | tail -n 1 | cut -f1)
limit=$((64 * 1024 * 1024))
awk -v d="$dir" -v p="$pack" -v t="$tree" 'BEGIN {
  printf "gpuhost-subset: %s %.1f MiB + tracked files %.1f MiB = %.1f MiB of 64\n", d, p / 1048576, t / 1048576, (p + t) / 1048576 }'
[ $((pack + tree)) -lt "$limit" ]
