#!/usr/bin/python3
"""Packs this machine's ffmpeg (Debian's 5.1) into a folder that runs anywhere
with a C library: for the GPU host, which has no FFmpeg (gpuhost-pack.sh).

    ffmpeg_bundle.py OUTDIR [--gst-plugins DIR]

OUTDIR gets bin/ffmpeg, bin/ffprobe, lib/ and `ffmpeg` and `ffprobe`,
wrappers that run them with LD_LIBRARY_PATH=lib only (ffprobe: cudahist-qc's
comparison and speed table on the GPU host run QCTools' graph through it). Debian's ffmpeg links about 200 libraries (240 MB:
every codec, device and filter backend), all bound at load time (BIND_NOW).
What decoding H.264 and FFV1 from MP4 and Matroska and the signalstats filter
run is kept whole: the FFmpeg libraries themselves and the few compression
libraries the demuxers use (KEEP). Every other library a kept one names is
replaced by a stub: a library of the same soname that defines the same
symbols, at the same versions, as functions returning 0 and zeroed data, so
that the loader is satisfied; nothing on those paths is ever called by
`ffmpeg -i clip -vf signalstats -f null -`. gpuhost-run.sh checks the bundle
against figures made here by the real ffmpeg.

--gst-plugins DIR also copies GStreamer's libav plugin (avdec_*) into DIR;
its GStreamer libraries are those of gst-bundle.sh's bundle, its FFmpeg
libraries those of OUTDIR/lib, which must then come AFTER the GStreamer
bundle's lib/ on LD_LIBRARY_PATH (so that the real GLib, X11 and friends that
GStreamer uses win over the stubs of the same names).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# libgme: its probe runs on every input (and dereferences what it returns).
KEEP = re.compile(r"^lib(avcodec|avformat|avfilter|avdevice|avutil|swscale|swresample|postproc|z|bz2|lzma|soxr|gme)\.so")
# The host's own: never copied, never stubbed.
HOST = re.compile(r"^(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libstdc\+\+|libgcc_s|libmvec)\.so")
FFMPEG = "/usr/bin/ffmpeg"
FFPROBE = "/usr/bin/ffprobe"
GST_LIBAV = "/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstlibav.so"


def needed(path):
    """The DT_NEEDED sonames of an ELF file."""
    out = subprocess.run(["objdump", "-p", path], capture_output=True, text=True, check=True).stdout
    return re.findall(r"^\s*NEEDED\s+(\S+)", out, re.M)


def resolved(path):
    """{soname: path} as the loader here resolves `path`'s libraries."""
    out = subprocess.run(["ldd", path], capture_output=True, text=True, check=True).stdout
    return dict(re.findall(r"^\s*(\S+) => (/\S+)", out, re.M))


def defined_symbols(path):
    """[(name, version or None, default version?, is_function, size)] of a shared library's exports."""
    out = subprocess.run(["nm", "-D", "--defined-only", "-S", "--with-symbol-versions", path],
                         capture_output=True, text=True, check=True).stdout
    symbols, versions = [], set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] == "A":  # a version node
            versions.add(fields[2].split("@")[0])
            continue
        if len(fields) not in (3, 4):
            continue
        kind, name = fields[-2], fields[-1]
        size = int(fields[1], 16) if len(fields) == 4 else 8
        version, default = None, True
        if "@@" in name:
            name, version = name.split("@@")
        elif "@" in name:
            name, version = name.split("@", 1)
            default = False
        if version:
            versions.add(version)
        symbols.append((name, version, default, kind in "TtWwiI", max(size, 8)))
    return symbols, sorted(versions)


