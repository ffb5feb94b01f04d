// The party's lobby (`rummy party`, bot/web/party.py): a name and a language, a seat or
// watching, the host's choices, then each phone's own table. It holds no rule and no sentence
// (the server sends both in the reader's language) and one secret: this device's seat key, kept
// in localStorage, so a reload or a phone that comes back lands in the same seat.
import { h, patch } from "./dom.js";

const store = {
  get(k) { try { return localStorage.getItem("party-" + k) || ""; } catch (e) { return ""; } },
  set(k, v) { try { if (v) localStorage.setItem("party-" + k, v); else localStorage.removeItem("party-" + k); } catch (e) { /* private mode */ } },
};
const LANGS = [["en", "English"], ["he", "עברית"], ["ru", "Русский"]];
const browserLang = () => { const l = (navigator.language || "en").slice(0, 2); return LANGS.some((x) => x[0] === l) ? l : "en"; };
const S = {
  key: store.get("key"), name: store.get("name"), lang: store.get("lang") || browserLang(),
  watching: !!store.get("watch"), state: null, error: "", reply: "", claim: null, busy: false, arm: "",
};
const W = (k, p) => ((S.state && S.state.words[k]) || "").replace(/\{(\w+)\}/g, (m, x) => (p && x in p ? p[x] : m));

