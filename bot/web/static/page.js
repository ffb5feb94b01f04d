// The web table's page: it shows the server's view and sends edits; it holds no rule and no
// sentence (the server sends both in the reader's language). The shared page names no game: the
// view names its game, and that game's board module (served from its wing) draws the table and
// turns a drop into an edit. State is one plain object (S); render() draws it with a keyed patch
// that keeps focus; pointer, tap and keys all become the same few intents (pick, drop, act).
import { h, patch } from "./dom.js";
import { openSocket } from "./socket.js";
import { haptic, inTelegram, loadTelegram, mainButton } from "./telegram.js";

const S = {
  words: {}, game: "", view: null, board: null, kind: "", review: 0, reviewShown: null, deadline: null,
  signal: (() => { try { return !!localStorage.getItem("rummy-signal"); } catch (e) { return false; } })(),
  online: false, refused: "", waiting: false, gone: false, rematch: 0,
  order: [], sortBy: 0, pick: null, fresh: {}, toast: null, live: "", logOpen: false,
};
let socket = null, toastTimer = null, pressedAt = 0, exchangedAt = 0;
// a word: the game's own first (its web part's, "<game>:<key>"), else the shared page's
const W = (key, params) => (S.words[S.kind + ":" + key] || S.words[key] || "").replace(/\{(\w+)\}/g, (m, k) => (params && k in params ? params[k] : m));
const storageKey = () => "order:" + S.game;

// -- intents: what a finger, a mouse or a key asks for -----------------------------------------
function say(text) { S.live = ""; render(); S.live = text; render(); } // re-said even if the same
function toast(text, alert) {
  S.toast = { text, alert }; say(text);
  clearTimeout(toastTimer); toastTimer = setTimeout(() => { S.toast = null; render(); }, 3500);
}
const editable = () => S.view && S.view.mine && S.online;
function refuseOffline() { toast(W("offline"), true); haptic("error"); }

function pick(from, id) {
  if (!S.online) { refuseOffline(); return; }
  if (!S.board.pickable(from, S.view)) return;
  const p = S.pick;
  if (p && p.from === from && S.board.multi) {
    p.ids = p.ids.includes(id) ? p.ids.filter((x) => x !== id) : p.ids.concat(id);
    if (!p.ids.length) S.pick = null;
  } else if (p && p.from === from && p.ids[0] === id) S.pick = null;
  else S.pick = { from, ids: [id] };
  haptic("pick");
  if (S.pick) say(W("picked", { cards: S.pick.ids.map(nameOf).join(", ") }));
  render();
}
function drop(place, from, ids) {
  from = from || (S.pick && S.pick.from); ids = ids || (S.pick && S.pick.ids);
  S.pick = null;
  if (!from || !ids) { render(); return false; }
  if (!editable()) { if (!S.online) refuseOffline(); render(); return false; }
  const msg = S.board.intent(from, ids, place, S.view);
  if (!msg) { haptic("error"); render(); return false; }
  send(msg); haptic("drop"); render();
  return true;
}
function act(name) {
  if (name === "sort") { // the hand sorted afresh (by the board's next order each time)
    S.sortBy = (S.sortBy + 1) % S.board.sorts.length; S.order = [];
    if (S.view && S.view.hand) arrange(S.view, null);
    render(); return;
  }
  if (name === "review") { if (S.view) socket.send({ t: "review", v: S.view.version }); return; }
  if (name === "signal") { // your turn signalled, on this device (kept for the next visit)
    S.signal = !S.signal;
    try { localStorage.setItem("rummy-signal", S.signal ? "1" : ""); } catch (e) { /* private mode */ }
    if (S.signal) turnSignal(true);
    render(); return;
  }
  if (!S.online) { refuseOffline(); return; }
  send({ op: "act", name });
}
function send(msg) { if (S.view && socket) socket.send({ t: "edit", v: S.view.version, ...msg }); }
function reorder(id, over) {
  const i = S.order.indexOf(id), j = S.order.indexOf(over);
  if (i < 0 || j < 0 || i === j) return;
  S.order.splice(i, 1); S.order.splice(j, 0, id); keepOrder(); render();
}
function keepOrder() { try { sessionStorage.setItem(storageKey(), JSON.stringify(S.order)); } catch (e) { /* private mode */ } }

