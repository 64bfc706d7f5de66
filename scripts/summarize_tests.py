#!/usr/bin/env python3
"""Counts test cases from the test logs of meson builds (the main build, then
the sanitizer builds scripts/sanitize.sh made beside it).

GoogleTest suites (meson protocol 'gtest') are counted case by case from the
JUnit XML each one writes; any other test counts as one case. Prints the
details of what failed or skipped, then, last, "N passed, N failed, N skipped".
Exits 1 when anything failed.
"""
import json
import os
import sys
import xml.etree.ElementTree as ET


def gtest_cases(xml_path):
    """(passed, failed, skipped, names of failed/skipped) from a gtest JUnit file."""
    passed = failed = skipped = 0
    notes = []
    for case in ET.parse(xml_path).getroot().iter("testcase"):
        name = f"{case.get('classname')}.{case.get('name')}"
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
            notes.append(f"FAILED  {name}")
        elif case.find("skipped") is not None or case.get("result") == "skipped":
            skipped += 1
            msg = case.find("skipped")
            why = " ".join((msg.get("message") or "").split()) if msg is not None else ""
            notes.append(f"skipped {name}{': ' + why if why else ''}")
        elif case.get("status", "run") == "run":
            passed += 1
    return passed, failed, skipped, notes


def gtest_xml_path(build, test):
    """The JUnit XML meson told a gtest-protocol test to write (--gtest_output=xml:NAME.xml
    in the build folder, NAME without the "project:suite / " prefix the log shows), or None."""
    short = test["name"].split(" / ")[-1]
    path = os.path.join(build, f"{short}.xml")
    if os.path.exists(path) and os.path.getmtime(path) >= test.get("starttime", 0) - 1:
        return path
    return None


def count(build, totals, notes, label=""):
    """Adds the cases of BUILD's test log to TOTALS (passed, failed, skipped)
    and what failed or skipped to NOTES (each after LABEL); a missing log
    counts as one failure."""
    start = len(notes)
    log = os.path.join(build, "meson-logs", "testlog.json")
    if not os.path.exists(log):
        notes.append(f"{label}FAILED  no test log at {log}")
        totals[1] += 1
        return
    with open(log) as f:
        for line in f:
            if not line.strip():
                continue
            t = json.loads(line)
            name, result = t["name"], t["result"]
            xml_path = gtest_xml_path(build, t)
            if xml_path and os.path.exists(xml_path):
                p, fl, s, n = gtest_cases(xml_path)
                if result not in ("OK", "SKIP") and fl == 0:
                    fl = 1  # crashed or timed out outside any test case
                    n.append(f"FAILED  {name}: {result} (exit {t.get('returncode')})")
                counted = (p, fl, s)
                notes += [f"[{name}] {x}" for x in n]
            elif result == "OK":
                counted = (1, 0, 0)
            elif result == "SKIP":
                counted = (0, 0, 1)
                notes.append(f"skipped {name}")
            else:
                counted = (0, 1, 0)
                notes.append(f"FAILED  {name}: {result}")
            for i, c in enumerate(counted):
                totals[i] += c
    notes[start:] = [label + n for n in notes[start:]]


def main(builds):
    totals = [0, 0, 0]
    notes = []
    for i, build in enumerate(builds):
        # The sanitizer builds' notes say which build they come from.
        count(build, totals, notes, f"{os.path.basename(os.path.normpath(build))}: " if i else "")
    for n in notes:
        print(n)
    print(f"{totals[0]} passed, {totals[1]} failed, {totals[2]} skipped")
    return 1 if totals[1] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["build"]))