async function post(path, body) {
  if (S.key) body.key = S.key;
  body.lang = S.lang;
  try {
    const r = await fetch(path, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
    return { ok: r.ok, status: r.status, data: await r.json() };
  } catch (e) { return { ok: false, status: 0, data: {} }; }
}
function take(data) { // a state from the server: shown; a game just started: this phone goes to its table
  if (!data || !data.words) return;
  const before = S.state && S.state.game ? S.state.game.status : "";
  S.state = data;
  const g = data.game;
  if (before === "lobby" && g && g.status === "playing" && data.table && (data.me.seat !== null || S.watching)) { location.assign(data.table); return; }
  render();
}
async function act(what, arg, seat) {
  if (S.busy) return;
  S.busy = true; S.error = ""; S.reply = "";
  const body = { do: what };
  if (arg !== undefined) body.arg = String(arg);
  if (seat !== undefined) body.seat = seat;
  const { ok, status, data } = await post("/party/do", body);
  S.busy = false;
  if (data.key) { S.key = data.key; store.set("key", data.key); }
  if (status === 403 && !data.words) { S.key = ""; store.set("key", ""); } // a key this party does not know
  if (data.claim) S.claim = { link: data.claim, qr: data.claim_qr, seat: data.claim_seat };
  if (!ok) S.error = data.error || "…";
  else if (data.reply) S.reply = data.reply;
  take(data);
  render();
}
let polling = false;
async function poll() { // a long poll: the server answers at once, or when something changes
  if (polling) return;
  polling = true;
  let fresh = true;
  for (;;) {
    const body = { seen: S.state && !fresh ? S.state.v : -1 };
    const asked = S.key + "|" + S.lang;
    const { ok, status, data } = await post("/party/state", body);
    fresh = asked !== S.key + "|" + S.lang; // sent before this device joined or changed language: ask again
    if (fresh) continue;
    if (status === 403) { S.key = ""; store.set("key", ""); S.error = data.error || ""; }
    else if (ok) take(data);
    if (!ok) await new Promise((r) => setTimeout(r, status === 429 ? 2000 : 1500));
  }
}

function seats(g) {
  const host = S.state.me.host, playing = g.status === "playing";
  return h("section", { key: "seats", class: "seats-list" },
    h("h2", { class: "label", text: W("seats", { n: g.seats.length, most: g.most }) }),
    h("ol", { "data-seats": true }, g.seats.map((s, i) => h("li", { key: "s" + i, "data-seat": i, class: s.me ? "me" : null },
      s.computer ? "🤖 " : null, h("bdi", { "data-name": true, text: s.name }),
      s.computer ? h("small", { text: "(" + s.computer + ")" }) : null,
      s.host ? h("small", { "data-host-mark": true, text: W("host_mark") }) : null,
      s.me ? h("small", { text: W("you") }) : null,
      host && !s.computer && !s.me ? h("span", { class: "seat-acts" },
        playing ? h("button", { type: "button", "data-do": "computer", "data-arg": i, text: W("computer_plays") }) : null,
        h("button", { type: "button", "data-do": "handover", "data-arg": i, text: W("handover") })) : null))));
}
function choices(c, g) {
  const picker = (key, label, list, what) => h("label", { key, class: "choice" }, h("span", { text: label }),
    h("select", { "data-choose": what }, list.map((x) => h("option", { key: x.v, value: x.v, selected: x.on || null, text: x.label }))));
  const out = [picker("game", W("game"), c.games.map((x) => ({ v: x.id, label: x.title, on: x.on })), "game")];
  for (const o of c.options) out.push(picker("o-" + o.key, o.prompt, o.values.map((x) => ({ v: o.key + "=" + x.v, label: x.label, on: x.on })), "opt"));
  out.push(picker("timer", W("timer"), c.timers.map((t) => ({ v: String(t), label: W("seconds", { s: t }), on: t === g.timer })), "timer"));
  out.push(h("div", { key: "cpu", class: "cpus" }, h("span", { text: W("add_computer") }),
    c.levels.map((l) => h("button", { key: l.v, type: "button", "data-do": "cpu", "data-arg": l.v, disabled: g.seats.length >= g.most || null, text: l.label }))));
  out.push(h("button", { key: "start", type: "button", class: "main", "data-do": "start", disabled: g.seats.length < g.least || null, text: W("start") }));
  return h("section", { key: "host", class: "host", "data-host": true }, out);
}
function joinForm(g) {
  return h("form", { key: "join", class: "join", "data-join": true },
    h("h2", { class: "label", text: W("join_head") }),
    h("label", {}, h("span", { text: W("name") }), h("input", { id: "name", name: "name", maxlength: "24", autocomplete: "nickname", value: S.name })),
    h("div", { class: "row" },
      h("button", { type: "submit", class: "main", "data-do": "join", disabled: (g && g.status === "lobby" && g.seats.length >= g.most) || null, text: W("join") }),
      h("button", { type: "button", "data-do": "watch", "aria-pressed": S.watching ? "true" : "false", text: W("watch") })));
}
function langPicker() {
  return h("label", { key: "lang", class: "lang" }, h("span", { text: W("language") }),
    h("select", { "data-lang": true }, LANGS.map(([v, label]) => h("option", { key: v, value: v, lang: v, selected: v === S.lang || null, text: label }))));
}
function render() {
  const app = document.getElementById("app");
  const st = S.state;
  if (!st) { patch(app, []); return; }
  document.documentElement.lang = st.words.lang; document.documentElement.dir = st.words.dir;
  document.title = W("title");
  const g = st.game, me = st.me || { seat: null, host: false };
  const body = [h("h1", { key: "h1", class: "title", text: W("title") }), langPicker()];
  if (!g || g.status !== "lobby" && g.status !== "playing") {
    if (!g) body.push(h("p", { key: "none", class: "status", text: W("no_game") }));
    else body.push(h("p", { key: "over", class: "status", text: W("finished") }));
  } else {
    body.push(h("p", { key: "game", class: "status", "data-game-title": true, text: [g.title, ...g.described].join(" · ") }));
    if (g.status === "playing") body.push(h("p", { key: "on", text: W("playing") }));
  }
  if (g && g.seats.length && (g.status === "lobby" || g.status === "playing")) body.push(seats(g));
  const open = g && (g.status === "lobby" || g.status === "playing");
  // a seat of this room's game, or (none running) a new game's: joining opens its lobby
  if (!open || (me.seat === null && g.status === "lobby")) body.push(joinForm(open ? g : null));
  if (me.seat !== null && g && g.status === "lobby") {
    if (st.choices) body.push(choices(st.choices, g));
    else body.push(h("p", { key: "wait", text: W("waiting_host") }));
    body.push(h("button", { key: "leave", type: "button", "data-do": "leave", text: W("leave") }));
  }
  if (me.host && g && g.status === "playing") body.push(h("button", { key: "end", type: "button", "data-do": "end", class: S.arm === "end" ? "armed" : null, text: S.arm === "end" ? W("end_sure") : W("end") }));
  if (st.table) body.push(h("a", { key: "go", class: "go main", href: st.table, "data-go": true, text: me.seat !== null ? W("to_table") : W("to_watch") }));
  if (S.claim) body.push(h("section", { key: "claim", class: "claim", "data-claim": true },
    h("p", { text: W("handover_help") }), h("img", { src: S.claim.qr, alt: S.claim.link, width: "180", height: "180" }),
    h("p", { class: "addr" }, h("bdi", { dir: "ltr", text: S.claim.link }))));
  if (S.error) body.push(h("p", { key: "err", class: "error", role: "alert", "data-error": true, text: S.error }));
  if (S.reply) body.push(h("p", { key: "reply", class: "reply", role: "status", text: S.reply }));
  if (st.address) body.push(h("section", { key: "addr", class: "address" }, h("h2", { class: "label", text: W("address") }),
    h("p", { class: "addr" }, h("bdi", { dir: "ltr", "data-address": true, text: st.address })),
    h("img", { src: "/party/qr.svg", alt: st.address, width: "150", height: "150" })));
  if (st.board) body.push(h("details", { key: "board", class: "board-text" }, h("summary", { text: W("board") }), h("pre", { text: st.board })));
  patch(app, body);
}

document.addEventListener("submit", (e) => { e.preventDefault(); join(); });
function join() {
  const input = document.getElementById("name");
  const name = input ? input.value.trim() : S.name;
  S.name = name; store.set("name", name);
  S.watching = false; store.set("watch", "");
  act("join", name);
}
document.addEventListener("click", (e) => {
  const b = e.target.closest("button[data-do]");
  if (!b || b.disabled) return;
  const what = b.dataset.do;
  if (what === "join") return; // the form's submit
  e.preventDefault();
  if (what === "watch") {
    S.watching = !S.watching; store.set("watch", S.watching ? "1" : "");
    S.reply = S.watching ? W("watching") : ""; render(); return;
  }
  if (what === "end" && S.arm !== "end") { S.arm = "end"; render(); return; } // one tap more: it ends it for everyone
  S.arm = "";
  if (what === "computer" || what === "handover") act(what, "", Number(b.dataset.arg));
  else act(what, b.dataset.arg);
});
document.addEventListener("change", (e) => {
  const t = e.target;
  if (t.dataset.lang !== undefined) { S.lang = t.value; store.set("lang", t.value); post("/party/state", { seen: -1 }).then((r) => take(r.data)); return; }
  if (t.dataset.choose) act(t.dataset.choose, t.value);
});
document.addEventListener("input", (e) => { if (e.target.id === "name") S.name = e.target.value; });

async function start() {
  const claim = new URLSearchParams(location.search).get("claim");
  if (claim) { // this device takes the seat the host handed over
    S.key = ""; const r = await post("/party/do", { do: "claim", arg: claim });
    if (r.data.key) { S.key = r.data.key; store.set("key", r.data.key); }
    if (!r.ok) S.error = r.data.error || "…";
    history.replaceState(null, "", "/");
    if (r.data.words) take(r.data);
  }
  poll();
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
