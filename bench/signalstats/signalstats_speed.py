#!/usr/bin/python3
"""Frames per second of FFmpeg's signalstats against the element's, on one
H.264 clip, on this machine (run by gpuhost-run.sh signalstats_ffmpeg).

    signalstats_speed.py --clip CLIP --frames N [--ffmpeg PATH] [--ffmpeg-frames M] [--runs 3] [--out DIR]
                         [--streams K]

Each pipeline runs over N frames of the clip (M for the ffmpeg ones, which
are several times slower) and over the first quarter of them, in --runs
rounds that take every pipeline in turn (median and best reported; the
element's ratio to the pipeline without it also round by round):
  ffmpeg        ffmpeg -i CLIP -vf signalstats -f null -     (default threads: every core)
  ffmpeg-decode ffmpeg -i CLIP -f null -   (its decoding alone: what signalstats adds to it)
  element       filesrc ! qtdemux ! h264parse ! nvh264dec ! cudahistogram signalstats=true ! fakesink
                (messages on, as the element's default post-messages=true, and the meta)
  element-meta  the same with post-messages=false: the figures in the meta only
  no-element    the same without cudahistogram: the ceiling of the element's pipelines
  ffmpeg-nvdec  ffmpeg -hwaccel cuda -hwaccel_output_format cuda -i CLIP -f null -: the same
                NVDEC decoding through FFmpeg's own code, frames left in GPU memory: a
                second measure of one NVDEC session's ceiling (informative: a build
                without NVDEC support reports "not run" and does not fail the script)
With --streams K > 1, the ffmpeg, element and no-element pipelines also run
as K processes at once over the same clip ("ffmpeg xK", ...): frames per
second of the machine, summed over the streams, for the many-streams use
(one NVDEC session and one streaming thread bound a single pipeline; the
GPU has several decoders). The element's aggregate is compared with the best
of ffmpeg's single and K-process figures.
Frames per second are given two ways: whole-run (N / wall time of the process,
start-up included) and steady (frames beyond the short run / the extra time
they took), which cancels start-up (registry, CUDA context, FFmpeg's
initialisation) and is the one to compare. Writes signalstats_speed.json and
signalstats_speed.md into --out. A pipeline that cannot run is reported as
such and the others go on.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

TIMEOUT = 300


def ffmpeg_command(ffmpeg, clip, frames, signalstats=True, nvdec=False):
    limit = ["-frames:v", str(frames)] if frames else []
    vf = ["-vf", "signalstats"] if signalstats else []
    hwaccel = ["-hwaccel", "cuda", "-hwaccel_output_format", "cuda"] if nvdec else []
    return [ffmpeg, "-nostdin", "-v", "error"] + hwaccel + ["-i", clip] + limit + vf + ["-f", "null", "-"]


def gst_command(clip, frames, element, decoder="nvh264dec"):
    """element: None (no cudahistogram) or the element's extra properties."""
    # identity eos-after ends the stream after that many access units: the short run.
    limit = ["identity", "eos-after=%d" % frames, "!"] if frames else []
    middle = ["cudahistogram", "signalstats=true"] + element + ["!"] if element is not None else []
    return (["gst-launch-1.0", "-q", "filesrc", "location=" + clip, "!", "qtdemux", "!", "h264parse", "!"] +
            limit + [decoder, "!"] + middle + ["fakesink", "sync=false"])


def timed(commands):
    """Wall seconds until every one of `commands` (run at once) has ended, or
    raises RuntimeError with the words of the first that failed."""
    start = time.monotonic()
    running = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for c in commands]
    outputs = [p.communicate(timeout=TIMEOUT) for p in running]
    elapsed = time.monotonic() - start
    for p, (out, err) in zip(running, outputs):
        if p.returncode != 0:
            raise RuntimeError("exit %d: %s" % (p.returncode, (err or out).strip()[-800:]))
    return elapsed


def time_round(make_command, short, streams=1):
    """One round of a pipeline: the wall seconds of its whole and its short run."""
    return timed([make_command(0)] * streams), timed([make_command(short)] * streams)


