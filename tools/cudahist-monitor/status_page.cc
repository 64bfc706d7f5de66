#include "status_page.h"

namespace monitor {

const std::string& StatusPageHtml() {
  // A multiviewer: one tile per stream with its picture beside its scope,
  // its raised alarms and how long each has been raised, its figures with
  // their scale and its audio meters; the last alarm events on the right.
  // The grid takes as many columns as keep every tile on the screen (16
  // streams: 4 x 4, 64: 8 x 8 on 1920x1080), and small tiles drop to one line
  // of figures. A tile's data-state says what its colours say, most severe
  // first: no-signal (red with stripes), alarm (a critical alarm: red),
  // warning (amber), down or starting (grey), ok (green).
  static const std::string html = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cudahist-monitor</title>
<style>
* { box-sizing: border-box; }
html, body { height: 100%; }
body { margin: 0; font: 13px/1.3 system-ui, sans-serif; background: #101316; color: #dde; display: flex;
       flex-direction: column; overflow: hidden; }
header { padding: 4px 10px; background: #1c2126; display: flex; gap: 16px; align-items: baseline; flex: none; }
header h1 { font-size: 15px; margin: 0; }
#summary b { padding: 0 4px; border-radius: 3px; }
#clock { margin-left: auto; font-variant-numeric: tabular-nums; }
#body { flex: 1; display: flex; min-height: 0; }
#grid { flex: 1; display: grid; gap: 5px; padding: 5px; align-content: start; overflow-y: auto;
        grid-template-columns: repeat(var(--columns, 4), minmax(0, 1fr)); }
#events { flex: none; width: 270px; background: #171b1f; border-left: 1px solid #2a3036; overflow-y: auto;
          padding: 4px 6px; font-size: 12px; }
#events h2 { font-size: 13px; margin: 2px 0 4px; }
.event { padding: 2px 0 2px 6px; border-left: 3px solid #607d8b; margin-bottom: 3px; overflow-wrap: anywhere; }
.event.raised.critical { border-color: #e53935; }
.event.raised.warning { border-color: #ffb300; }
.event.cleared { border-color: #2e7d32; color: #9aa; }
.event time { color: #889; font-variant-numeric: tabular-nums; }
.tile { border: 3px solid #2e7d32; border-radius: 5px; background: #1b1f24; padding: 3px 5px; min-width: 0;
        position: relative; }
.tile[data-state="warning"] { border-color: #ffb300; }
.tile[data-state="alarm"] { border-color: #e53935; background: #3d1414; }
.tile[data-state="no-signal"] { border-color: #ff1744; border-width: 4px; padding: 2px 4px;
  background: repeating-linear-gradient(135deg, #5c0a12 0 14px, #3a060b 14px 28px); }
.tile[data-state="down"], .tile[data-state="starting"], .tile[data-state="ended"] { border-color: #607d8b;
  background: #23272b; }
.head { display: flex; gap: 6px; align-items: baseline; }
.name { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; flex: 1; }
.state { font-size: 11px; white-space: nowrap; font-variant-numeric: tabular-nums; }
.pictures { display: grid; grid-template-columns: 1fr 1fr; gap: 3px; margin: 3px 0; position: relative; }
.pictures img { width: 100%; aspect-ratio: 16 / 9; background: #000; display: block; object-fit: contain; }
.nosignal { display: none; position: absolute; inset: 0; align-items: center; justify-content: center;
            font-weight: 800; font-size: 20px; color: #fff; background: rgba(140, 0, 20, 0.78); letter-spacing: 1px;
            text-align: center; }
.tile[data-state="no-signal"] .nosignal { display: flex; }
.alarms { min-height: 1.35em; display: flex; flex-wrap: wrap; gap: 3px; }
.chip { font-size: 11px; font-weight: 700; padding: 0 4px; border-radius: 3px; white-space: nowrap;
        font-variant-numeric: tabular-nums; }
.chip.critical { background: #e53935; color: #fff; }
.chip.warning { background: #ffb300; color: #111; }
.figures { font: 11px/1.35 ui-monospace, monospace; color: #bcc; white-space: pre; overflow: hidden; }
.scale { color: #8ab4f8; }
.audio { display: flex; gap: 6px; align-items: center; font: 11px ui-monospace, monospace; color: #bcc;
         min-height: 1.2em; }
.meters { flex: 1; display: flex; flex-direction: column; gap: 1px; min-width: 30px; }
.meter { height: 4px; background: #2b3137; position: relative; }
.meter i { position: absolute; left: 0; top: 0; bottom: 0; background: #43a047; }
.meter b { position: absolute; top: -1px; bottom: -1px; width: 2px; background: #fff; }
.error { color: #c8c8c8; font-size: 11px; overflow-wrap: anywhere; max-height: 2.6em; overflow: hidden; }
.compact .figures .more, .compact .error { display: none; }
.compact .nosignal { font-size: 13px; }
.compact.tile, .compact .tile { padding: 2px 4px; }
.compact .head { font-size: 12px; }
.compact .pictures { margin: 2px 0; }
.compact .alarms { min-height: 15px; }
.compact .chip { font-size: 10px; }
.pictures img:not([src]) { visibility: hidden; }
</style></head>
<body>
<header><h1>cudahist-monitor</h1><span id="summary">loading…</span><span id="clock"></span></header>
<div id="body"><main id="grid"></main>
<aside id="events"><h2>Last events</h2><div id="event-list"></div></aside></div>
<script>
"use strict";
const grid = document.getElementById("grid");
const tiles = new Map();
const METER_FLOOR = -60;  // dBFS at the meters' left end

function el(tag, cls, parent) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (parent) parent.appendChild(e);
  return e;
}

function tileFor(name) {
  let t = tiles.get(name);
  if (t) return t;
  t = el("section", "tile");
  t.dataset.stream = name;
  const head = el("div", "head", t);
  const n = el("span", "name", head);
  n.textContent = name;
  n.title = name;
  el("span", "state", head);
  const pictures = el("div", "pictures", t);
  for (const kind of ["thumbnail", "scope"]) {
    const img = el("img", kind, pictures);
    img.alt = kind;
    img.dataset.loading = "";
    img.onload = img.onerror = () => { delete img.dataset.loading; };
  }
  el("div", "nosignal", pictures).textContent = "NO SIGNAL";
  el("div", "alarms", t);
  el("div", "figures", t);
  el("div", "audio", t);
  el("div", "error", t);
  grid.appendChild(t);
  tiles.set(name, t);
  return t;
}

function fmt(v, digits) { return v === undefined || v === null ? "–" : Number(v).toFixed(digits); }

function duration(seconds) {
  const s = Math.floor(seconds);
  if (s < 60) return s + "s";
  if (s < 3600) return Math.floor(s / 60) + "m" + String(s % 60).padStart(2, "0") + "s";
  return Math.floor(s / 3600) + "h" + String(Math.floor(s / 60) % 60).padStart(2, "0") + "m";
}

// Most severe first: a dead stream outranks any picture alarm.
function tileState(s) {
  if (s.alarms.some(a => a.alarm === "no_signal")) return "no-signal";
  if (s.state !== "up") return s.state;
  if (s.alarms.some(a => a.severity === "critical")) return "alarm";
  return s.alarms.length ? "warning" : "ok";
}

function refreshPicture(img, kind, s) {
  if (!s[kind] || s.state !== "up" || img.dataset.loading !== undefined && img.src) return;
  img.dataset.loading = "";
  img.src = kind + "?stream=" + encodeURIComponent(s.name) + "&t=" + Date.now();
}

function drawFigures(t, s) {
  const f = s.figures;
  const scale = s.depth ? s.depth + "-bit" : "";
  const line1 = "Y " + fmt(f["y-avg"], 1) + " [" + fmt(f["y-low"], 0) + "–" + fmt(f["y-high"], 0) + "] ";
  const line2 = "YDIF " + fmt(f["y-dif"], 2) + " SAT " + fmt(f["sat-avg"], 1) + " BRNG " +
      (f.brng === undefined ? "–" : (100 * f.brng).toFixed(1) + "%");
  const figures = t.querySelector(".figures");
  figures.textContent = "";
  figures.append(line1);
  el("span", "scale", figures).textContent = scale;
  el("span", "more", figures).textContent = "\n" + line2 + (s.width ? "  " + s.width + "×" + s.height : "");
}

function meterWidth(dbfs) {
  if (dbfs === null || dbfs === undefined) return 0;
  return Math.max(0, Math.min(100, 100 * (dbfs - METER_FLOOR) / -METER_FLOOR));
}

function drawAudio(t, s) {
  const box = t.querySelector(".audio");
  box.textContent = "";
  const a = s.audio;
  if (!a) { box.textContent = s.state === "up" ? "no audio" : ""; return; }
  const meters = el("div", "meters", box);
  a.rms_dbfs.forEach((rms, c) => {
    const m = el("div", "meter", meters);
    m.title = "channel " + c + ": RMS " + fmt(rms, 1) + " dBFS, peak " + fmt(a.peak_dbfs[c], 1) + " dBFS";
    el("i", "", m).style.width = meterWidth(rms) + "%";
    el("b", "", m).style.left = "calc(" + meterWidth(a.peak_dbfs[c]) + "% - 2px)";
  });
  el("span", "", box).textContent = "M " + fmt(a.momentary_lufs, 1) + " S " + fmt(a.short_term_lufs, 1) + " LUFS";
}

function drawTile(s) {
  const t = tileFor(s.name);
  const state = tileState(s);
  t.dataset.state = state;
  t.querySelector(".state").textContent = s.state === "up" ? fmt(s.fps, 2) + " fps" : s.state;
  const alarms = t.querySelector(".alarms");
  alarms.textContent = "";
  for (const a of s.alarms) {
    const chip = el("span", "chip " + a.severity, alarms);
    chip.dataset.alarm = a.alarm;
    chip.textContent = a.alarm.replace(/_/g, " ").toUpperCase() + " " + duration(a.seconds);
  }
  const noSignal = s.alarms.find(a => a.alarm === "no_signal");
  t.querySelector(".nosignal").textContent = noSignal ? "NO SIGNAL " + duration(noSignal.seconds) : "NO SIGNAL";
  drawFigures(t, s);
  drawAudio(t, s);
  t.querySelector(".error").textContent = s.state === "up" ? "" : s.error || "";
  refreshPicture(t.querySelector("img.thumbnail"), "thumbnail", s);
  refreshPicture(t.querySelector("img.scope"), "scope", s);
  return state;
}

// The fewest columns (the largest tiles) that keep every tile on the
// screen, measured on the tiles themselves; tiles narrower than 300 px are
// compact, and none gets narrower than 170 px: past that the grid scrolls.
function layout(count) {
  const width = grid.clientWidth - 10;
  let columns = Math.max(1, Math.floor(Math.sqrt(count)) - 1);
  for (; columns < count; ++columns) {
    grid.style.setProperty("--columns", columns);
    grid.classList.toggle("compact", width / columns - 5 < 300);
    if (grid.scrollHeight <= grid.clientHeight || width / (columns + 1) - 5 < 170) return;
  }
  grid.style.setProperty("--columns", Math.max(1, columns));
}

function draw(streams) {
  const seen = new Set();
  const counts = {"no-signal": 0, alarm: 0, warning: 0, down: 0};
  for (const s of streams) {
    seen.add(s.name);
    const state = drawTile(s);
    if (state in counts) ++counts[state];
  }
  for (const [name, t] of tiles) {
    if (!seen.has(name)) { t.remove(); tiles.delete(name); }
  }
  layout(streams.length);
  const summary = document.getElementById("summary");
  summary.textContent = streams.length + " streams: ";
  const parts = [["no-signal", "no signal", "#ff1744"], ["alarm", "critical", "#e53935"],
                 ["warning", "warning", "#ffb300"], ["down", "down", "#607d8b"]];
  for (const [key, label, colour] of parts) {
    const b = el("b", "", summary);
    b.textContent = counts[key] + " " + label;
    if (counts[key]) b.style.background = colour;
    summary.append(" ");
  }
}

function drawEvents(events) {
  const list = document.getElementById("event-list");
  list.textContent = "";
  for (const e of events.slice().reverse()) {
    const row = el("div", "event " + e.state + " " + e.severity, list);
    const when = el("time", "", row);
    when.textContent = new Date(e.time).toLocaleTimeString() + " ";
    el("b", "", row).textContent = e.stream;
    row.append(" " + e.alarm.replace(/_/g, " ") + " " + e.state);
    if (e.state === "raised" && e.value !== undefined)
      row.append(" (" + fmt(e.value, 2) + " " + e.comparison + " " + e.threshold + ")");
    if (e.state === "cleared") row.append(" (" + e.reason.replace(/_/g, " ") + ", " + duration(e.seconds) + ")");
  }
}

async function refresh() {
  try {
    const [status, events] = await Promise.all(["status.json", "events.json"].map(
        path => fetch(path, {cache: "no-store"}).then(r => r.json())));
    draw(status);
    drawEvents(events);
  } catch (e) {
    document.getElementById("summary").textContent = "monitor unreachable: " + e;
  }
  document.getElementById("clock").textContent = new Date().toLocaleTimeString();
  setTimeout(refresh, 1000);
}
window.addEventListener("resize", () => layout(tiles.size));
refresh();
</script>
</body></html>
)HTML";
  return html;
}

}  // namespace monitor
