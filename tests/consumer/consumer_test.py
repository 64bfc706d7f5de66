#!/usr/bin/python3
"""Applications built against an installed cudahistogram, as a user builds them.

    consumer_test.py BUILD_DIR SOURCE_DIR MESON

Installs the build into a temporary folder (meson install --destdir), then,
in another temporary folder and with nothing from the source or build tree
(only the staged prefix, pkg-config and the system's compilers):
  - compiles every installed public header alone;
  - builds and runs docs/applications.md's C snippet reading GstCudaHistogramMeta
    (tests/consumer/meta_reader.c around it), the element loaded from the prefix;
  - builds and runs a C++ program of the cudahist library counting a 1080p
    frame on the CPU backend (tests/consumer/count_frame.cc), once with
    pkg-config alone and once with the application's own CUDA runtime;
  - runs the installed examples/probe_meta.py through the prefix's typelib.
The staged .pc files find their prefix from their own place (the project's
default, pkgconfig.relocatable=true).
"""
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

BUILD_DIR, SOURCE_DIR, MESON = (os.path.abspath(a) for a in sys.argv[1:4])
del sys.argv[1:4]
HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGES = ("cudahist", "gstreamer-cudahistogram-meta-1.0")
# Whatever points into the build or source tree is dropped from the environment.
TREE_VARIABLES = ("GST_PLUGIN_PATH", "GST_PLUGIN_PATH_1_0", "GI_TYPELIB_PATH", "LD_LIBRARY_PATH",
                  "PKG_CONFIG_PATH", "PYTHONPATH", "GST_REGISTRY", "GST_REGISTRY_1_0", "BUILD_DIR")
# The snippets of docs/applications.md, and the pipeline of its Python program,
# which the C snippet runs too: both must print the same lines.
DOCS_PAGE = os.path.join("docs", "applications.md")
DOCS_C_SECTION, DOCS_PYTHON_SECTION = "## The meta in C", "## The meta in Python"
SNIPPET_PIPELINE = ("videotestsrc num-buffers=3 ! video/x-raw,format=NV12 ! cudahistogram name=histogram "
                    "post-messages=false ! fakesink")


def run(command, env, cwd, check=True):
    result = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=240)
    if check and result.returncode != 0:
        raise AssertionError("%s exited with %d:\n%s%s" % (
            " ".join(command), result.returncode, result.stdout, result.stderr))
    return result


def build_options():
    options = json.loads(subprocess.run([MESON, "introspect", "--buildoptions", BUILD_DIR],
                                        capture_output=True, text=True, check=True).stdout)
    return {o["name"]: o["value"] for o in options}


def docs_block(heading, language):
    """The first ```language block after `heading` in docs/applications.md."""
    with open(os.path.join(SOURCE_DIR, DOCS_PAGE)) as f:
        page = f.read()
    start = page.index(heading)
    return re.search(r"```%s\n(.*?)```" % language, page[start:], re.S).group(1)


def docs_c_snippet():
    """The C snippet of docs/applications.md: (its #include lines, the rest)."""
    lines = docs_block(DOCS_C_SECTION, "c").splitlines()
    includes = [l for l in lines if l.startswith("#include")]
    return "\n".join(includes) + "\n", "\n".join(l for l in lines if not l.startswith("#include")) + "\n"


def cuda_toolkit():
    """The CUDA toolkit's root (beside nvcc), or None."""
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    return os.path.dirname(os.path.dirname(os.path.realpath(nvcc))) if os.path.exists(nvcc) else None


class Prefix:
    """The staged install and an environment that sees only it."""

    def __init__(self, tmp):
        options = build_options()
        if not options.get("pkgconfig.relocatable"):
            raise AssertionError("the build's .pc files name a fixed prefix: configure it with "
                                 "-Dpkgconfig.relocatable=true (the project's default) to stage them")
        stage = os.path.join(tmp, "stage")
        run([MESON, "install", "-C", BUILD_DIR, "--no-rebuild", "--quiet", "--destdir", stage],
            env=os.environ, cwd=tmp)
        self.root = stage + options["prefix"]
        self.libdir = os.path.join(self.root, options["libdir"])
        self.includedir = os.path.join(self.root, options["includedir"])
        self.datadir = os.path.join(self.root, options["datadir"])
        self.work = os.path.join(tmp, "work")
        os.mkdir(self.work)
        self.env = {k: v for k, v in os.environ.items() if k not in TREE_VARIABLES}
        self.env.update({
            "PKG_CONFIG_PATH": os.path.join(self.libdir, "pkgconfig"),
            "GST_PLUGIN_PATH": os.path.join(self.libdir, "gstreamer-1.0"),
            "GI_TYPELIB_PATH": os.path.join(self.libdir, "girepository-1.0"),
            "LD_LIBRARY_PATH": self.libdir,
            "GST_REGISTRY": os.path.join(tmp, "registry.bin"),
        })

    def pkg_config(self, *args):
        return shlex.split(run(["pkg-config"] + list(args), self.env, self.work).stdout)

    def run(self, command, check=True):
        return run(command, self.env, self.work, check)