def summarize(make_command, whole, part, total, short, streams=1):
    """fps figures (summed over the streams) from the rounds' whole and short times."""
    total, short = total * streams, short * streams
    extra = statistics.median(whole) - statistics.median(part)
    return {
        "command": ("%d at once: " % streams if streams > 1 else "") + " ".join(make_command(0)),
        "streams": streams,
        "whole_s": whole, "short_s": part,
        "fps_whole_median": total / statistics.median(whole),
        "fps_whole_best": total / min(whole),
        "fps_steady": (total - short) / extra if extra > 0 else None,
        "fps_steady_best": (total - short) / (min(whole) - min(part)) if min(whole) > min(part) else None,
    }


def steady_ratios(a, b):
    """Per round, a's steady fps over b's (each round's whole and short runs),
    for pipelines measured in the same rounds."""
    ratios = []
    for wa, pa, wb, pb in zip(a["whole_s"], a["short_s"], b["whole_s"], b["short_s"]):
        if wa > pa and wb > pb:
            ratios.append((wb - pb) / (wa - pa) * (a["frames"] / b["frames"]))
    return ratios


def table(results, meta):
    lines = ["# signalstats speed: %s, %d frames %s" % (meta["clip"], meta["frames"], meta["date"]), "",
             "| pipeline | steady fps (median) | steady fps (best) | whole-run fps (median) | whole-run fps (best) |",
             "|---|---|---|---|---|"]
    for name, r in results.items():
        if "error" in r:
            lines.append("| %s | not run: %s | | | |" % (name, r["error"].replace("|", "/")[:200]))
            continue
        f = lambda v: "%.1f" % v if v else "n/a"  # noqa: E731
        lines.append("| %s | %s | %s | %s | %s |" % (name, f(r["fps_steady"]), f(r["fps_steady_best"]),
                                                    f(r["fps_whole_median"]), f(r["fps_whole_best"])))
    ratios = meta.get("ratios", {})
    lines += [""] + ["- %s: %s" % (k, "%.3f" % v if isinstance(v, float) else v) for k, v in ratios.items()]
    lines += ["", "Commands:"] + ["- %s: `%s`" % (n, r.get("command", "?")) for n, r in results.items()]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clip", required=True)
    parser.add_argument("--frames", type=int, required=True, help="the clip's frame count")
    parser.add_argument("--ffmpeg", default="ffmpeg")
    parser.add_argument("--ffmpeg-frames", type=int, default=600,
                        help="frames the ffmpeg pipelines run over (at most --frames)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", default=".")
    parser.add_argument("--decoder", default="nvh264dec", help="the GStreamer decoder (avdec_h264: a run without a GPU)")
    parser.add_argument("--streams", type=int, default=1,
                        help="also run ffmpeg, element and no-element as this many processes at once")
    args = parser.parse_args()
    if not os.path.isfile(args.clip):
        sys.exit("signalstats_speed: no such clip: %s" % args.clip)
    ffmpeg_frames = min(args.ffmpeg_frames, args.frames)
    pipelines = {  # name: (command for n frames, 0 = all; frames of the whole run)
        "ffmpeg": (lambda n: ffmpeg_command(args.ffmpeg, args.clip, n or ffmpeg_frames), ffmpeg_frames),
        "ffmpeg-decode": (lambda n: ffmpeg_command(args.ffmpeg, args.clip, n or ffmpeg_frames, False), ffmpeg_frames),
        "element": (lambda n: gst_command(args.clip, n, [], args.decoder), args.frames),
        "element-meta": (lambda n: gst_command(args.clip, n, ["post-messages=false"], args.decoder), args.frames),
        "no-element": (lambda n: gst_command(args.clip, n, None, args.decoder), args.frames),
        "ffmpeg-nvdec": (lambda n: ffmpeg_command(args.ffmpeg, args.clip, n, False, True), args.frames),
    }
    informative = {"ffmpeg-nvdec"}
    runs = [(name, make, total, 1) for name, (make, total) in pipelines.items()]
    if args.streams > 1:
        runs += [("%s x%d" % (name, args.streams), pipelines[name][0], pipelines[name][1], args.streams)
                 for name in ("ffmpeg", "element", "no-element")]
    # Round-robin: each round times every pipeline once (whole and short run),
    # so that the host's drift between rounds hits every pipeline alike and the
    # ratios of one round compare runs minutes apart at most.
    results, times = {}, {}
    for name, make, total, streams in runs:
        if not shutil.which(make(0)[0]):
            results[name] = {"error": "%s not found" % make(0)[0], "command": " ".join(make(0))}
        else:
            times[name] = ([], [])
    for round_number in range(args.runs):
        for name, make, total, streams in runs:
            if name not in times:
                continue
            try:
                whole, part = time_round(make, max(1, total // 4), streams)
            except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
                results[name] = {"error": str(e), "command": " ".join(make(0))}
                del times[name]
                continue
            times[name][0].append(whole)
            times[name][1].append(part)
            print("signalstats_speed: round %d %s: whole %.3f s, short %.3f s" % (round_number + 1, name, whole, part),
                  flush=True)
    for name, make, total, streams in runs:
        if name in times:
            results[name] = summarize(make, times[name][0], times[name][1], total, max(1, total // 4), streams)
            results[name]["frames"] = total - max(1, total // 4)
            print("signalstats_speed: %s: %s" % (name, json.dumps(results[name])), flush=True)
    results = {name: results[name] for name, _, _, _ in runs}  # the pipelines' order
    meta = {"clip": args.clip, "frames": args.frames, "ffmpeg_frames": ffmpeg_frames, "decoder": args.decoder,
            "streams": args.streams,
            "short_frames": "a quarter of each pipeline's frames", "runs": args.runs,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpus": os.cpu_count()}
    steady = {n: r.get("fps_steady") for n, r in results.items()}
    if steady.get("element") and steady.get("ffmpeg"):
        meta.setdefault("ratios", {})["element / ffmpeg (steady fps; target >= 20)"] = steady["element"] / steady["ffmpeg"]
    for element in ("element", "element-meta"):
        if steady.get(element) and steady.get("no-element"):
            meta.setdefault("ratios", {})["%s / no-element (steady fps; target >= 0.95)" % element] = \
                steady[element] / steady["no-element"]
            per_round = steady_ratios(results[element], results["no-element"])
            if per_round:
                meta["ratios"]["%s / no-element, per round (median; the rounds)" % element] = "%.3f (%s)" % (
                    statistics.median(per_round), ", ".join("%.3f" % r for r in per_round))
    if steady.get("ffmpeg-nvdec") and steady.get("ffmpeg"):
        meta.setdefault("ratios", {})["ffmpeg-nvdec / ffmpeg (NVDEC's ceiling through FFmpeg's own decoder)"] = \
            steady["ffmpeg-nvdec"] / steady["ffmpeg"]
    if steady.get("no-element") and steady.get("ffmpeg"):
        meta.setdefault("ratios", {})["no-element / ffmpeg (the decoder's own ceiling for the first ratio)"] = \
            steady["no-element"] / steady["ffmpeg"]
    if args.streams > 1:
        k = args.streams
        best_ffmpeg = max(v for v in (steady.get("ffmpeg"), steady.get("ffmpeg x%d" % k)) if v) \
            if steady.get("ffmpeg") or steady.get("ffmpeg x%d" % k) else None
        if steady.get("element x%d" % k) and best_ffmpeg:
            meta.setdefault("ratios", {})[
                "element x%d / the best of ffmpeg x1 and x%d (the machine's frames per second; target >= 20)" % (k, k)] = \
                steady["element x%d" % k] / best_ffmpeg
        if steady.get("element x%d" % k) and steady.get("no-element x%d" % k):
            meta.setdefault("ratios", {})["element x%d / no-element x%d (target >= 0.95)" % (k, k)] = \
                steady["element x%d" % k] / steady["no-element x%d" % k]
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "signalstats_speed.json"), "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)
    text = table(results, meta)
    with open(os.path.join(args.out, "signalstats_speed.md"), "w") as f:
        f.write(text)
    print(text)
    return 0 if all("error" not in r for n, r in results.items() if n not in informative) else 1


if __name__ == "__main__":
    sys.exit(main())
