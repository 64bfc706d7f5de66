"""The Grafana dashboard (grafana-dashboard.json) and the alerting rules
against what a real monitor exports. The dashboard is checked as a Grafana
dashboard model: schemaVersion, uid and title, panels with unique ids inside
the 24-column grid, every query on a Prometheus datasource variable, a
stream variable and one row repeated on it. Then a monitor watching a stream
with audio and one without is scraped by a real Prometheus: every metric the
dashboard or the rules name is one the monitor exports (taken from its
/metrics), every alarm it exports has a rule, and every query of every panel,
its variables filled in as Grafana would, runs in Prometheus and returns
series for the stream with audio."""

import json
import os
import re
import socket
import sys
import tempfile

import yaml
from prometheus_client.parser import text_string_to_metric_families

from monitor_harness import (HERE, Monitor, Prometheus, av_sender, fail, file_uri, free_port, make_file, stop_all,
                             wait_for)

binary = sys.argv[1]
work = tempfile.mkdtemp(prefix="cudahist-monitor-dashboard-")
DASHBOARD = os.path.join(HERE, "..", "grafana-dashboard.json")
RULES = os.path.join(HERE, "..", "alerts.rules.yml")
PANEL_TYPES = {"row", "stat", "timeseries", "state-timeline", "table", "gauge", "bargauge", "text"}
METRIC = re.compile(r"\b(cudahist_[a-z0-9_]+|up)\b")
processes = []


def check_model(d):
    """The dashboard as a Grafana dashboard model; its queries (expr, panel title)."""
    for key, kind in (("title", str), ("uid", str), ("schemaVersion", int), ("panels", list), ("templating", dict)):
        if not isinstance(d.get(key), kind):
            fail("the dashboard's %s is %r, not a %s" % (key, d.get(key), kind.__name__))
    if d["schemaVersion"] < 36:
        fail("schemaVersion %d: older than Grafana 9's datasource references" % d["schemaVersion"])
    variables = {v["name"]: v for v in d["templating"]["list"]}
    source = [v for v in variables.values() if v["type"] == "datasource" and v["query"] == "prometheus"]
    if len(source) != 1:
        fail("no single Prometheus datasource variable: %s" % list(variables.values()))
    source_ref = "${%s}" % source[0]["name"]
    if variables.get("stream", {}).get("type") != "query":
        fail("no stream variable")
    queries, ids, rows = [], set(), []
    for v in variables.values():
        if v["type"] == "query":
            if v["datasource"]["uid"] != source_ref:
                fail("variable %s does not query %s" % (v["name"], source_ref))
            queries.append((v["query"]["query"], "variable " + v["name"]))
    for p in d["panels"]:
        if p.get("type") not in PANEL_TYPES or not isinstance(p.get("id"), int) or p["id"] in ids:
            fail("panel %r: unknown type or missing or repeated id" % p.get("title"))
        ids.add(p["id"])
        g = p.get("gridPos", {})
        if not all(isinstance(g.get(k), int) for k in "xywh") or g["x"] < 0 or g["w"] < 1 or g["x"] + g["w"] > 24:
            fail("panel %r lies outside the 24-column grid: %s" % (p["title"], g))
        if p["type"] == "row":
            rows.append(p)
            continue
        if p["datasource"]["uid"] != source_ref or not p.get("targets"):
            fail("panel %r does not query %s" % (p["title"], source_ref))
        for t in p["targets"]:
            if t["datasource"]["uid"] != source_ref or not t.get("refId") or not t.get("expr"):
                fail("a query of panel %r lacks its datasource, refId or expr: %s" % (p["title"], t))
            queries.append((t["expr"], p["title"]))
    if not any(r.get("repeat") == "stream" for r in rows):
        fail("no row repeats on $stream: %s" % rows)
    return queries


def grafana_fills(expr, stream):
    """expr as Grafana sends it for one stream, every monitor."""
    return expr.replace("$__rate_interval", "1m").replace('"$stream"', '"%s"' % stream).replace('"$instance"', '".*"')


try:
    dashboard = json.load(open(DASHBOARD))
    queries = check_model(dashboard)
    print("dashboard model: schemaVersion %d, %d panels, %d queries, a Prometheus datasource variable, rows repeated "
          "on $stream" % (dashboard["schemaVersion"], len(dashboard["panels"]), len(queries)))
    rules = yaml.safe_load(open(RULES))["groups"][0]["rules"]

    udp = free_port(socket.SOCK_DGRAM)
    processes.append(av_sender(udp, "tone"))
    bars = make_file(os.path.join(work, "bars.mp4"), frames=30)
    config = os.path.join(work, "dashboard.conf")
    with open(config, "w") as f:
        f.write("[stream tone]\nuri=udp://127.0.0.1:%d\n[stream bars]\nuri=%s\nloop=true\n" % (udp, file_uri(bars)))
    monitor = Monitor(binary, ["--config", config])
    processes.append(monitor.process)
    monitor.wait_up("tone")
    wait_for("the tone's loudness", lambda: monitor.value("cudahist_audio_short_term_lufs", "tone") is not None, 20)
    scrape = monitor.get("/metrics").decode()
    exported = {s.name for family in text_string_to_metric_families(scrape) for s in family.samples}
    alarms = {s.labels["alarm"] for family in text_string_to_metric_families(scrape) for s in family.samples
              if s.name == "cudahist_alarm_active"}

    named = {m for expr, _ in queries for m in METRIC.findall(expr)} | \
            {m for r in rules for m in METRIC.findall(r["expr"])}
    unknown = named - exported - {"up"}
    if unknown:
        fail("the dashboard or the rules query metrics the monitor does not export: %s" % sorted(unknown))
    ruled = {a for r in rules for a in re.findall(r'alarm="([a-z_]+)"', r["expr"])}
    if alarms != ruled:
        fail("alarms without a rule: %s; rules of no alarm: %s" % (sorted(alarms - ruled), sorted(ruled - alarms)))
    print("%d metrics named by the dashboard and the rules, all in a real scrape; %d alarms, each with a rule"
          % (len(named), len(alarms)))

    prometheus = Prometheus("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n"
                            "  - alerts.rules.yml\nscrape_configs:\n  - job_name: cudahist\n    static_configs:\n"
                            "      - targets: ['127.0.0.1:%d']\n" % monitor.port, work)
    processes.append(prometheus.process)
    wait_for("Prometheus to hold a minute's worth of the tone", lambda: prometheus.query(
        'count_over_time(cudahist_audio_short_term_lufs{stream="tone"}[1m]) > 4'), 60)
    for expr, where in queries:
        if "label_values(" in expr:
            label, match = re.match(r'label_values\((.*), (\w+)\)$', expr).group(2, 1)
            answer = prometheus.answer("label/%s/values" % label, **{"match[]": grafana_fills(match, "tone")})
            ok = answer and answer["status"] == "success" and answer["data"]
        else:
            answer = prometheus.answer("query", query=grafana_fills(expr, "tone"))
            ok = answer and answer["status"] == "success" and answer["data"]["result"]
            if where == "Raised alarms":  # the table lists what is raised: maybe nothing; it must run
                ok = answer and answer["status"] == "success"
        if not ok:
            fail("%s: %s answered %s" % (where, grafana_fills(expr, "tone"), answer))
    print("every query of the dashboard runs in Prometheus and returns series for the stream with audio")
    print("PASS")
finally:
    stop_all(processes)
