#!/usr/bin/python3
"""Every relative link of the documentation resolves, and every repository path it names exists.

    check_links.py SOURCE_DIR

Reads README.md, docs/**/*.md and bench/RESULTS.md. In each, every Markdown
link or image `[text](target)` and every HTML `src="..."` / `href="..."` that
is not a URL must name a file or folder of the repository, and its `#anchor`,
if any, a heading of the page it points to (GitHub's anchors). In README.md
and docs/, every `path` in backticks that starts with a top folder of the
repository and names a file (it has an extension) or a folder (it ends in /)
must exist too. "Of the repository": tracked by git where SOURCE_DIR is a git
checkout, else present on disk. Exits 1 with one line per dangling reference.
"""
import glob
import os
import re
import subprocess
import sys

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HTML_LINK = re.compile(r"""\b(?:src|href)="([^"]+)\"""")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^\s*(```|~~~)")
TOP_FOLDERS = ("kernels/", "gst-plugin/", "tests/", "examples/", "bench/", "scripts/", "tools/", "docs/", ".ci/")


def repository_files(root):
    """The repository's files, relative to root: git's tracked ones, or the tree's without git."""
    try:
        listed = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True).stdout
        files = {f for f in listed.decode().split("\0") if f}
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    files = set()
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith((".git", "build"))]
        files |= {os.path.relpath(os.path.join(folder, n), root) for n in names}
    return files


def folders_of(files):
    folders = set()
    for f in files:
        parts = f.split("/")[:-1]
        folders |= {"/".join(parts[:i]) for i in range(1, len(parts) + 1)}
    return folders


def prose_lines(text):
    """(line number, line) of the lines outside fenced code blocks."""
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            yield number, line


def anchors(text):
    """The anchors GitHub gives the page's headings."""
    seen, result = {}, set()
    for _, line in prose_lines(text):
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        slug = re.sub(r"[^\w\- ]", "", match.group(1).replace("`", "").lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        result.add(slug if count == 0 else "%s-%d" % (slug, count))
    return result


class Checker:
    def __init__(self, root):
        self.root = root
        self.files = repository_files(root)
        self.folders = folders_of(self.files)
        self.problems = []

    def exists(self, path):
        path = os.path.normpath(path)
        return path in self.files or path in self.folders

    def check_link(self, page, number, target):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
            return  # a URL
        path, _, anchor = target.partition("#")
        linked = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        if path and not self.exists(linked):
            self.problems.append("%s:%d: %s: no such file or folder in the repository" % (page, number, target))
        elif anchor and linked.endswith(".md"):
            with open(os.path.join(self.root, linked)) as f:
                if anchor not in anchors(f.read()):
                    self.problems.append("%s:%d: %s: %s has no heading with that anchor" % (page, number, target, linked))

    def check_path(self, page, number, span):
        if re.search(r"[\s*{}<>$]", span) or not span.startswith(TOP_FOLDERS):
            return
        if span.endswith("/") or "." in os.path.basename(span):
            if not self.exists(span):
                self.problems.append("%s:%d: `%s`: no such file or folder in the repository" % (page, number, span))

    def check_page(self, page, paths):
        with open(os.path.join(self.root, page)) as f:
            text = f.read()
        for number, line in prose_lines(text):
            for target in LINK.findall(line) + HTML_LINK.findall(line):
                self.check_link(page, number, target)
            if paths:
                for span in CODE_SPAN.findall(line):
                    self.check_path(page, number, span)


def main(root):
    checker = Checker(root)
    docs = sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
    pages = [(p, True) for p in ["README.md"] + docs] + [("bench/RESULTS.md", False)]
    for page, paths in pages:
        checker.check_page(page, paths)
    for problem in checker.problems:
        print(problem)
    if checker.problems:
        sys.exit("check_links: %d dangling references" % len(checker.problems))
    print("check_links: every link and path of %d pages resolves" % len(pages))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(os.path.abspath(sys.argv[1]))