// -- frames ------------------------------------------------------------------------------------
async function onState(m) {
  S.review = m.review || 0;
  S.home = m.home || null; // a way back where the page was opened from (the party's lobby)
  // the turn timer: the server's seconds left, counted down by this page's clock
  S.deadline = typeof m.left === "number" ? Date.now() / 1000 + m.left : null;
  if (m.rematch && m.rematch !== S.rematch) { S.rematch = m.rematch; socket.send({ t: "follow", v: 0 }); }
  if (!m.view) { S.waiting = true; S.view = null; render(); return; }
  const v = m.view, old = S.view;
  if (old && v.version < old.version && v.version !== 0) return; // never an older state
  if (S.kind !== v.game) { S.board = await import(`./board-${v.game}.js`); S.kind = v.game; }
  if (!old || v.version !== old.version || v.mine !== old.mine) S.pick = null;
  S.waiting = false;
  if (v.hand) arrange(v, old);
  S.view = v;
  document.body.dataset.version = String(v.version);
  document.body.dataset.mine = v.mine ? "yes" : "no";
  const line = v.log[v.log.length - 1];
  if (old && v.status !== old.status) { say(v.status + (line && line !== old.log[old.log.length - 1] ? ". " + line : "")); if (v.mine) { haptic("turn"); if (!old.mine) turnSignal(false); } }
  else if (old && line && line !== old.log[old.log.length - 1] && v.last) say(line);
  render();
}
// The hand in the order its player gave it. The order keeps the cards that left the hand (laid
// on the table this turn: taken back, each returns to its place); a card new to the hand takes
// the place its sort gives it among the others, and is marked for a while. A new round: sorted.
function arrange(v, old) {
  const byId = Object.fromEntries(v.hand.map((c) => [c.id, c]));
  if (old && old.round !== v.round) S.order = [];
  const key = (id) => S.board.sortKey(byId[id].face, S.board.sorts[S.sortBy]);
  const cmp = (a, b) => { const x = key(a), y = key(b); return x < y ? -1 : x > y ? 1 : 0; };
  const known = new Set(S.order), mark = !!old && known.size > 0;
  const order = S.order.slice();
  for (const id of v.hand.map((c) => c.id).filter((x) => !known.has(x)).sort(cmp)) {
    const at = order.findIndex((k) => k in byId && cmp(id, k) < 0);
    order.splice(at < 0 ? order.length : at, 0, id);
    if (mark) S.fresh[id] = Date.now() + 4000;
  }
  S.order = order;
  keepOrder();
  if (mark && Object.keys(S.fresh).length) setTimeout(() => { const now = Date.now(); for (const k in S.fresh) if (S.fresh[k] <= now) delete S.fresh[k]; render(); }, 4100);
}
const nameOf = (id) => {
  const v = S.view; if (!v) return id;
  const all = [...(v.hand || []), ...(v.loose || []), ...(v.singles || []), ...(v.groups || []).flatMap((g) => g.cards)];
  const c = all.find((x) => x.id === id); return c ? c.name : id;
};

