// kinrow viewer: replay of records and a live match. No dependencies.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { games: [], game: null, ply: 0, seq: 0, zoom: 1, live: false, focus: 0, liveGames: new Map() };

function text(el, s) { el.textContent = s; }

function showProblems(list) {
  const box = $("problems");
  if (!list || list.length === 0) { box.hidden = true; return; }
  box.hidden = false;
  text(box, list.join("\n"));
}

async function getJSON(url) {
  const r = await fetch(url);
  let body;
  try { body = await r.json(); } catch (e) { throw new Error(`${url}: ${r.status} ${r.statusText}`); }
  if (!r.ok) throw new Error(body.error || `${url}: ${r.status}`);
  return body;
}

// ---- scheme ----
function applyScheme(s) {
  if (s === "auto") delete document.documentElement.dataset.scheme;
  else document.documentElement.dataset.scheme = s;
  try { localStorage.setItem("kinrow-scheme", s); } catch (e) { /* private mode */ }
}

// ---- replay ----
function filters() {
  const p = new URLSearchParams();
  if ($("f-bot").value) p.set("bot", $("f-bot").value);
  if ($("f-result").value) p.set("result", $("f-result").value);
  if ($("f-reason").value) p.set("reason", $("f-reason").value);
  return p;
}

async function loadList() {
  let data;
  try { data = await getJSON("/api/games?" + filters()); } catch (e) { showProblems([String(e.message)]); return; }
  showProblems(data.problems);
  $("tab-live").hidden = !data.live;
  state.hasLive = data.live;
  const sel = $("f-bot"), cur = sel.value;
  while (sel.options.length > 1) sel.remove(1);
  for (const b of data.bots) sel.add(new Option(b, b));
  sel.value = cur;
  // The reasons come from the server (engine/record's reasons and forfeit kinds).
  const rsel = $("f-reason");
  if (rsel.options.length === 1) for (const r of data.reasons || []) rsel.add(new Option(r, r));
  state.games = data.games;
  text($("list-count"), `${data.games.length} of ${data.total} games`);
  const tb = $("games").tBodies[0];
  tb.replaceChildren();
  for (const g of data.games) {
    const tr = tb.insertRow();
    tr.dataset.n = g.n;
    const res = g.result ? `${g.result} ${g.forfeit || g.reason}` : "open";
    for (const v of [g.n, g.players.x, g.players.o, res, g.plies]) text(tr.insertCell(), String(v));
    tr.title = `${g.file}${g.round ? ` round ${g.round} game ${g.game}` : ""} ${g.rules}${g.detail ? ": " + g.detail : ""}`;
    tr.onclick = () => openGame(g.n, g.plies);
    if (state.game && state.game.n === g.n) tr.classList.add("selected");
  }
}

async function openGame(n, ply) {
  let g;
  try { g = await getJSON(`/api/games/${n}`); } catch (e) {
    text($("title"), "No such game");
    text($("subtitle"), e.message);
    $("board").replaceChildren();
    $("moves").replaceChildren();
    state.game = null;
    return;
  }
  state.game = g;
  for (const tr of $("games").tBodies[0].rows) tr.classList.toggle("selected", Number(tr.dataset.n) === n);
  text($("title"), `Game ${g.n}: ${g.players.x} (x) vs ${g.players.o} (o)`);
  text($("subtitle"), `${g.rules} · ${g.file}${g.round ? ` · round ${g.round}, game ${g.game}` : ""} · ${g.result ? g.result + " " + g.reason + (g.detail ? ": " + g.detail : "") : "open"}`);
  const ol = $("moves");
  ol.replaceChildren();
  g.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.dataset.ply = i + 1;
    li.append(`${m.color} ${m.move} `);
    const ms = document.createElement("span");
    ms.className = "ms";
    ms.textContent = `${m.ms} ms`;
    li.append(ms);
    li.onclick = () => setPly(i + 1);
    ol.append(li);
  });
  const p = ply === undefined || ply === null || isNaN(ply) ? g.moves.length : Math.max(0, Math.min(ply, g.moves.length));
  await setPly(p);
}

