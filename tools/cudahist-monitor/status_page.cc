#include "status_page.h"

namespace monitor {

const std::string& StatusPageHtml() {
  // Tiles of ~210 px fill the width: 16 streams are three rows of six on a
  // 1366x768 laptop screen. A tile is green when the stream is up and calm, red in an alarm,
  // grey when down; its data-state says the same to a script.
  static const std::string html = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cudahist-monitor</title>
<style>
body { margin: 0; font: 13px/1.3 system-ui, sans-serif; background: #15181c; color: #dde; }
header { padding: 6px 12px; background: #20252b; display: flex; gap: 16px; align-items: baseline; }
header h1 { font-size: 15px; margin: 0; }
#grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 6px; padding: 6px; }
.tile { border: 3px solid #2e7d32; border-radius: 6px; background: #1d2126; padding: 4px 6px; min-width: 0; }
.tile[data-state="alarm"] { border-color: #e53935; background: #4a1414; }
.tile[data-state="down"] { border-color: #757575; background: #2a2a2a; }
.tile[data-state="starting"], .tile[data-state="ended"] { border-color: #607d8b; }
.name { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.state { float: right; font-size: 11px; text-transform: uppercase; }
.scope { width: 100%; aspect-ratio: 2 / 1; background: #000; display: block; object-fit: contain; margin: 3px 0; }
.figures { font: 11px/1.35 ui-monospace, monospace; color: #bcc; }
.alarms { color: #ff8a80; font-weight: 600; min-height: 1.3em; }
.error { color: #bbb; font-size: 11px; overflow-wrap: anywhere; max-height: 2.6em; overflow: hidden; }
</style></head>
<body>
<header><h1>cudahist-monitor</h1><span id="summary">loading…</span></header>
<main id="grid"></main>
<script>
"use strict";
const grid = document.getElementById("grid");
const tiles = new Map();

function tileFor(name) {
  let t = tiles.get(name);
  if (t) return t;
  t = document.createElement("section");
  t.className = "tile";
  t.dataset.stream = name;
  t.innerHTML = '<div><span class="state"></span><div class="name"></div></div>' +
      '<img class="scope" alt="scope"><div class="alarms"></div><div class="figures"></div><div class="error"></div>';
  t.querySelector(".name").textContent = name;
  t.querySelector(".name").title = name;
  grid.appendChild(t);
  tiles.set(name, t);
  return t;
}

function fmt(v, digits) { return v === undefined ? "–" : Number(v).toFixed(digits); }

function tileState(s) {
  if (s.state !== "up") return s.state;
  return s.alarms.length ? "alarm" : "ok";
}

function draw(streams) {
  const seen = new Set();
  let alarms = 0, down = 0;
  for (const s of streams) {
    seen.add(s.name);
    const t = tileFor(s.name);
    const state = tileState(s);
    t.dataset.state = state;
    if (state === "alarm") ++alarms;
    if (s.state === "down") ++down;
    t.querySelector(".state").textContent = s.state === "up" ? fmt(s.fps, 1) + " fps" : s.state;
    t.querySelector(".alarms").textContent = s.alarms.join(" ").toUpperCase();
    const f = s.figures;
    t.querySelector(".figures").textContent =
        "Y " + fmt(f["y-avg"], 1) + " [" + fmt(f["y-min"], 0) + "–" + fmt(f["y-max"], 0) + "]  YDIF " +
        fmt(f["y-dif"], 2) + "\n" + "SAT " + fmt(f["sat-avg"], 1) + "  BRNG " + fmt(f["brng"], 3) + "\n" +
        (s.width ? s.width + "×" + s.height + "  " : "") + s.reconnects + " reconnects";
    t.querySelector(".figures").style.whiteSpace = "pre";
    t.querySelector(".error").textContent = s.error || "";
    const img = t.querySelector(".scope");
    if (s.scope && s.state === "up") img.src = "scope?stream=" + encodeURIComponent(s.name) + "&t=" + Date.now();
  }
  for (const [name, t] of tiles) {
    if (!seen.has(name)) { t.remove(); tiles.delete(name); }
  }
  document.getElementById("summary").textContent =
      streams.length + " streams, " + alarms + " in alarm, " + down + " down";
}

async function refresh() {
  try {
    const r = await fetch("status.json", {cache: "no-store"});
    draw(await r.json());
  } catch (e) {
    document.getElementById("summary").textContent = "monitor unreachable: " + e;
  }
  setTimeout(refresh, 1000);
}
refresh();
</script>
</body></html>
)HTML";
  return html;
}

}  // namespace monitor