// -- drawing -----------------------------------------------------------------------------------
function card(c, from, { tab = -1, mark = "" } = {}) {
  const picked = S.pick && S.pick.from === from && S.pick.ids.includes(c.id);
  const v = S.view, hinted = v.hint && v.hint.cards.includes(c.id);
  const fresh = from === "hand" && S.fresh[c.id];
  return h("span", {
    key: from + ":" + c.id, class: ["card", S.board.look(c, v), picked && "picked", hinted && "hinted", fresh && "fresh", mark].filter(Boolean).join(" "),
    role: "button", tabindex: tab, "aria-pressed": picked ? "true" : "false",
    "aria-label": fresh ? W("just_drawn", { card: spoken(c) }) : spoken(c),
    "data-card": c.face, "data-id": c.id, "data-from": from, text: c.text });
}
// a card's name, which holds what it shows (a rank's letter, a number) as speech input needs
function spoken(c) {
  const shows = c.text.replace(/[^\p{L}\p{N}]/gu, "");
  return !shows || c.name.toLowerCase().includes(shows.toLowerCase()) ? c.name : shows + " " + c.name;
}
// a row of cards with one tab stop (the focused card, else the first): arrows move within it
function cards(list, from, mark, stops = true) {
  const focused = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.from === from ? document.activeElement.dataset.id : null;
  const stop = list.some((c) => c.id === focused) ? focused : list.length ? list[0].id : null;
  return list.map((c) => card(c, from, { tab: stops && c.id === stop ? 0 : -1, mark: mark ? mark(c) : "" }));
}
function header(v) {
  const seats = v.seats.map((s, i) => h("li", { key: "s" + i, class: "seat" + (i === v.turn && v.phase === "play" ? " on" : ""), "data-seat-head": i,
    "aria-current": i === v.turn && v.phase === "play" ? "true" : null },
  s.computer ? "🤖 " : null, h("bdi", { text: s.name }), ` · ${s.cards}`, s.score !== null && s.score !== undefined ? h("b", { class: "score", text: String(s.score) }) : null));
  return h("header", { key: "head" }, h("ul", { class: "seats" }, seats),
    h("span", { class: "counts", text: S.board.counts(v, W) }),
    v.result && v.result.target ? h("span", { text: v.result.target }) : null);
}
function actions(v) {
  const label = (a) => W(S.board.word(a, v)) || a; // the board names its variant's words
  const list = v.result ? v.actions.filter((a) => a !== "sort") : v.actions;
  return h("nav", { key: "acts", class: "actions" }, list.map((a) => h("button", {
    key: a, type: "button", "data-action": a, "data-press": a, class: a === "done" || a === "next" ? "main" : null,
    disabled: (a === "done" && !v.can_done) || (a !== "sort" && !S.online), "aria-describedby": a === "done" ? "why" : null, text: label(a) })));
}
function result(v) {
  const r = v.result;
  return h("section", { key: "result", class: "result", "data-result": true, "aria-labelledby": "result-head" },
    h("h2", { id: "result-head", text: r.lines[r.lines.length - 1] }),
    r.lines.length > 1 ? h("p", { text: r.lines[0] }) : null,
    h("table", {}, h("thead", {}, h("tr", {}, r.columns.map((c, i) => h("th", { key: "c" + i, scope: "col", text: c })))),
      h("tbody", {}, r.rows.map((row, i) => h("tr", { key: "r" + i, class: r.winners.includes(i) ? "won" : null }, // rows in seat order
        row.map((x, j) => (j === 0 ? h("th", { key: "x" + j, scope: "row", text: String(x) }) : h("td", { key: "x" + j, text: String(x) }))))))),
    r.target ? h("p", { class: "target", text: r.target }) : null,
    h("nav", { class: "actions" },
      v.actions.filter((a) => a !== "sort").map((a) => h("button", { key: a, type: "button", "data-action": a, "data-press": a, class: a === "next" ? "main" : null, disabled: !S.online, text: W(a) })),
      r.final && v.seat !== null && !S.rematch ? h("button", { key: "rematch", type: "button", "data-action": "rematch", "data-press": "rematch", class: "main", disabled: !S.online, text: W("rematch") }) : null,
      S.review > 0 ? h("button", { key: "review", type: "button", "data-action": "review", "data-press": "review", text: W("review") }) : null));
}
function hand(v) {
  const byId = Object.fromEntries(v.hand.map((c) => [c.id, c]));
  const list = S.order.filter((id) => id in byId).map((id) => byId[id]);
  const label = W(S.board.word("hand", v));
  return h("section", { key: "hand", class: "hand", "data-hand": true, "data-place": "hand", role: "group", "aria-label": label },
    h("h2", { class: "label", text: label }), h("div", { class: "cards" }, cards(list, "hand")));
}
function view() {
  const v = S.view;
  const out = [h("h1", { key: "h1", class: "title", text: [W("title"), v.title].filter(Boolean).join(" · ") }), header(v),
    h("p", { key: "status", class: "status" + (v.mine ? " mine" : ""), "data-status": true, text: v.status })];
  if (S.deadline !== null) out.push(h("p", { key: "timer", class: "timer", "data-timer": true, text: timerText() }));
  const ui = { h, card, cards, W, pick: S.pick };
  const board = h("div", { key: "board", class: "board" }, S.board.table(v, ui));
  const side = [];
  if (v.notice) side.push(h("p", { key: "notice", class: "notice", text: v.notice }));
  if (v.result) side.push(result(v));
  if (v.hand === null) side.push(h("p", { key: "watching", class: "watching", "data-watching": true, text: W("watching") }));
  else {
    if (v.hand.length || !v.result) side.push(hand(v));
    if (!v.result) side.push(actions(v));
  }
  side.push(h("p", { key: "why", id: "why", class: "why", "data-why": true, "aria-live": "polite", text: v.why || "" }));
  if (S.reviewShown) side.push(h("section", { key: "review", class: "review", "data-review": true },
    S.reviewShown.image ? h("img", { src: S.reviewShown.image, alt: "" }) : null, h("pre", { text: S.reviewShown.text })));
  const log = v.log.slice();
  side.push(h("details", { key: "log", class: "log", open: S.logOpen || null, "data-log": true },
    // a line is in the group's language, maybe not the page's: its own isolate and paragraph
    h("summary", {}, log.length ? h("bdi", { text: log[log.length - 1] }) : null, (log.length ? " · " : "") + W("log")),
    h("ol", {}, log.map((line, i) => h("li", { key: "l" + i, dir: "auto", text: line })))));
  side.push(h("details", { key: "keys", class: "keys" }, h("summary", { text: W("keys") }), h("p", { text: W("keys_help") })));
  if (S.home) side.push(h("a", { key: "home", class: "home", href: S.home.href, "data-home": true, text: S.home.text }));
  if (!inTelegram() && v.hand !== null) side.push(h("button", { key: "signal", type: "button", class: "signal", "data-press": "signal", "data-signal": true, "aria-pressed": S.signal ? "true" : "false", text: W("signal") }));
  out.push(h("div", { key: "play", class: "play" }, board, h("div", { class: "side" }, side)));
  return out;
}
// Your turn, outside Telegram (its haptics do it there), when the player turns it on: a short
// vibration where the device has one, and a soft tone (a page may start sound only after a tap:
// the tap that turns it on plays the first, quietly).
let audio = null;
function turnSignal(test) {
  if (!S.signal || inTelegram()) return;
  try { if (navigator.vibrate) navigator.vibrate(test ? 40 : 150); } catch (e) { /* none */ }
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator(), gain = audio.createGain(), now = audio.currentTime;
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(test ? 0.03 : 0.08, now);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start(now); tone.stop(now + 0.25);
  } catch (e) { /* no audio: the status line and the live region still say it */ }
  document.body.dataset.signalled = String(Number(document.body.dataset.signalled || 0) + 1);
}
function timerText() {
  return W("left", { s: Math.max(0, Math.round(S.deadline - Date.now() / 1000)) });
}
// the countdown ticks in its own element: no render, so nothing else (focus, a pick) moves
setInterval(() => {
  const el = S.deadline !== null && document.querySelector("[data-timer]");
  if (el) el.textContent = timerText();
}, 1000);
function render() {
  const app = document.getElementById("app");
  let body;
  if (S.refused) body = [h("p", { key: "refused", class: "refused", "data-refused": true, text: S.refused })];
  else if (S.gone || S.waiting || !S.view) body = [h("h1", { key: "h1", class: "title", text: W("title") }), h("p", { key: "wait", class: "status", text: S.waiting ? W("waiting") : "" })];
  else body = view();
  body.unshift(h("div", { key: "live", id: "live", class: "sr-only", "aria-live": "polite", role: "status", text: S.live }));
  if (!S.online && !S.refused && socket) body.unshift(h("div", { key: "banner", id: "banner", "data-offline": true, role: "alert", text: W("reconnecting") }));
  if (S.toast) body.push(h("div", { key: "toast", id: "toast", class: S.toast.alert ? "alert" : null, text: S.toast.text }));
  patch(app, body);
  if (S.online) document.body.dataset.online = ""; else delete document.body.dataset.online;
  document.body.classList.toggle("offline", !S.online);
  const v = S.view;
  if (v && inTelegram()) mainButton(W("done"), v.actions.includes("done") && !v.result, v.can_done && S.online, () => act("done"));
}