async function setPly(p) {
  const g = state.game;
  if (!g) return;
  p = Math.max(0, Math.min(p, g.moves.length));
  state.ply = p;
  const seq = ++state.seq;
  text($("ply"), `${p} / ${g.moves.length}`);
  for (const li of $("moves").children) li.classList.toggle("current", Number(li.dataset.ply) === p);
  const cur = $("moves").querySelector("li.current");
  if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
  history.replaceState(null, "", `?game=${g.n}&ply=${p}`);
  const r = await fetch(`/api/games/${g.n}/svg?ply=${p}`);
  if (seq !== state.seq) return; // a later step won
  if (!r.ok) { text($("subtitle"), (await r.json()).error); return; }
  $("board").innerHTML = await r.text();
  $("board").dataset.ply = p;
}

function setZoom(z) {
  state.zoom = Math.max(0.5, Math.min(z, 8));
  for (const id of ["board", "focus-board"]) $(id).style.setProperty("--zoom", state.zoom);
}

// ---- live ----
function showTab(name) {
  $("replay").hidden = name !== "replay";
  $("live").hidden = name !== "live";
  $("tab-replay").setAttribute("aria-pressed", String(name === "replay"));
  $("tab-live").setAttribute("aria-pressed", String(name === "live"));
  if (name === "live") startLive();
  if (name === "replay") loadList();
}

function liveInfo(g) {
  const n = g.moves.length;
  const used = [0, 0];
  for (const m of g.moves) used[m.color === "x" ? 0 : 1] += m.ms;
  let s = `ply ${n} · x ${(used[0] / 1000).toFixed(1)} s · o ${(used[1] / 1000).toFixed(1)} s`;
  const last = g.moves[n - 1];
  if (last) {
    s += ` · last ${last.color} ${last.move}`;
    const se = last.search;
    if (se) s += ` (depth ${se.depth || "?"}${se.score ? ", score " + se.score : ""}${se.nodes ? ", " + se.nodes + " nodes" : ""}${se.pv ? ", pv " + se.pv : ""})`;
  }
  if (g.result) s += ` · ${g.result} ${g.reason || ""}${g.detail ? ": " + g.detail : ""}`;
  return s;
}

function liveCard(g) {
  let card = document.getElementById(`live-${g.id}`);
  if (!card) {
    card = document.createElement("div");
    card.className = "card";
    card.id = `live-${g.id}`;
    card.innerHTML = `<h3></h3><div class="info"></div><div class="mini"></div>`;
    card.onclick = () => { state.focus = g.id; refreshFocus(); };
    $("grid").prepend(card);
  }
  card.classList.toggle("ended", !!g.result);
  card.dataset.ply = g.moves.length;
  card.dataset.result = g.result || "";
  text(card.querySelector("h3"), `${g.round ? `${g.round}.${g.game} ` : ""}${g.players.x} (x) vs ${g.players.o} (o)`);
  text(card.querySelector(".info"), liveInfo(g));
  return card;
}

async function refreshBoard(g) {
  const card = liveCard(g);
  const r = await fetch(`/api/live/${g.id}/svg`);
  if (r.ok) card.querySelector(".mini").innerHTML = await r.text();
  if (state.focus === g.id) refreshFocus();
}

async function refreshFocus() {
  const g = state.liveGames.get(state.focus);
  if (!g) { $("live-focus").hidden = true; return; }
  $("live-focus").hidden = false;
  text($("focus-title"), `${g.players.x} (x) vs ${g.players.o} (o) · ${g.rules}`);
  text($("focus-info"), liveInfo(g));
  const link = document.createElement("a");
  if (g.replay) {
    link.href = `/?game=${g.replay}`;
    link.textContent = ` · replay game ${g.replay}`;
    $("focus-info").append(link);
  }
  const r = await fetch(`/api/live/${g.id}/svg`);
  if (r.ok) $("focus-board").innerHTML = await r.text();
}

// elo shows an Elo difference ("inf", "-inf" when unbounded: ±∞).
function elo(v) {
  if (typeof v === "number") return v.toFixed(1);
  return v === "inf" ? "+∞" : v === "-inf" ? "−∞" : String(v);
}

// eloErr shows the error of an Elo difference: "∞" when unbounded.
function eloErr(v) { return typeof v === "number" ? v.toFixed(1) : v === "inf" ? "∞" : String(v); }

