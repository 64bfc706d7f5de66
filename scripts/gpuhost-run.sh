#!/usr/bin/env bash
# The GPU host's steps, run from the copy of the repository there after
# scripts/gpuhost-pack.sh filled .gpuhost/ here and the device tool carried it:
#   bash .gpuhost/gpuhost-run.sh OUTDIR [STEP ...]   (default: tests decode examples bench)
#   bash scripts/gpuhost-run.sh --list               every step, with what it runs
# Step NAME is the function step_NAME of one file per subject,
# scripts/gpuhost/SUBJECT.sh (packed as .gpuhost/steps/; docs/gpu-host.md
# lists them), with the comment above it saying what it runs. A step may use:
#   $here                     the pack (scripts/ in the source tree)
#   $logs                     its logs' folder, which comes back as OUTDIR/logs.tar.gz
#   $summary                  the summary, which comes back as OUTDIR/summary.txt
#   use_gst 122|126           the environment of one GStreamer runtime; sets $bin
#   use_carried_libav         the carried FFmpeg's gst-libav, until the next use_gst
#   write_with_carried_libav PATH PROGRAM
#                             PATH: $bin/PROGRAM with the carried gst-libav
#   step LOGNAME COMMAND...   runs COMMAND with its log, records its exit status
#                             and its last TAIL_LINES (default 6) lines
# Every step's full log goes to $logs; the summary (device, date, host C
# library, each step's exit status and last lines) is printed at the end.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

step_files() {  # the files of steps: the pack's steps/, or scripts/gpuhost/ in the source tree
  local f
  for f in "$here"/steps/*.sh "$here"/gpuhost/*.sh; do [ -e "$f" ] && printf '%s\n' "$f"; done
}

# Each step and its comment, one line each: "NAME  what it runs".
list_steps() {
  local files=()
  mapfile -t files < <(step_files)
  [ ${#files[@]} -gt 0 ] || return 0
  awk '/^#/ { sub(/^# ?/, ""); text = text == "" ? $0 : text " " $0; next }
       /^step_[A-Za-z0-9_]+\(\)/ { name = $0; sub(/^step_/, "", name); sub(/\(.*/, "", name)
                                   printf "%-22s %s\n", name, text }
       { text = "" }' "${files[@]}" | sort
}

if [ "${1:-}" = --list ]; then list_steps; exit 0; fi
out=${1:?usage: gpuhost-run.sh OUTDIR [STEP ...] | gpuhost-run.sh --list}; shift
steps=${*:-tests decode examples bench}
logs=$(mktemp -d)/logs; mkdir -p "$logs"
summary=$logs/summary.txt

unpack() {  # unpack ARCHIVE: xz tarball of .gpuhost, by tar or, without xz, by Python
  [ -f "$here/$1" ] || return 0
  tar -C "$here" -xJf "$here/$1" 2>/dev/null ||
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$here/$1" "$here"
}
unpack gst122.tar.xz
unpack gst126.tar.xz
unpack ffmpeg.tar.xz
unpack kernel_variants.tar.xz
unpack baseline.tar.xz
# gst126's executables start through trixie's loader at this fixed path.
[ -d "$here/gst126" ] && ln -sfn "$here/gst126" /tmp/cudahist-gst126

# The environment of one GStreamer runtime: use_gst 122 | 126. Sets $bin.
base_path=$PATH
base_ld=${LD_LIBRARY_PATH:-}
use_gst() {
  unset GST_PLUGIN_SYSTEM_PATH_1_0 GST_PLUGIN_SCANNER_1_0 GST_REGISTRY_1_0
  export PATH=$base_path LD_LIBRARY_PATH=$base_ld
  if [ "$1" = 126 ]; then
    source "$here/gst126/env.sh"
    export GST_PLUGIN_PATH="$here/gst126/gst-plugin"
    export BUILD_DIR="$here/gst126"  # the launch recipes look for $BUILD_DIR/gst-plugin
    bin=$here/gst126/bin
  else
    source "$here/gst/env.sh"
    export GST_PLUGIN_PATH="$here/gst-plugin"
    export BUILD_DIR="$here"
    export LD_LIBRARY_PATH="$here/lib:$LD_LIBRARY_PATH"
    bin=$here/bin
  fi
}

# The carried FFmpeg's gst-libav (built for GStreamer 1.22) on the plugin and
# library paths, until the next use_gst.
use_carried_libav() {
  export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$here/ffmpeg/lib" GST_PLUGIN_PATH="$GST_PLUGIN_PATH:$here/ffmpeg/gst-plugins"
}

# A program of the pack with avdec_*: the bundle's FFmpeg libraries AFTER the
# GStreamer bundle's lib/, so that its real GLib & co. win over the stubs of
# the same names; only there (python3 and the rest keep the plain
# environment). write_with_carried_libav PATH PROGRAM
write_with_carried_libav() {
  cat > "$1" <<WRAP
#!/bin/sh
LD_LIBRARY_PATH="\$LD_LIBRARY_PATH:$here/ffmpeg/lib" GST_PLUGIN_PATH="\$GST_PLUGIN_PATH:$here/ffmpeg/gst-plugins" exec "$bin/$2" "\$@"
WRAP
  chmod +x "$1"
}

{
  date -u '+date: %Y-%m-%d %H:%M UTC'
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv
  echo "host C library: $(ldd --version 2>&1 | head -n 1)"
  [ -d "$here/gst126" ] && echo "trixie C library (carried): $("$here/gst126/glibc/ld-linux-x86-64.so.2" --version 2>&1 | head -n 1)"
} > "$logs/device.txt" 2>&1
cat "$logs/device.txt" > "$summary"

# Only two files come back from the device tool's OUTDIR whatever the steps
# (it returns at most 8): the summary and every log and JSON in logs.tar.gz.
# Also when stopped: `timeout -s TERM N gpuhost-run.sh ...` (timeout signals
# the whole process group) keeps what the finished steps wrote.
finish() {
  cp "$summary" "$out/summary.txt"
  tar -C "$(dirname "$logs")" -czf "$out/logs.tar.gz" logs
  cat "$summary"
}
trap 'echo "=== stopped by a signal" >> "$summary"; finish; exit 124' TERM INT
step() {  # step NAME COMMAND...: runs it with a log; records exit code and tail
  local name=$1; shift
  local t0=$SECONDS
  "$@" > "$logs/$name.log" 2>&1
  local rc=$?
  { echo "=== $name: exit $rc, $((SECONDS - t0)) s"; tail -n "${TAIL_LINES:-6}" "$logs/$name.log"; } >> "$summary"
}

while IFS= read -r f; do source "$f"; done < <(step_files)

for s in $steps; do
  if declare -F "step_$s" > /dev/null; then
    "step_$s"
  else
    echo "=== $s: no such step (the steps: $(list_steps | awk '{print $1}' | paste -sd ' '))" >> "$summary"
  fi
done

finish
