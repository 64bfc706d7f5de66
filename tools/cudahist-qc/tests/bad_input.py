#!/usr/bin/env python3
"""cudahist-qc on bad input: each problem is a clear error naming its file,
the other files still get their reports, the exit status is non-zero, and no
report (or temporary file) is left for a file that failed.

  - a file with no video (audio only);
  - a truncated file (Matroska cut in half: the demuxer meets the end early);
  - an unsupported codec (a Matroska codec ID no GStreamer decoder takes);
  - a format the element does not read (10-bit 4:4:4), named in the error;
  - an interlaced 4:2:0 file of 242 lines: written, read where avdec wrote its planes (no warning of
    a V row off), with a warning where the decoder gives no field order;
  - an unreadable folder (mode 000; run as nobody when we are root);
  - paths with spaces and non-ASCII characters (every file below has both);
  - a full disk while writing: a real one (a tmpfs filled to its last page, mounted in a mount
    namespace of the test's own: ENOSPC), and a file-size limit (RLIMIT_FSIZE: EFBIG);
  - an existing report: left alone and skipped, replaced with --force.

Usage: bad_input.py CUDAHIST_QC.  Exit: 0 pass, 1 fail, 77 skip (no ffmpeg).
"""
import gzip
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile

from checks import check, ffmpeg, verdict


def run_qc(qc, args, preexec=None, prefix=()):
    """cudahist-qc ARGS, behind PREFIX (a command that runs it: as_user,
    on_full_disk); returns the process, its JSON lines by input, and its
    summary line."""
    command = list(prefix) + [qc] + args
    p = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=preexec)
    lines = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
    by_input = {line["input"]: line for line in lines if "input" in line}
    summary = next((line for line in lines if line.get("summary")), {})
    return p, by_input, summary


# Runs what follows it with FOLDER ($0) as a 64 KiB tmpfs filled to its last
# page, then lists on stderr, after FULL_DISK_MARK, what the run left there
# besides the filler, and unmounts it. The mount namespace is the test's own;
# its mounts may still reach the parent's where they are shared (a chroot's
# root cannot be made private), hence the unmount.
FULL_DISK = ('mount -t tmpfs -o size=64k tmpfs "$0" || exit 2; '
             'dd if=/dev/zero of="$0/filler" bs=4k 2>/dev/null; '
             '"$@"; status=$?; echo "{mark}" >&2; ls -A "$0" | grep -vx filler >&2; umount "$0"; exit $status')
FULL_DISK_MARK = "--- left on the full disk:"


def as_user(uid):
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]


def on_full_disk(folder):
    unshare = ["unshare", "--mount", "--propagation", "unchanged"]
    if os.geteuid() != 0:  # mounting a tmpfs needs root in a user namespace of our own
        unshare.insert(1, "--map-root-user")
    return unshare + ["sh", "-c", FULL_DISK.format(mark=FULL_DISK_MARK), folder]


def copy_for_nobody(qc, folder):
    """cudahist-qc and the plugin it loads (GST_PLUGIN_PATH), copied under
    FOLDER (world-readable) at the places they have in the build tree, so
    that their relative RUNPATHs still find the meta library: nobody cannot
    enter a private checkout (/root, a mktemp -d folder). Returns the copy of
    cudahist-qc and its GST_PLUGIN_PATH."""
    plugin_dir = os.environ["GST_PLUGIN_PATH"]
    build = os.path.commonpath([os.path.realpath(qc), os.path.realpath(plugin_dir)])
    qc_copy = os.path.join(folder, os.path.relpath(os.path.realpath(qc), build))
    plugin_copy = os.path.join(folder, os.path.relpath(os.path.realpath(plugin_dir), build))
    os.makedirs(os.path.dirname(qc_copy), exist_ok=True)
    shutil.copy(qc, qc_copy)
    # Libraries only, not the objects meson keeps beside them (*.p folders).
    shutil.copytree(plugin_dir, plugin_copy, ignore=lambda _, names: [n for n in names if n.endswith(".p")])
    for parent, folders, files in os.walk(folder):
        os.chmod(parent, 0o755)
        for name in files:
            os.chmod(os.path.join(parent, name), 0o755)
    return qc_copy, plugin_copy


def reachable_by_others(path):
    """Whether every folder above PATH lets other users through."""
    path = os.path.dirname(os.path.realpath(path))
    while True:
        if not os.stat(path).st_mode & 0o001:
            return False
        if path == os.path.dirname(path):
            return True
        path = os.path.dirname(path)


def leftovers(folder):
    return [name for _, _, names in os.walk(folder) for name in names if ".partial-" in name]


