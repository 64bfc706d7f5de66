# cudahist-monitor on the GPU: its CUDA-error test, how many live 1080p30
# streams one monitor keeps up with, its memory over a soak, and a saved
# status page (back home, tools/cudahist-monitor/tests/replay_status_page.py
# FOLDER OUT.png serves it to headless Chromium for a screenshot).

# The parts MONITOR_STEPS names (default "fault scale soak status"): cuda_fault_test.py (CUDAHIST_CUDA_FAULT, a test-hooks build), bench/monitor/monitor_scale.sh on the pack's 1080p30 6 Mbit/s H.264 clip (MONITOR_STREAMS, default 16 32 48 64 80 96, then NVDEC alone), bench/monitor/monitor_soak.sh with 64 streams for MONITOR_SOAK_MINUTES (20), and a 16-stream status page (its HTML, status.json, each stream's scope PNG); their tables (scale.tsv, decode.tsv, soak.tsv) go to the logs.
step_cudahist_monitor() {
  use_gst 122
  local clip=$here/media/live-1080p30-6M.mp4 dir=$logs/cudahist_monitor
  mkdir -p "$dir"
  local parts=" ${MONITOR_STEPS:-fault scale soak status} "
  [[ $parts == *" fault "* ]] && PYTHONPATH="$here/scripts/python" TAIL_LINES=12 step cudahist_monitor_cuda_fault \
    python3 "$here/scripts/cuda_fault_test.py" "$bin/cudahist-monitor"
  [[ $parts == *" scale "* ]] && CLIP=$clip CLIP_FRAMES=300 TAIL_LINES=16 step cudahist_monitor_scale \
    bash "$here/scripts/monitor_scale.sh" "$bin/cudahist-monitor" "$dir/scale" ${MONITOR_STREAMS:-16 32 48 64 80 96}
  [[ $parts == *" soak "* ]] && CLIP=$clip TAIL_LINES=4 step cudahist_monitor_soak bash "$here/scripts/monitor_soak.sh" \
    "$bin/cudahist-monitor" "$dir/soak" 64 "${MONITOR_SOAK_MINUTES:-20}"
  [[ $parts == *" status "* ]] || return 0
  step cudahist_monitor_status bash -c '
    bin=$1 clip=$2 dir=$3/status port=$((20000 + RANDOM % 20000))
    mkdir -p "$dir"
    { printf "[monitor]\nlisten=127.0.0.1:%d\n" "$port"
      for i in $(seq -w 1 16); do printf "[stream channel-%s]\nuri=file://%s\nloop=true\n" "$i" "$clip"; done
    } > "$dir/status.conf"
    "$bin/cudahist-monitor" --config "$dir/status.conf" 2> "$dir/monitor.log" &
    pid=$!
    sleep 15
    python3 - "$port" "$dir" <<PY
import json, sys, urllib.parse, urllib.request
port, folder = sys.argv[1], sys.argv[2]
get = lambda path: urllib.request.urlopen("http://127.0.0.1:%s%s" % (port, path)).read()
status = get("/status.json")
open(folder + "/status.json", "wb").write(status)
open(folder + "/index.html", "wb").write(get("/"))
for s in json.loads(status):
    print(s["name"], s["state"], round(s["fps"], 1), s["alarms"], s["figures"].get("y-avg"))
    if s["scope"]:
        open("%s/%s.png" % (folder, s["name"]), "wb").write(get("/scope?stream=" + urllib.parse.quote(s["name"])))
PY
    kill -TERM $pid; wait $pid' status "$bin" "$clip" "$dir"
}