def make_stub(real, soname, dest, workdir):
    """A library named `soname` in `dest` with `real`'s exports, doing nothing."""
    symbols, versions = defined_symbols(real)
    lines = []
    for i, (name, version, default, function, size) in enumerate(symbols):
        c_name = "stub_%d" % i if version else None
        label = c_name or name
        if function:
            lines.append('long %s(void) __asm__("%s");\nlong %s(void) { return 0; }' % ("s%d" % i, label, "s%d" % i))
        else:
            lines.append('char %s[%d] __asm__("%s") __attribute__((aligned(16)));' % ("s%d" % i, size, label))
        if version:
            lines.append('__asm__(".symver %s, %s%s%s");' % (label, name, "@@" if default else "@", version))
    source = os.path.join(workdir, soname + ".c")
    with open(source, "w") as f:
        f.write("\n".join(lines) + "\n")
    script = os.path.join(workdir, soname + ".map")
    with open(script, "w") as f:
        # Each version node defined, in a chain. No "local: *": it would hide
        # the .symver'd names too; the stub_N labels are harmless extras.
        unversioned = [s[0] for s in symbols if not s[1]]
        if versions:
            for n, v in enumerate(versions):
                glob = "global: %s; " % "; ".join(unversioned) if n == 0 and unversioned else ""
                f.write("%s { %s};\n" % (v, glob))
        else:
            f.write("{ global: *; };\n")
    subprocess.run(["gcc", "-shared", "-fPIC", "-nostdlib", "-O0", "-o", os.path.join(dest, soname),
                    "-Wl,-soname," + soname, "-Wl,--version-script=" + script, source], check=True)


def bundle(outdir, gst_plugins):
    lib = os.path.join(outdir, "lib")
    os.makedirs(os.path.join(outdir, "bin"), exist_ok=True)
    os.makedirs(lib, exist_ok=True)
    programs = [p for p in (FFMPEG, FFPROBE) if os.path.exists(p)]
    for program in programs:
        shutil.copy2(program, os.path.join(outdir, "bin", os.path.basename(program)))
    where = {soname: path for program in programs for soname, path in resolved(program).items()}
    kept, stubs, queue = set(), set(), list(programs)
    while queue:
        for soname in needed(queue.pop()):
            if HOST.match(soname) or soname in kept or soname in stubs:
                continue
            if KEEP.match(soname):
                kept.add(soname)
                queue.append(where[soname])
            else:
                stubs.add(soname)
    if gst_plugins:
        # Its GStreamer libraries come from the GStreamer bundle; its FFmpeg ones are ffmpeg's.
        missing = [n for n in needed(GST_LIBAV) if n.startswith("libav") and n not in kept]
        if missing:
            sys.exit("ffmpeg_bundle: %s needs %s, which ffmpeg does not" % (GST_LIBAV, ", ".join(missing)))
        os.makedirs(gst_plugins, exist_ok=True)
        shutil.copy2(GST_LIBAV, gst_plugins)
    for soname in sorted(kept):
        shutil.copy2(where[soname], os.path.join(lib, soname))
    with tempfile.TemporaryDirectory() as work:
        for soname in sorted(stubs):
            make_stub(where[soname], soname, lib, work)
    for program in programs:
        name = os.path.basename(program)
        wrapper = os.path.join(outdir, name)
        with open(wrapper, "w") as f:
            f.write('#!/bin/sh\n# Debian\'s %s with its bundled libraries only (scripts/ffmpeg_bundle.py).\n'
                    'd=$(cd "$(dirname "$0")" && pwd)\nLD_LIBRARY_PATH="$d/lib" exec "$d/bin/%s" "$@"\n'
                    % (name, name))
        os.chmod(wrapper, 0o755)
    return kept, stubs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--gst-plugins", help="also copy GStreamer's libav plugin into this plugin folder")
    args = parser.parse_args()
    for tool in ("objdump", "nm", "gcc", "ldd"):
        if not shutil.which(tool):
            sys.exit("ffmpeg_bundle: %s not found" % tool)
    if not os.path.exists(FFMPEG):
        sys.exit("ffmpeg_bundle: %s not found: scripts/install-deps.sh installs Debian's ffmpeg" % FFMPEG)
    kept, stubs = bundle(args.outdir, args.gst_plugins)
    print("ffmpeg_bundle: %d libraries kept, %d stubbed, in %s" % (len(kept), len(stubs), args.outdir))


if __name__ == "__main__":
    main()