def main():
    qc = sys.argv[1]
    if not shutil.which("ffmpeg"):
        print("SKIP: ffmpeg not installed")
        return 77
    work = tempfile.mkdtemp(prefix="qc bad input ")
    try:
        os.chmod(work, 0o755)
        clips = os.path.join(work, "clips ünïcode")
        os.makedirs(clips)
        good = os.path.join(clips, "good clip é.mkv")
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "5", "-c:v", "ffv1", good)
        audio = os.path.join(clips, "audio only ü.mka")
        ffmpeg("-f", "lavfi", "-i", "sine=duration=1", "-c:a", "pcm_s16le", audio)
        whole = os.path.join(work, "whole.mkv")
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "100", "-c:v", "ffv1", whole)
        truncated = os.path.join(clips, "truncated ß.mkv")
        data = open(whole, "rb").read()
        open(truncated, "wb").write(data[:len(data) // 2])
        h264 = os.path.join(work, "h264.mkv")
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "5", "-c:v", "libx264", h264)
        unsupported = os.path.join(clips, "unknown codec ø.mkv")
        avc = open(h264, "rb").read()
        i = avc.find(b"V_MPEG4/ISO/AVC")
        check(i >= 0, "the Matroska codec ID V_MPEG4/ISO/AVC is found to patch")
        open(unsupported, "wb").write(avc[:i] + b"V_MPEG4/ISO/QQQ" + avc[i + 15:])
        unread_format = os.path.join(clips, "gbr ten.mkv")
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "5", "-pix_fmt", "gbrp10le",
               "-c:v", "ffv1", unread_format)
        twelve_bit = os.path.join(clips, "four two two twelve.mkv")
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "5", "-pix_fmt", "yuv422p12le",
               "-c:v", "ffv1", twelve_bit)

        # One run over all of them: the good file gets its report, each other one its error.
        p, results, summary = run_qc(qc, [good, audio, truncated, unsupported, unread_format, twelve_bit])
        print(p.stdout + p.stderr)
        check(p.returncode == 1, f"exit status 1 when some files fail (got {p.returncode})")
        check(results.get(good, {}).get("status") == "written", "the good file is written")
        check(os.path.exists(good + ".qctools.xml.gz"), "the good file's report exists")
        for path, words in ((audio, "no video stream"), (truncated, "truncated"),
                            (unsupported, "unsupported codec"),
                            (unread_format, "decodes to GBR_10LE, which cudahistogram does not read"),
                            (twelve_bit, "no QC figures: signalstats=true and cropdetect=true and field-psnr=true, "
                                         "but I422_12LE has 12-bit samples; signalstats reads 8 to 10 bits")):
            r = results.get(path, {})
            check(r.get("status") == "failed" and words in r.get("error", ""),
                  f"{os.path.basename(path)}: failed with '{words}' ({r.get('error')})")
            check(path in p.stderr, f"{os.path.basename(path)}: its error on stderr names the file")
            check(not os.path.exists(path + ".qctools.xml.gz"), f"{os.path.basename(path)}: no report left")
        check(summary.get("failed") == 5 and summary.get("written") == 1, f"the summary counts them ({summary})")
        check(not leftovers(work), "no temporary report left behind")

        # Interlaced 4:2:0 of 242 lines: avdec's planes are read where its video meta says (V is not
        # a row off, docs/versions.md); a field order the decoder does not give is said, not hidden.
        woven = os.path.join(work, "woven 242.mkv")
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=320x242:rate=25", "-vf", "setfield=tff", "-frames:v", "3",
               "-c:v", "ffv1", "-pix_fmt", "yuv420p", "-field_order", "tt", woven)
        p, results, _ = run_qc(qc, [woven])
        warning = results.get(woven, {}).get("warning", "")
        check(p.returncode == 0 and results.get(woven, {}).get("status") == "written",
              f"an interlaced 4:2:0 file of 242 lines: written ({p.returncode})")
        check("V figures" not in warning, f"  its V plane read where avdec wrote it: no layout warning ({warning})")
        # (The field order depends on the decoder's version: 1.22's avdec_ffv1 gives none.)
        check(warning in ("", "interlaced, but the decoder gave no field order: top_field_first is written as 0"),
              f"  a field order not given is a warning in the JSON line ({warning})")
        check(not warning or ("warning" in p.stderr and woven in p.stderr), "  and on stderr, naming the file")

        # ProRes 4444: FFmpeg decodes it to 12 bits, GStreamer's avdec_prores to 10: said in a warning.
        prores = os.path.join(work, "prores 4444.mov")
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "3", "-c:v", "prores_ks",
               "-profile:v", "4444", "-pix_fmt", "yuv444p10le", prores)
        p, results, _ = run_qc(qc, [prores])
        warning = results.get(prores, {}).get("warning", "")
        check(p.returncode == 0 and results.get(prores, {}).get("status") == "written",
              f"a ProRes 4444 file: written ({p.returncode})")
        check("ProRes 4444 decoded to 10 bits: FFmpeg decodes it to 12" in warning,
              f"its figures' difference from qcli's is a warning ({warning})")

        # An existing report is left alone, and replaced with --force.
        report = good + ".qctools.xml.gz"
        with open(report, "wb") as f:
            f.write(b"not a report")
        p, results, _ = run_qc(qc, [good])
        check(p.returncode == 0 and results.get(good, {}).get("status") == "skipped", "an existing report: skipped")
        check(open(report, "rb").read() == b"not a report", "an existing report: left as it was")
        p, results, _ = run_qc(qc, ["--force", good])
        with gzip.open(report) as f:
            check(b"lavfi.signalstats.YMIN" in f.read(), "--force replaces it with a report")

        # A full disk: the report's writes fail with ENOSPC.
        out = os.path.join(work, "full disk ø")
        os.makedirs(out)
        p, results, _ = run_qc(qc, ["-o", out, whole], prefix=on_full_disk(out))
        print(p.stdout + p.stderr)
        r = results.get(whole, {})
        check(p.returncode == 1 and r.get("status") == "failed" and "cannot write the report" in r.get("error", "")
              and "No space left on device" in r.get("error", ""),
              f"a full disk (ENOSPC): the file fails with the system's error ({r.get('error')})")
        check(whole in p.stderr.split(FULL_DISK_MARK)[0], "a full disk (ENOSPC): the error names the file")
        left = p.stderr.split(FULL_DISK_MARK)[-1].split() if FULL_DISK_MARK in p.stderr else None
        check(left == [], f"a full disk (ENOSPC): neither a report nor a temporary file is left ({left})")

        # A file-size limit makes the report's writes fail (EFBIG).
        small_limit = 4096
        out = os.path.join(work, "full disk")
        os.makedirs(out)
        limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (small_limit, small_limit))
        p, results, _ = run_qc(qc, ["-o", out, whole], preexec=limit)
        r = results.get(whole, {})
        print(p.stdout + p.stderr)
        check(p.returncode == 1 and r.get("status") == "failed" and "cannot write the report" in r.get("error", ""),
              f"a full disk: the file fails with a write error ({r.get('error')})")
        check(whole in p.stderr, "a full disk: the error names the file")
        check(not os.listdir(out), "a full disk: neither a report nor a temporary file is left")

        # An unreadable folder, beside a good file: the folder's error, the file's report.
        locked = os.path.join(work, "locked folder ñ")
        os.makedirs(locked)
        shutil.copy(good, os.path.join(locked, "inside.mkv"))
        os.chmod(locked, 0)
        second = os.path.join(work, "second good.mkv")
        shutil.copy(good, second)
        prefix, qc_run = (), qc
        if os.geteuid() == 0:  # root reads any folder: run as nobody, who does not
            check(reachable_by_others(work), f"nobody can reach the test's folder {work} (set TMPDIR elsewhere)")
            qc_run, plugin_path = copy_for_nobody(qc, os.path.join(work, "for nobody"))
            prefix = as_user(65534) + ["env", f"GST_PLUGIN_PATH={plugin_path}",
                                       f"GST_REGISTRY={os.path.join(work, 'registry.bin')}"]
            os.chmod(second, 0o644)
            os.chmod(work, 0o777)
        p, results, summary = run_qc(qc_run, [locked, second], prefix=prefix)
        print(p.stdout + p.stderr)
        r = results.get(locked, {})
        check(p.returncode == 1 and r.get("status") == "failed" and "cannot read the folder" in r.get("error", ""),
              f"an unreadable folder: its error ({r.get('error')})")
        check(locked in p.stderr, "an unreadable folder: the error names it")
        check(results.get(second, {}).get("status") == "written", "an unreadable folder: the other file goes on")
        os.chmod(locked, 0o755)

        # A folder on a machine without GIO's MIME database (the GPU host has
        # none): video files are still found by their extension, other files
        # are still left out.
        plain = os.path.join(work, "no mime database")
        os.makedirs(plain)
        shutil.copy(good, os.path.join(plain, "tape.MKV"))
        open(os.path.join(plain, "notes.txt"), "w").write("not video")
        os.environ["XDG_DATA_DIRS"] = os.path.join(work, "no such folder")
        p, results, summary = run_qc(qc, [plain])
        del os.environ["XDG_DATA_DIRS"]
        check(p.returncode == 0 and summary.get("written") == 1 and summary.get("files") == 1,
              f"no MIME database: the video file by its extension, the text file left out ({summary})")

        # Files at once: one per core on the CPU backend unless -j says otherwise.
        cores = len(os.sched_getaffinity(0))
        p, results, summary = run_qc(qc, ["--cpu", "--force", plain])
        check(p.returncode == 0 and summary.get("jobs") == cores,
              f"--cpu without -j runs one file per core, {cores} ({summary})")
        p, results, summary = run_qc(qc, ["--cpu", "--force", "-j", "3", plain])
        check(p.returncode == 0 and summary.get("jobs") == 3, f"-j 3 runs 3 files at once ({summary})")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