// -- input: pointer (finger, pen, mouse), tap, keys -> intents --------------------------------
function placeOf(node) {
  const t = node && node.closest("[data-place]");
  return t ? t.dataset.place : null;
}
function tap(node) {
  const c = node.closest("[data-id]");
  if (c && S.view && S.board.pickable(c.dataset.from, S.view) && (S.view.mine || c.dataset.from === "hand")) {
    const p = S.pick;
    if (!p || p.from === c.dataset.from || S.board.repick(c.dataset.from)) { pick(c.dataset.from, c.dataset.id); return; }
  }
  if (!S.pick) return;
  const place = placeOf(node);
  if (place) drop(place); else { S.pick = null; render(); }
}
let drag = null;
document.addEventListener("pointerdown", (e) => {
  const c = e.target.closest("[data-id]");
  drag = { x: e.clientX, y: e.clientY, card: c, moved: false, ghost: null, id: e.pointerId, button: e.target.closest("button[data-press]") };
});
document.addEventListener("pointermove", (e) => {
  if (!drag || e.pointerId !== drag.id || !drag.card) return;
  if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 8) return;
  if (!drag.moved) {
    if (!S.online && drag.card.dataset.from !== "hand") { drag = null; refuseOffline(); return; }
    drag.moved = true;
    drag.ghost = drag.card.cloneNode(true); drag.ghost.classList.add("ghost"); document.body.append(drag.ghost);
    drag.card.classList.add("lifted"); haptic("pick");
  }
  drag.ghost.style.left = e.clientX - 18 + "px"; drag.ghost.style.top = e.clientY - 26 + "px";
  e.preventDefault();
}, { passive: false });
document.addEventListener("pointerup", (e) => {
  if (!drag || e.pointerId !== drag.id) return;
  const d = drag; drag = null;
  if (!d.moved) {
    // A finger's press acts on lifting: the browser's synthesized click can be swallowed as
    // the second half of a double tap right after a drag.
    const button = e.target.closest("button[data-press]");
    if (button && e.pointerType !== "mouse") {
      if (!button.disabled && button === d.button) { pressedAt = Date.now(); act(button.dataset.press); }
    } else if (!button && S.view && !e.target.closest("summary,details")) tap(e.target);
    return;
  }
  d.ghost.remove(); d.card.classList.remove("lifted");
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const from = d.card.dataset.from, id = d.card.dataset.id;
  const place = placeOf(under), over = under && under.closest("[data-id]");
  if (place === "hand" && from === "hand" && over) { reorder(id, over.dataset.id); return; }
  const ids = S.pick && S.pick.from === from && S.pick.ids.includes(id) ? S.pick.ids : [id];
  if (!place) { haptic("error"); return; }
  if (!drop(place, from, ids) && S.view && S.view.mine && S.online) toast(S.board.whyNot(from, place, S.view, W) || "✗", true);
});
document.addEventListener("pointercancel", () => {
  if (drag && drag.ghost) { drag.ghost.remove(); drag.card.classList.remove("lifted"); }
  drag = null;
});
document.addEventListener("click", (e) => {
  const b = e.target.closest("button[data-press]");
  if (b && !b.disabled && Date.now() - pressedAt > 600) act(b.dataset.press);
  const s = e.target.closest("details.log > summary");
  if (s) S.logOpen = !s.parentNode.open;
});
const focusable = (row) => Array.from(row.querySelectorAll("[data-id]"));
document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || !S.view || S.refused) return;
  const t = e.target, c = t.closest && t.closest("[data-id]");
  if (c && (e.key === "ArrowLeft" || e.key === "ArrowRight" || e.key === "Home" || e.key === "End")) {
    const row = focusable(c.parentNode), i = row.indexOf(c);
    const rtl = getComputedStyle(c.parentNode).direction === "rtl";
    const step = (e.key === "ArrowRight") !== rtl ? 1 : -1;
    const j = e.key === "Home" ? 0 : e.key === "End" ? row.length - 1 : i + step;
    if (j < 0 && c.dataset.from !== "hand") { const label = c.closest("[data-place]").querySelector("button.gl"); if (label) label.focus(); }
    else if (row[j]) row[j].focus();
    e.preventDefault(); return;
  }
  if (t.matches && t.matches("button.gl") && e.key === "ArrowRight") { const first = t.parentNode.querySelector("[data-id]"); if (first) first.focus(); e.preventDefault(); return; }
  if (c && (e.key === " " || e.key === "Enter")) {
    e.preventDefault();
    if (S.pick && S.pick.from !== c.dataset.from && !S.board.repick(c.dataset.from)) drop(placeOf(c));
    else pick(c.dataset.from, c.dataset.id);
    const again = document.querySelector(`[data-from="${c.dataset.from}"][data-id="${c.dataset.id}"]`); if (again) again.focus();
    return;
  }
  if (t.dataset && t.dataset.place && t.tagName === "BUTTON" && (e.key === " " || e.key === "Enter")) { e.preventDefault(); if (S.pick) drop(t.dataset.place); return; }
  if (e.key === "Escape" && S.pick) { S.pick = null; render(); return; }
  if ((e.key === "Delete" || e.key === "Backspace") && S.pick) { drop("loose"); return; }
  if (t.closest && t.closest("input,textarea,summary")) return;
  const short = { d: "done", r: "reset", h: "hint", s: "sort" }[e.key.toLowerCase()];
  if (short && (short === "sort" || S.view.actions.includes(short))) {
    const b = document.querySelector(`[data-action="${short}"]`);
    if (b && !b.disabled) { e.preventDefault(); act(short); } else if (b && S.view.why) say(S.view.why); // why not
  }
});

