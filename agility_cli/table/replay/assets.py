"""The replay page's inline style sheet and script, as the page carries them (its Content Security
Policy allows exactly these, by hash)."""

from __future__ import annotations

CSS = """
:root{color-scheme:light}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#FAF8F3;color:#222;font:15px/1.45 sans-serif}
header{padding:12px 16px 2px;max-width:1220px}
h1{font-size:1.25rem;margin:0;overflow-wrap:anywhere}
h2{font-size:.8rem;letter-spacing:.08em;text-transform:uppercase;color:#4A463F;margin:14px 0 6px}
.sub{margin:2px 0 0;color:#6B6B6B;font-size:.85rem;overflow-wrap:anywhere}
.layout{display:grid;grid-template-columns:minmax(0,800px) minmax(250px,380px);grid-template-areas:"stage side";column-gap:16px;padding:8px 16px 24px;align-items:start}
.stage{grid-area:stage;min-width:0}
.side{grid-area:side;position:sticky;top:8px;min-width:0}
.ctl,.now,.list{min-width:0}
.board{background:#FAF8F3;border-radius:10px;min-height:200px}
.board svg{display:block;width:100%;height:auto;max-height:calc(100vh - 250px)}
.stage:not(:has(.winchance)) .board svg{max-height:calc(100vh - 90px)}
.board.zoomed{overflow-x:auto}
.board.zoomed svg{width:800px;max-width:none;max-height:none}
.winchance{display:block;width:100%;height:auto;margin-top:10px;cursor:pointer;border:1px solid #DDD7CB;border-radius:10px}
#zoom{display:none}
.controls{display:flex;align-items:center;gap:6px}
.controls button{font:inherit;font-size:1.15rem;line-height:1;min-width:44px;min-height:40px;border:1px solid #CFC8BA;background:#fff;border-radius:8px;cursor:pointer;color:#222}
.controls button:disabled{opacity:.4;cursor:default}
.controls button:focus-visible,.moves button:focus-visible,input:focus-visible{outline:3px solid #0072B2;outline-offset:1px}
.where{flex:1;text-align:center;font-variant-numeric:tabular-nums;font-size:.9rem;color:#4A463F;min-width:0;white-space:nowrap}
input[type=range]{width:100%;margin:10px 0 8px;accent-color:#2B2B2B}
.now{background:#fff;border:1px solid #DDD7CB;border-radius:10px;padding:10px 12px;min-height:7em;min-width:0}
.label{font-weight:bold;margin:0 0 6px;overflow-wrap:anywhere}
.narration p{margin:0 0 4px;overflow-wrap:anywhere}
.win{margin:8px 0 0;font-size:.9rem;color:#4A463F;overflow-wrap:anywhere}
.win:empty{display:none}
.moves{list-style:none;margin:0;padding:0 0 4px;max-height:46vh;overflow:auto;position:relative;border:1px solid #DDD7CB;border-radius:10px;background:#fff}
.moves ol{list-style:none;margin:0;padding:0}
.moves .turn{position:sticky;top:0;z-index:1;background:#F1EDE4;font-weight:bold;font-size:.78rem;padding:3px 10px;color:#4A463F}
.moves button{display:flex;align-items:baseline;gap:8px;width:100%;text-align:left;border:0;background:none;padding:3px 10px;font:inherit;font-size:.88rem;cursor:pointer;color:#222;overflow-wrap:anywhere}
.moves button:hover{background:#F4F1EA}
.moves button[aria-current]{background:#2B2B2B;color:#fff}
.moves .n{color:#8F897E;min-width:2.6em;text-align:right;font-variant-numeric:tabular-nums;flex:none}
.moves button[aria-current] .n{color:#D9D3C7}
.dot{width:.6em;height:.6em;border-radius:50%;flex:none;align-self:center;border:1px solid #0003}
.dot.s0{background:#56B4E9}.dot.s1{background:#CC79A7}
.markchip{font-weight:bold;margin-left:auto;flex:none}
.error{color:#8A1C00;padding:12px}
@media (max-width:900px){.side{display:contents}.ctl{grid-area:ctl}.now{grid-area:now}.list{grid-area:list}.layout{grid-template-columns:minmax(0,1fr);grid-template-areas:"ctl" "stage" "now" "list";padding:4px 8px 20px;row-gap:10px}.ctl{position:sticky;top:0;z-index:3;background:#FAF8F3;padding:6px 0 0}.moves{max-height:40vh}header{padding:10px 8px 0}#zoom{display:inline-block}input[type=range]{margin:8px 0 4px}}
"""

