# GStreamer 1.22 against 1.26: the upstream limits docs/versions.md lists,
# shown again; whether 1.26's cudaconvert registers; the element on both
# runtimes in one call (what the stream ordering costs).

# Packed 4:2:2 through cudaupload ! cudadownload, odd and even widths: are the
# bytes that come back the bytes that went in?
odd_width_round_trip() {
  local dir; dir=$(mktemp -d)
  for format in YUY2 UYVY; do
    for width in 333 334; do
      gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=snow ! \
        "video/x-raw,format=$format,width=$width,height=4" ! tee name=t ! queue ! \
        filesink location="$dir/in.raw" t. ! queue ! cudaupload ! "video/x-raw(memory:CUDAMemory)" ! \
        cudadownload ! video/x-raw ! filesink location="$dir/out.raw" || { echo "$format $width: pipeline failed"; continue; }
      python3 - "$dir/in.raw" "$dir/out.raw" "$format" "$width" <<'PY'
import sys
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
fmt, width = sys.argv[3], int(sys.argv[4])
stride = (((width + 1) // 2 * 4) + 3) // 4 * 4
row = (width + 1) // 2 * 4
diff = [i for i in range(min(len(a), len(b))) if i % stride < row and a[i] != b[i]]
cols = sorted({i % stride for i in diff})
v_byte = row - 1 if fmt == "YUY2" else row - 2
print(f"{fmt} width {width}: {len(a)} bytes in, {len(b)} out, {len(diff)} differ"
      + (f" at row offsets {cols} (the last V sample is byte {v_byte})" if diff else ": identical"))
PY
    done
  done
  rm -rf "$dir"
}

# NV21 through cudaupload ! cudadownload alone, odd and even sizes: the bytes
# that come back against those that went in (GStreamer 1.26 fails odd ones).
nv21_round_trip() {
  local dir size; dir=$(mktemp -d)
  for size in 7x3 333x77 8x4 334x78; do
    gst-launch-1.0 -q videotestsrc num-buffers=1 pattern=snow ! \
      "video/x-raw,format=NV21,width=${size%x*},height=${size#*x}" ! tee name=t ! queue ! \
      filesink location="$dir/in.raw" t. ! queue ! cudaupload ! "video/x-raw(memory:CUDAMemory)" ! \
      cudadownload ! video/x-raw ! filesink location="$dir/out.raw" > "$dir/log" 2>&1
    local rc=$?
    if [ $rc -ne 0 ]; then
      echo "NV21 $size: pipeline failed (exit $rc): $(grep -m1 -iE 'error|fail' "$dir/log")"
    elif cmp -s "$dir/in.raw" "$dir/out.raw"; then
      echo "NV21 $size: identical ($(stat -c %s "$dir/in.raw") bytes)"
    else
      echo "NV21 $size: DIFFERENT ($(cmp "$dir/in.raw" "$dir/out.raw" | head -n 1))"
    fi
  done
  rm -rf "$dir"
}

# YUY2 and UYVY of odd and even width through cudaupload ! cudadownload on GStreamer 1.22 (docs/versions.md, Known upstream limits).
step_oddwidth() { use_gst 122; step oddwidth odd_width_round_trip; }
# The same on GStreamer 1.26.
step_oddwidth126() { use_gst 126; step oddwidth126 odd_width_round_trip; }
# NV21 of odd and even sizes through cudaupload ! cudadownload on GStreamer 1.22.
step_nv21() { use_gst 122; step nv21 nv21_round_trip; }
# The same on GStreamer 1.26.
step_nv21126() { use_gst 126; step nv21126 nv21_round_trip; }

# Whether 1.26's cudaconvert registers (1.22's does not: its NVRTC check asks for compute_30), with gst-cuda's NVRTC as found and as the toolkit's libnvrtc.so; if it does, cudaconvert against the CPU on every format.
step_convert126() {
  # gst-cuda opens "libnvrtc.so"; the host's CUDA toolkit has one that is not
  # on the loader's path, so it is named.
  use_gst 126
  local nvrtc
  nvrtc=$(ls /usr/local/cuda/lib64/libnvrtc.so 2>/dev/null | head -n 1)
  step nvrtc126_default bash -c 'GST_REGISTRY_1_0=$(mktemp -u) GST_DEBUG=cudanvrtc:6 gst-inspect-1.0 cudaconvert 2>&1 | grep -Ev "^\s*$" | tail -n 30'
  export GST_CUDA_NVRTC_LIBNAME=$nvrtc GST_REGISTRY_1_0=$(mktemp -u)
  step nvrtc126_toolkit bash -c 'echo "GST_CUDA_NVRTC_LIBNAME=$GST_CUDA_NVRTC_LIBNAME"; GST_DEBUG=cudanvrtc:6 gst-inspect-1.0 cudaconvert 2>&1 | tail -n 30'
  if gst-inspect-1.0 --exists cudaconvert; then
    step convert126 python3 "$here/scripts/compare_cuda_branches.py" cudaconvert \
      I420 Y42B Y444 I420_10LE I422_10LE Y444_16LE P010_10LE P016_LE RGBA BGRx RGB BGR10A2_LE GBR GBRA
  fi
  unset GST_CUDA_NVRTC_LIBNAME
}

# element_bench on both runtimes in one call: 1.22's plain path and 1.26's (its plain pool and a pool whose frames carry a producer stream), BENCH_ROUNDS (1) rounds in turn of BENCH_SECONDS (6) each, so that drift hits both alike; bench/element/ordering_rounds.py prints each round's ratios and their medians.
step_bench126() {
  local round
  for round in $(seq 1 "${BENCH_ROUNDS:-1}"); do
    use_gst 122
    TAIL_LINES=12 step element_bench122_$round "$bin/element_bench" --seconds "${BENCH_SECONDS:-6}" \
      --json "$logs/element_bench122.$round.json"
    use_gst 126
    TAIL_LINES=12 step element_bench126_$round "$bin/element_bench" --seconds "${BENCH_SECONDS:-6}" \
      --json "$logs/element_bench126.$round.json"
  done
  TAIL_LINES=16 step ordering_rounds python3 "$here/scripts/ordering_rounds.py" "$logs"
}