// -- the session ----------------------------------------------------------------------------
// what the page was opened with, exchanged for a session token (again when a socket's token
// is refused: a server restarted with the same secret takes the same link back)
async function exchange(initData) {
  const q = new URLSearchParams(location.search);
  const game = q.get("g") || q.get("startapp") || "";
  const body = initData ? (game ? { init_data: initData, game } : { init_data: initData }) : q.get("k") ? { link: q.get("k") } : { game };
  try {
    const answer = await fetch("/web/session", { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
    return { ok: answer.ok, data: await answer.json() };
  } catch (e) { return { ok: false, data: { error: "…" } }; }
}
function refuse(text) { S.refused = text || S.words.refused || "…"; document.body.dataset.refused = ""; render(); }
async function start() {
  const initData = await loadTelegram();
  const { ok, data } = await exchange(initData);
  S.words = data.words || {};
  document.documentElement.lang = S.words.lang || "en";
  document.documentElement.dir = S.words.dir || "ltr";
  document.title = W("title") || document.title;
  if (!ok) { refuse(data.error); return; } // it says where a fresh link is (the chat, the terminal)
  S.game = String(data.game);
  document.body.dataset.game = S.game;
  try { S.order = JSON.parse(sessionStorage.getItem(storageKey()) || "[]"); } catch (e) { S.order = []; }
  socket = openSocket(data.token, {
    onFrame(m) {
      if (m.t === "state") onState(m);
      else if (m.t === "review") { S.reviewShown = m; render(); }
      else if (m.t === "gone") { S.gone = true; render(); }
      else if (m.t === "follow") { // ↻ Rematch: this page now shows the new game
        S.game = String(m.game); S.view = null; S.pick = null; S.rematch = 0; S.reviewShown = null;
        document.body.dataset.game = S.game; document.body.dataset.version = "-1";
        try { S.order = JSON.parse(sessionStorage.getItem(storageKey()) || "[]"); } catch (e) { S.order = []; }
        socket.switchTo(m.token);
      }
      else if (m.t === "reply") { if (m.text) toast(m.text, m.alert); if (m.alert) haptic("error"); }
    },
    onOnline() { S.online = true; render(); },
    onOffline() { S.online = false; S.pick = null; render(); },
    async onRefused() {
      const again = Date.now() - exchangedAt > 5000 && S.game === String(data.game) ? await exchange(initData) : { ok: false, data: {} };
      exchangedAt = Date.now();
      if (again.ok) socket.switchTo(again.data.token); else refuse(again.data.error);
    },
    onElsewhere() { refuse(W("elsewhere")); },
  });
  socket.versionFrom(() => (S.view ? S.view.version : 0));
  render();
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