function liveStatus() {
  const s = state.summary;
  let t = s ? `${s.done} of ${s.total} games finished${s.decision ? " · SPRT: " + s.decision : ""}` : "waiting for the match…";
  if (state.matchEnded !== undefined) t = `the match has ended${state.matchEnded ? ": " + state.matchEnded : ""} · ${s ? t : "no games finished"}`;
  text($("live-status"), t);
  $("live-status").dataset.ended = state.matchEnded !== undefined ? "true" : "false";
}

function renderSummary(s) {
  if (!s) return;
  state.summary = s;
  liveStatus();
  const tb = $("summary").tBodies[0];
  tb.replaceChildren();
  for (const r of s.rows) {
    const tr = tb.insertRow();
    const llr = r.llr === undefined || r.llr === null ? "" : `${r.llr.toFixed(2)} (${r.llr_lower.toFixed(2)}, ${r.llr_upper.toFixed(2)})`;
    for (const v of [r.a, r.b, r.wins, r.draws, r.losses, elo(r.elo), eloErr(r.elo_err), llr]) text(tr.insertCell(), String(v));
  }
}

function startLive() {
  if (state.live) return;
  state.live = true;
  const es = new EventSource("/api/events");
  // The match is over: no more events will come, the server may go.
  const matchEnded = (end) => {
    state.matchEnded = end.message || "";
    es.close();
    liveStatus();
  };
  es.addEventListener("snapshot", (e) => {
    const s = JSON.parse(e.data);
    state.liveGames.clear();
    $("grid").replaceChildren();
    for (const g of s.games) { state.liveGames.set(g.id, g); refreshBoard(g); }
    renderSummary(s.summary);
    if (s.ended) matchEnded(s.ended);
  });
  es.addEventListener("start", (e) => { const g = JSON.parse(e.data); state.liveGames.set(g.id, g); refreshBoard(g); });
  es.addEventListener("move", (e) => {
    const m = JSON.parse(e.data);
    const g = state.liveGames.get(m.id);
    if (!g) return;
    g.moves.length = m.ply - 1;
    g.moves.push({ move: m.move, color: m.color, ms: m.ms, search: m.search });
    refreshBoard(g);
  });
  es.addEventListener("end", (e) => { const g = JSON.parse(e.data); state.liveGames.set(g.id, g); refreshBoard(g); });
  es.addEventListener("summary", (e) => renderSummary(JSON.parse(e.data)));
  es.addEventListener("matchend", (e) => matchEnded(JSON.parse(e.data)));
  es.onerror = () => {
    if (state.matchEnded !== undefined) return;
    text($("live-status"), "connection lost: retrying…");
  };
}

// ---- start ----
function init() {
  let scheme = "auto";
  try { scheme = localStorage.getItem("kinrow-scheme") || "auto"; } catch (e) { /* private mode */ }
  $("scheme").value = scheme;
  applyScheme(scheme);
  $("scheme").onchange = (e) => applyScheme(e.target.value);
  for (const id of ["f-bot", "f-result", "f-reason"]) $(id).onchange = loadList;
  $("first").onclick = () => setPly(0);
  $("prev").onclick = () => setPly(state.ply - 1);
  $("next").onclick = () => setPly(state.ply + 1);
  $("last").onclick = () => setPly(state.game ? state.game.moves.length : 0);
  $("zoom-in").onclick = () => setZoom(state.zoom * 1.5);
  $("zoom-out").onclick = () => setZoom(state.zoom / 1.5);
  $("zoom-fit").onclick = () => setZoom(1);
  $("tab-replay").onclick = () => showTab("replay");
  $("tab-live").onclick = () => showTab("live");
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT" || $("replay").hidden) return;
    const keys = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in keys) { setPly(state.ply + keys[e.key]); e.preventDefault(); }
    else if (e.key === "Home") { setPly(0); e.preventDefault(); }
    else if (e.key === "End") { setPly(state.game ? state.game.moves.length : 0); e.preventDefault(); }
  });
  const q = new URLSearchParams(location.search);
  loadList().then(() => {
    if (q.has("game")) openGame(Number(q.get("game")), q.has("ply") ? Number(q.get("ply")) : undefined);
    if (q.get("view") === "live" || (state.hasLive && !q.has("game") && state.games.length === 0)) showTab("live");
  });
}
init();
