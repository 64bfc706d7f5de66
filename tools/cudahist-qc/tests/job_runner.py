#!/usr/bin/env python3
"""docs/qc.md's GNU parallel command, run as the page writes it, with this
machine as its only host (`1/:` in place of the ssh logins), over a folder of
clips with one broken file; then, the file mended, the same command again, as
the page says to finish what failed:

  - the first run: a report for every good file, the broken file's error in
    the JSON lines, the job's failure in the joblog;
  - the second run: only the failed job runs again; the files already done
    are skipped and the mended one is written;
  - the page's jq line names the broken file after the first run and nothing
    after the second.

Usage: job_runner.py CUDAHIST_QC DOCS_QC_MD.  Exit: 0 pass, 1 fail.
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from checks import check, ffmpeg, verdict

HOSTS_ON_THE_PAGE = "--sshlogin 1/gpu1,1/gpu2,1/gpu3"
THIS_MACHINE = "--sshlogin 1/:"


def shell_blocks(page):
    return re.findall(r"```sh\n(.*?)```", open(page, encoding="utf-8").read(), re.S)


def commands_on_the_page(page):
    """The GNU parallel command and the jq line, as docs/qc.md writes them."""
    blocks = shell_blocks(page)
    parallel = next(b for b in blocks if "parallel -0" in b)
    jq = next(b for b in blocks if b.startswith("jq "))
    return parallel, jq


def last_lines(jsonl):
    """Each file's last JSON line, by its input."""
    last = {}
    for line in open(jsonl, encoding="utf-8"):
        if line.strip():
            entry = json.loads(line)
            if "input" in entry:
                last[entry["input"]] = entry
    return last


def joblog_exit_values(joblog):
    rows = [line.rstrip("\n").split("\t") for line in open(joblog, encoding="utf-8")][1:]
    return [int(row[6]) for row in rows]


def run(command, cwd, env):
    p = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    print(f"$ {command}\n{p.stdout}{p.stderr}")
    return p


def make_collection(archive):
    """Two good clips and a truncated one below ARCHIVE, and a text file the
    page's find leaves out; returns the good ones, the truncated one, and the
    whole clip (outside ARCHIVE) that later mends it."""
    good = os.path.join(archive, "reel 1 ü.mkv")
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "6", "-c:v", "ffv1", good)
    below = os.path.join(archive, "box 2")
    os.makedirs(below)
    prores = os.path.join(below, "reel 2.mov")
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "6", "-c:v", "prores_ks",
           "-pix_fmt", "yuv422p10le", prores)
    broken = os.path.join(below, "reel 3.mkv")
    longer = os.path.join(archive, "..", "longer.mkv")
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "100", "-c:v", "ffv1", longer)
    data = open(longer, "rb").read()
    open(broken, "wb").write(data[:len(data) // 2])
    open(os.path.join(below, "notes.txt"), "w").write("not a video, and not found by the page's find")
    return [good, prores], broken, longer


def main():
    qc, page = sys.argv[1], sys.argv[2]
    missing = [tool for tool in ("ffmpeg", "parallel", "jq") if not shutil.which(tool)]
    if missing:
        print(f"FAIL: {', '.join(missing)} not installed (scripts/install-deps.sh installs them)")
        return 1
    parallel, jq = commands_on_the_page(page)
    check(HOSTS_ON_THE_PAGE in parallel and "/archive" in parallel,
          f"the page's command names its hosts and /archive ({parallel!r})")

    work = tempfile.mkdtemp(prefix="qc job runner ")
    try:
        archive = os.path.join(work, "archive ø")
        os.makedirs(archive)
        good, broken, longer = make_collection(archive)
        command = parallel.replace(HOSTS_ON_THE_PAGE, THIS_MACHINE).replace("/archive", shlex.quote(archive))
        env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(qc)) + os.pathsep + os.environ["PATH"])
        jsonl = os.path.join(work, "qc.jsonl")
        joblog = os.path.join(work, "qc.joblog")

        run(command, work, env)
        first_run_lines = len(open(jsonl, encoding="utf-8").readlines())
        last = last_lines(jsonl)
        check(all(last.get(f, {}).get("status") == "written" and os.path.exists(f + ".qctools.xml.gz") for f in good),
              "first run: every good file's report is written beside it")
        check(last.get(broken, {}).get("status") == "failed" and "truncated" in last[broken].get("error", ""),
              f"first run: the broken file failed, and says why ({last.get(broken)})")
        check(len(last) == 3, f"first run: a line for each of the 3 video files, none for notes.txt ({sorted(last)})")
        check(joblog_exit_values(joblog) == [1], f"first run: one job, failed ({joblog_exit_values(joblog)})")
        p = run(jq, work, env)
        named = [entry["input"] for entry in json.loads(p.stdout)] if p.returncode == 0 else None
        check(named == [broken], f"the page's jq line names the broken file ({named})")

        shutil.copy(longer, broken)
        run(command, work, env)
        new_lines = [json.loads(line) for line in open(jsonl, encoding="utf-8").readlines()[first_run_lines:]]
        statuses = {entry["input"]: entry["status"] for entry in new_lines if "input" in entry}
        check(statuses == {good[0]: "skipped", good[1]: "skipped", broken: "written"},
              f"second run: the done files skipped, the mended one written ({statuses})")
        check(joblog_exit_values(joblog) == [1, 0], f"second run: the failed job ran again, and passed "
              f"({joblog_exit_values(joblog)})")
        p = run(jq, work, env)
        check(p.returncode == 0 and json.loads(p.stdout) == [], f"the page's jq line names nothing now ({p.stdout!r})")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