JS = r"""
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var DRAWN = {svg: 1, g: 1, rect: 1, text: 1, tspan: 1, path: 1, circle: 1, line: 1, polyline: 1, title: 1, desc: 1, style: 1};
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var W = data.words || {};  // the page's words in its language (English when absent)
  var frames = data.frames, parts = data.parts, n = frames.length;
  var $ = function (id) { return document.getElementById(id); };
  var board = $("board"), slider = $("slider"), where = $("where"), label = $("label");
  var narration = $("narration"), win = $("win"), verdict = $("verdict"), list = $("moves"), cursor = $("wc-cursor"), graph = $("winchance");
  var parser = new DOMParser();
  var buttons = [], current = -1;

  function scrub(root) {  /* keep only what picture.py draws: no script, no handler, no link */
    var all = [root].concat(Array.prototype.slice.call(root.getElementsByTagName("*")));
    for (var k = all.length - 1; k >= 0; k--) {
      var el = all[k];
      if (el.namespaceURI !== SVGNS || !DRAWN[el.localName]) { if (el !== root) { el.parentNode.removeChild(el); } continue; }
      for (var a = el.attributes.length - 1; a >= 0; a--) {
        var name = el.attributes[a].name.toLowerCase();
        if (name.slice(0, 2) === "on" || name.indexOf("href") >= 0) { el.removeAttribute(el.attributes[a].name); }
      }
    }
  }

  function picture(f) {
    var text = f.head + f.body.map(function (k) { return parts[k]; }).join("") + f.tail;
    var doc = parser.parseFromString(text, "image/svg+xml");
    var root = doc.documentElement;
    if (!root || root.namespaceURI !== SVGNS || root.localName !== "svg" || doc.getElementsByTagName("parsererror").length) {
      return null;
    }
    scrub(root);
    return document.importNode(root, true);
  }

  function percent(p) { return (W.percent || "{n} %").replace("{n}", String(Math.round(p * 100))); }  // as the review writes its chances

  function show(i) {
    i = Math.max(0, Math.min(n - 1, Math.round(Number(i) || 0)));
    var f = frames[i];
    var svg = picture(f);
    if (svg) { board.replaceChildren(svg); }
    else { var e = document.createElement("p"); e.className = "error"; e.textContent = (W.undrawn || "The board of line {line} could not be drawn.").replace("{line}", f.line); board.replaceChildren(e); }
    current = i;
    slider.value = String(i);
    where.textContent = (W.where || "line {line}/{last}").replace("{line}", f.line).replace("{last}", frames[n - 1].line);
    label.textContent = (f.player ? f.player + " \u2014 " : "") + f.label;
    narration.replaceChildren();
    f.narration.forEach(function (s) { var p = document.createElement("p"); p.textContent = s; narration.appendChild(p); });
    win.textContent = "";
    if (f.win) {
      var bits = [];
      data.players.forEach(function (name, s) { if (f.win[s] !== null) { bits.push(name + " " + percent(f.win[s])); } });
      win.textContent = (W.win || "Win chance after this line: ") + bits.join(" \u00b7 ");
    }
    verdict.textContent = "";
    if (f.note || f.mark) {  // the played and the best decision, each with its chance, as the review words them
      var said = f.note || "";
      if (f.by) { said = said ? (W.played || "{player} played {note}").replace("{player}", f.by).replace("{note}", said) : f.by; }
      verdict.textContent = said + (f.mark ? " \u2014 " + ((W.marks && W.marks[f.mark]) || f.mark) : "");
    }
    $("first").disabled = $("prev").disabled = i === 0;
    $("next").disabled = $("last").disabled = i === n - 1;
    buttons.forEach(function (b, k) { if (k === i) { b.setAttribute("aria-current", "step"); } else { b.removeAttribute("aria-current"); } });
    var b = buttons[i];
    if (b) {
      var top = b.offsetTop, h = b.offsetHeight;
      if (top < list.scrollTop + 24 || top + h > list.scrollTop + list.clientHeight) { list.scrollTop = Math.max(0, top - list.clientHeight / 2); }
    }
    if (cursor) { var x = String(data.x0 + (n < 2 ? 0 : (data.x1 - data.x0) * i / (n - 1))); cursor.setAttribute("x1", x); cursor.setAttribute("x2", x); }
    try { history.replaceState(null, "", "#line=" + f.line); } catch (err) { /* a file: page may refuse; the hash is a nicety */ }
  }

  var turn = null, group = list;
  frames.forEach(function (f, i) {
    if (f.turn !== null && f.turn !== turn) {  /* one group a turn, its heading sticky within it */
      turn = f.turn;
      var item = document.createElement("li"), head = document.createElement("div");
      item.className = "group";
      head.className = "turn";
      head.textContent = (W.turn || "Turn {turn}").replace("{turn}", f.turn);
      group = document.createElement("ol");
      item.appendChild(head);
      item.appendChild(group);
      list.appendChild(item);
    }
    var li = document.createElement("li"), b = document.createElement("button");
    b.type = "button";
    b.dataset.index = String(i);
    if (f.player) { b.title = f.player; }
    var num = document.createElement("span"); num.className = "n"; num.textContent = String(f.line);
    var dot = document.createElement("span"); dot.className = "dot" + (f.seat === null ? "" : " s" + f.seat);
    var text = document.createElement("span"); text.textContent = f.label;
    b.appendChild(num); b.appendChild(dot); b.appendChild(text);
    if (f.mark) { var m = document.createElement("span"); m.className = "markchip"; m.textContent = data.marks[f.mark] || ""; m.title = (W.marks && W.marks[f.mark]) || f.mark; b.appendChild(m); }
    b.addEventListener("click", function () { show(i); });
    li.appendChild(b);
    group.appendChild(li);
    buttons.push(b);
  });

  slider.max = String(n - 1);
  slider.addEventListener("input", function () { show(slider.value); });
  $("first").addEventListener("click", function () { show(0); });
  $("prev").addEventListener("click", function () { show(current - 1); });
  $("next").addEventListener("click", function () { show(current + 1); });
  $("last").addEventListener("click", function () { show(n - 1); });
  $("zoom").addEventListener("click", function () {
    var on = board.classList.toggle("zoomed");
    $("zoom").setAttribute("aria-pressed", on ? "true" : "false");
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target === slider) { return; }  /* the slider moves itself */
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: n - 1}[e.key];
    if (to === undefined) { return; }
    e.preventDefault();
    show(to);
  });
  if (graph) {
    graph.addEventListener("click", function (e) {
      var t = e.target, k = t && t.getAttribute ? t.getAttribute("data-index") : null;
      if (k === null) {
        var r = graph.getBoundingClientRect(), vx = (e.clientX - r.left) / r.width * data.gw;
        k = n < 2 ? 0 : Math.round((vx - data.x0) / (data.x1 - data.x0) * (n - 1));
      }
      show(k);
    });
  }
  function linked() {  /* the frame named by #line=N in the address, or -1 */
    var hash = /^#line=(\d+)$/.exec(location.hash), found = -1;
    if (hash) { frames.forEach(function (f, i) { if (String(f.line) === hash[1]) { found = i; } }); }
    return found;
  }
  window.addEventListener("hashchange", function () { var i = linked(); if (i >= 0 && i !== current) { show(i); } });
  show(Math.max(linked(), 0));
})();
"""