class Consumer(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="cudahistogram-consumer-")
        cls.prefix = Prefix(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def copy_source(self, name):
        shutil.copy(os.path.join(HERE, name), self.prefix.work)
        return name

    def test_pkg_config_names_the_staged_prefix_only(self):
        for package in PACKAGES:
            flags = self.prefix.pkg_config("--cflags", "--libs", package)
            own = [f for f in flags if f.startswith(("-I", "-L")) and self.prefix.root in f]
            self.assertTrue(own, "%s: %s" % (package, flags))
            for flag in own:
                self.assertTrue(os.path.isdir(flag[2:]), flag)
        self.assertEqual(self.prefix.pkg_config("--modversion", "cudahist"),
                         self.prefix.pkg_config("--modversion", "gstreamer-cudahistogram-meta-1.0"))

    def test_installed_files_where_a_distribution_puts_them(self):
        lib = self.prefix.libdir
        for path in ["libcudahist.so", "libgstcudahistogrammeta-1.0.so", "gstreamer-1.0/libgstcudahistogram.so",
                     "girepository-1.0/GstCudaHistogram-1.0.typelib", "pkgconfig/cudahist.pc",
                     "pkgconfig/gstreamer-cudahistogram-meta-1.0.pc"]:
            self.assertTrue(os.path.exists(os.path.join(lib, path)), path)
        self.assertTrue(os.path.exists(os.path.join(self.prefix.datadir, "gir-1.0", "GstCudaHistogram-1.0.gir")))
        self.assertTrue(os.path.exists(os.path.join(self.prefix.datadir, "cudahistogram", "examples",
                                                    "probe_meta.py")))
        soname = self.prefix.run(["readelf", "-d", os.path.join(lib, "libcudahist.so")]).stdout
        self.assertIn("Library soname: [libcudahist.so.0]", soname)
        # The CUDA runtime is inside (static), so only the driver is needed at run time.
        self.assertNotIn("libcudart", soname)
        self.assertNotIn("libcuda.so", soname)

    def test_every_public_header_compiles_alone(self):
        headers = sorted(glob.glob(os.path.join(self.prefix.includedir, "cudahist", "*.h")))
        self.assertGreaterEqual(len(headers), 5)
        checks = [("c++", "cudahist/" + os.path.basename(h), "cudahist", ["-std=c++17"]) for h in headers]
        checks.append(("cc", "gstcudahistogrammeta.h", "gstreamer-cudahistogram-meta-1.0", []))
        for compiler, header, package, extra in checks:
            with self.subTest(header=header):
                source = os.path.join(self.prefix.work, "alone.%s" % ("cc" if compiler == "c++" else "c"))
                with open(source, "w") as f:
                    f.write("#include <%s>\n" % header)
                self.prefix.run([compiler, "-Wall", "-Wextra", "-Werror", "-fsyntax-only"] + extra +
                                self.prefix.pkg_config("--cflags", package) + [source])

    def test_public_headers_say_nothing_of_the_build(self):
        trees = [os.path.realpath(BUILD_DIR), os.path.realpath(SOURCE_DIR)]
        headers = glob.glob(os.path.join(self.prefix.includedir, "**", "*.h"), recursive=True)
        self.assertTrue(headers)
        for header in headers:
            with open(header) as f:
                text = f.read()
            for tree in trees:
                self.assertNotIn(tree, text, header)

    def meta_reader(self):
        """meta_reader built around the docs' C snippet (once per test run)."""
        program = os.path.join(self.prefix.work, "meta_reader")
        if not os.path.exists(program):
            includes, snippet = docs_c_snippet()
            for name, text in (("docs_includes.inc", includes), ("docs_snippet.inc", snippet)):
                with open(os.path.join(self.prefix.work, name), "w") as f:
                    f.write(text)
            source = self.copy_source("meta_reader.c")
            self.prefix.run(["cc", "-Wall", "-Wextra", "-Werror", source, "-o", program] +
                            self.prefix.pkg_config("--cflags", "--libs", "gstreamer-cudahistogram-meta-1.0"))
        return program

    def test_docs_c_snippet_reads_the_meta(self):
        result = self.prefix.run([
            self.meta_reader(),
            "videotestsrc num-buffers=3 pattern=white ! video/x-raw,format=NV12,width=64,height=48 ! "
            "cudahistogram name=histogram ! fakesink"])
        lines = result.stdout.splitlines()
        self.assertTrue(lines[0].startswith("plugin: " + self.prefix.libdir), lines[0])
        # videotestsrc's white is luma 235 (limited range); a bare buffer prints nothing.
        self.assertEqual(lines[1:], ["64x48 NV12: mean luma in bin 235.0 of 256"] * 3 + ["frames: 3"])

    def test_docs_python_program_prints_what_the_c_snippet_prints(self):
        program = docs_block(DOCS_PYTHON_SECTION, "python")
        python = self.prefix.run([sys.executable, "-c", program]).stdout.splitlines()
        c = self.prefix.run([self.meta_reader(), SNIPPET_PIPELINE]).stdout.splitlines()[1:-1]
        self.assertEqual(len(python), 3, python)
        self.assertRegex(python[0], r"^320x240 NV12: mean luma in bin [\d.]+ of 256$")
        self.assertEqual(python, c)

    def test_cpp_program_counts_a_frame_on_the_cpu_backend(self):
        source = self.copy_source("count_frame.cc")
        self.prefix.run(["c++", "-std=c++17", "-Wall", "-Wextra", "-Werror", source, "-o", "count_frame"] +
                        self.prefix.pkg_config("--cflags", "--libs", "cudahist"))
        needed = self.prefix.run(["readelf", "-d", "count_frame"]).stdout
        self.assertIn("[libcudahist.so.0]", needed)
        self.assertNotIn("libcudart", needed)
        result = self.prefix.run([os.path.join(self.prefix.work, "count_frame")])
        lines = result.stdout.splitlines()
        self.assertEqual(lines[0], "cpu: 1920x1080 NV12 counted, Y U V equal the expected counts")
        self.assertRegex(lines[1], r"^gpu: (none here \(no CUDA device: .*\)|Histogrammer created; .*)$")

    def test_cpp_program_with_its_own_cuda_runtime(self):
        toolkit = cuda_toolkit()
        self.assertIsNotNone(toolkit, "no nvcc on PATH or in /usr/local/cuda: the build needs it too")
        source = self.copy_source("count_frame.cc")
        runtime = ["-I" + os.path.join(toolkit, "include"), "-L" + os.path.join(toolkit, "lib64"),
                   "-lcudart_static", "-ldl", "-lrt", "-pthread"]
        self.prefix.run(["c++", "-std=c++17", "-Wall", "-Wextra", "-Werror", source, "-o", "count_frame_cuda"] +
                        self.prefix.pkg_config("--cflags", "--libs", "cudahist") + runtime)
        result = self.prefix.run([os.path.join(self.prefix.work, "count_frame_cuda")])
        lines = result.stdout.splitlines()
        self.assertEqual(lines[0], "cpu: 1920x1080 NV12 counted, Y U V equal the expected counts")
        self.assertRegex(lines[1], r"^gpu: (none here \(no CUDA device: .*\)|"
                                   r"1920x1080 NV12 counted, Y U V equal the expected counts)$")

    def test_python_example_through_the_typelib(self):
        example = os.path.join(self.prefix.datadir, "cudahistogram", "examples", "probe_meta.py")
        result = self.prefix.run([sys.executable, example, "--cpu", "--frames", "3", "--pattern", "white"])
        lines = result.stdout.splitlines()
        self.assertEqual(len(lines), 3, result.stdout + result.stderr)
        for line in lines:
            self.assertIn("NV12 640x360  256 bins  |  Y mean  235.0 p5   235 p50   235 p95   235", line)
        self.assertIn("3 frames, 0 without a meta", result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
