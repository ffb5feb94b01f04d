// The web table's page: draws the server's view and sends edits; it holds no rule.
// Drag with plain Pointer Events (one code path for touch, pen and mouse; no library to vendor
// or keep up to date), and tap-to-select then tap-a-target for the same edits without dragging.
(() => {
  "use strict";
  const q = new URLSearchParams(location.search);
  const TG = window.Telegram && window.Telegram.WebApp;
  const tg = TG && TG.initData ? TG : null;
  const app = () => document.getElementById("app");
  let token = "", words = {}, ws = null, view = null, retry = 0, timer = null;
  let order = [], sel = null, drag = null, sortBy = "suit", toastTimer = null, pressedAt = 0;

  const el = (tag, attrs, ...kids) => {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") n.className = v; else if (k === "text") n.textContent = v;
      else n.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids) if (kid) n.append(kid);
    return n;
  };
  const haptic = (kind) => {
    if (!tg || !tg.HapticFeedback) return;
    if (kind === "error") tg.HapticFeedback.notificationOccurred("error");
    else tg.HapticFeedback.impactOccurred(kind === "drop" ? "medium" : "light");
  };
  const fill = (text, params) => text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? params[k] : m));

  // -- the session and the socket --------------------------------------------------------
  async function start() {
    let body;
    const game = q.get("g") || q.get("startapp") || "";
    if (tg) body = game ? { init_data: tg.initData, game } : { init_data: tg.initData };
    else if (q.get("k")) body = { link: q.get("k") };
    else body = { game };
    let answer, data;
    try {
      answer = await fetch("/web/session", { method: "POST", body: JSON.stringify(body),
        headers: { "Content-Type": "application/json" } });
      data = await answer.json();
    } catch (e) { data = { error: "…" }; answer = { ok: false }; }
    words = data.words || {};
    document.documentElement.lang = words.lang || "en";
    document.documentElement.dir = words.dir || "ltr";
    if (!answer.ok) { refused(data.error); return; }
    token = data.token;
    try { order = JSON.parse(sessionStorage.getItem("order:" + data.game) || "[]"); } catch (e) { order = []; }
    document.body.dataset.game = data.game;
    if (tg) {
      tg.ready(); tg.expand();
      if (tg.disableVerticalSwipes) tg.disableVerticalSwipes();
      tg.MainButton.setText(words.done);
      tg.MainButton.onClick(() => act("done"));
    }
    connect();
  }
  function refused(text) {
    document.body.dataset.refused = "";
    app().replaceChildren(el("p", { class: "refused", "data-refused": true, text: text }));
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(scheme + location.host + "/web/socket", ["rummy", token]);
    ws.onopen = () => {
      retry = 0; banner("");
      ws.send(JSON.stringify({ t: "hello", v: view ? view.version : 0 }));
    };
    ws.onmessage = (event) => {
      const m = JSON.parse(event.data);
      if (m.t === "state") { reviewable = m.review || 0; if (m.view) show(m.view); else waiting(); }
      else if (m.t === "review") showReview(m);
      else if (m.t === "reply") { if (m.text) toast(m.text, m.alert); if (m.alert) haptic("error"); }
    };
    ws.onclose = () => {
      ws = null; banner(words.reconnecting);
      clearTimeout(timer);
      timer = setTimeout(connect, Math.min(4000, 250 * 2 ** retry++));
    };
  }
  // 🔎 Review (issue 32): once a round is over, the page's own seat may ask for its review
  let reviewable = 0;
  function reviewButton() {
    const b = el("button", { "data-action": "review", text: words.review || "🔎" });
    b.addEventListener("click", () => { if (ws && ws.readyState === 1 && view) ws.send(JSON.stringify({ t: "review", v: view.version })); });
    return el("nav", { class: "actions" }, b);
  }
  function showReview(m) {
    let box = document.getElementById("review");
    if (!box) { box = el("section", { id: "review", class: "review", "data-review": true }); app().append(box); }
    box.replaceChildren(...(m.image ? [el("img", { src: m.image, alt: "" })] : []), el("pre", { text: m.text }));
  }
  function send(msg) {
    if (!ws || ws.readyState !== 1 || !view) return;
    ws.send(JSON.stringify({ t: "edit", v: view.version, ...msg }));
  }
  const act = (name) => { if (name === "sort") { sortBy = sortBy === "suit" ? "rank" : "suit"; order = []; show(view); } else send({ op: "act", name }); };
  function banner(text) {
    let b = document.getElementById("banner");
    if (!text) { if (b) b.remove(); document.body.dataset.online = ""; return; }
    delete document.body.dataset.online;
    if (!b) { b = el("div", { id: "banner", "data-offline": true }); document.body.prepend(b); }
    b.textContent = text;
  }
  function toast(text, alert) {
    let t = document.getElementById("toast");
    if (!t) { t = el("div", { id: "toast", role: "status" }); document.body.append(t); }
    t.textContent = text; t.className = alert ? "alert" : "";
    clearTimeout(toastTimer); toastTimer = setTimeout(() => t.remove(), 3500);
  }
  function waiting() { app().replaceChildren(el("p", { class: "status", text: words.waiting })); }

  // -- drawing ---------------------------------------------------------------------------
  const RANKS = { A: 1, J: 11, Q: 12, K: 13 };
  const rankOf = (f) => (f === "*" ? 99 : RANKS[f.slice(0, -1)] || parseInt(f, 10) || 0);
  const suitOf = (f) => (f === "*" ? "~" : f.slice(-1));
  function ordered(hand) {
    const ids = hand.map((c) => c.id), byId = Object.fromEntries(hand.map((c) => [c.id, c]));
    const kept = order.filter((id) => id in byId);
    const fresh = ids.filter((id) => !kept.includes(id)).sort((a, b) => {
      const x = byId[a].face, y = byId[b].face;
      const k = sortBy === "suit" ? [suitOf(x), rankOf(x), suitOf(y), rankOf(y)] : [rankOf(x), suitOf(x), rankOf(y), suitOf(y)];
      return k[0] < k[2] ? -1 : k[0] > k[2] ? 1 : k[1] - k[3];
    });
    order = kept.concat(fresh);
    try { sessionStorage.setItem("order:" + document.body.dataset.game, JSON.stringify(order)); } catch (e) { /* private mode */ }
    return order.map((id) => byId[id]);
  }
  function card(c, where) {
    const s = suitOf(c.face), red = "HDR".includes(s) ? " red" : s === "O" ? " orange" : s === "B" ? " blue" : "";
    const picked = sel && sel.from === where && sel.ids.includes(c.id);
    const hinted = view.hint && view.hint.cards.includes(c.id); // 💡 Hint: the move's cards
    return el("span", { class: "card" + red + (picked ? " picked" : "") + (hinted ? " hinted" : "") + (view.tiles ? " tile" : ""),
      "data-card": c.face, "data-id": c.id, "data-from": where, text: c.text });
  }
  function actions(list, canDone) {
    const row = el("nav", { class: "actions" });
    const label = (a) => (a === "draw" && view.tiles ? words.draw_tile : a === "giveup" && view.give_up_draw === 1 ? words.giveup1 : words[a] || a);
    for (const a of list) {
      const b = el("button", { "data-action": a, text: label(a), class: a === "done" ? "main" : "" });
      if (a === "done" && !canDone) b.disabled = true;
      b.dataset.press = a; // pressed by pointerup (a finger) or click (a mouse, the keyboard)
      b.addEventListener("click", () => { if (Date.now() - pressedAt > 600) act(a); });
      row.append(b);
    }
    return row;
  }
  function header(v) {
    const seats = v.seats.map((s, i) => el("span", { class: "seat" + (i === v.turn ? " on" : ""), "data-seat": i,
      text: `${s.computer ? "🤖 " : ""}${s.name} ${s.cards}` }));
    return el("header", {}, ...seats, el("span", { class: "stock", text: fill(words.stock || "{n}", { n: v.stock }) }));
  }
  function show(v) {
    if (view && v.version < view.version && v.version !== 0) return; // never an older state
    if (!view || v.version !== view.version || v.mine !== view.mine) sel = null;
    view = v;
    const root = app();
    const review = document.getElementById("review");
    root.replaceChildren(v.game === "buildten" ? buildten(v) : rummy(v));
    if (reviewable > 0) root.append(reviewButton());
    if (review) root.append(review); // a review asked for stays shown
    document.body.dataset.version = String(v.version);
    document.body.dataset.mine = v.mine ? "yes" : "no";
    if (tg) {
      const done = v.actions.includes("done");
      if (done && v.can_done) tg.MainButton.show().enable(); else if (done) tg.MainButton.show().disable(); else tg.MainButton.hide();
    }
  }
  function rummy(v) {
    const out = el("div", { class: "rummy" }, header(v));
    const table = el("section", { class: "table", "data-table": true });
    v.groups.forEach((g, i) => {
      const group = el("div", { class: "group" + (g.bad ? " bad" : "") + (g.changed ? " changed" : ""),
        "data-group": g.label, "data-index": i, "data-bad": g.bad ? "yes" : null });
      group.append(el("b", { text: g.label }), el("span", { class: "cards" }, ...g.cards.map((c) => card(c, "g" + i))));
      table.append(group);
    });
    if (v.mine) table.append(el("div", { class: "group new", "data-drop": "new", text: "+ " + words.new }));
    out.append(table);
    if (v.loose.length || v.singles.length) {
      out.append(el("section", { class: "loose", "data-loose": true }, el("small", { text: words.loose }),
        el("span", { class: "cards" }, ...v.loose.map((c) => card(c, "loose")), ...v.singles.map((c) => card(c, "singles")))));
    }
    if (v.notice) out.append(el("p", { class: "notice", text: v.notice }));
    if (v.hand === null) out.append(el("p", { class: "watching", "data-watching": true, text: words.watching }));
    else {
      out.append(el("section", { class: "hand", "data-hand": true }, el("small", { text: v.tiles ? words.rack : words.hand }),
        el("span", { class: "cards" }, ...ordered(v.hand).map((c) => card(c, "hand")))));
      out.append(actions(v.actions, v.can_done));
    }
    out.append(el("ol", { class: "log" }, ...v.log.slice(-3).map((line) => el("li", { text: line }))));
    return out;
  }
  function buildten(v) {
    const out = el("div", { class: "buildten" }, header(v));
    const builds = el("section", { class: "table", "data-table": true }, el("small", { text: words.builds }));
    v.builds.forEach((pile, i) => {
      const top = pile[pile.length - 1];
      builds.append(el("div", { class: "group pile", "data-group": "ABCD"[i], "data-pile": "b" + i, "data-index": i },
        el("b", { text: String(pile.length + 1) }), top ? card(top, "b" + i) : null));
    });
    if (v.mine) builds.append(el("div", { class: "group new", "data-drop": "new", text: "+" }));
    out.append(builds);
    v.seats.forEach((s, i) => {
      const mine = i === v.seat;
      const row = el("section", { class: "seatrow" + (mine ? " me" : ""), "data-seat": i },
        el("b", { text: `${s.computer ? "🤖 " : ""}${s.name} · ${s.stock}` }),
        s.face_up ? card(s.face_up, mine ? "stock" : "other") : null);
      s.discards.forEach((pile, k) => {
        const top = pile[pile.length - 1];
        row.append(el("div", { class: "group pile discard", "data-discard": mine ? k : null, "data-index": k },
          top ? card(top, mine ? "d" + k : "other") : null));
      });
      out.append(row);
    });
    if (v.notice) out.append(el("p", { class: "notice", text: v.notice }));
    if (v.hand === null) out.append(el("p", { class: "watching", "data-watching": true, text: words.watching }));
    else {
      out.append(el("section", { class: "hand", "data-hand": true }, el("small", { text: words.hand }),
        el("span", { class: "cards" }, ...v.hand.map((c) => card(c, "hand")))));
      out.append(actions(v.actions, false));
    }
    out.append(el("ol", { class: "log" }, ...v.log.slice(-3).map((line) => el("li", { text: line }))));
    return out;
  }

  // -- edits: a card (or the picked cards) dropped on a target ---------------------------
  function target(node) {
    const t = node && node.closest("[data-group],[data-drop],[data-hand],[data-loose],[data-discard],[data-seat]");
    if (!t) return null;
    if (t.dataset.drop === "new") return { kind: "new" };
    if (t.hasAttribute("data-hand")) return { kind: "hand" };
    if (t.hasAttribute("data-loose")) return { kind: "loose" };
    if (t.dataset.discard !== undefined) return { kind: "discard", index: +t.dataset.discard };
    if (t.dataset.group !== undefined) return { kind: "group", index: +t.dataset.index };
    if (t.dataset.seat !== undefined) return { kind: "seat", index: +t.dataset.seat };
    return null;
  }
  function edit(from, ids, to) {
    if (view.game === "buildten") {
      const id = ids[0];
      if (to.kind === "group") send({ op: "play", cards: [id], to: to.index });
      else if (to.kind === "new") send({ op: "play", cards: [id], to: null });
      else if (to.kind === "discard" && from === "hand") send({ op: "discard", cards: [id], to: to.index });
      else if (to.kind === "seat" && /^(SHIFT|SWAP)/.test(id)) send({ op: "joker", cards: [id], to: to.index });
      else return false;
      return true;
    }
    const group = from[0] === "g" ? +from.slice(1) : null;
    const dest = to.kind === "new" ? null : to.kind === "group" ? to.index : undefined;
    if (group === null) {
      if (dest === undefined) return false;
      send({ op: "place", cards: ids, to: dest });
    } else if (dest === undefined) {
      if (to.kind !== "hand" && to.kind !== "loose") return false;
      send({ op: "take", cards: [ids[0]], from: group }); // one at a time: each edit is a version
    } else {
      if (dest === group) return false;
      send({ op: "move", cards: ids, from: group, to: dest });
    }
    return true;
  }
  function reorder(id, over) {
    const i = order.indexOf(id), j = order.indexOf(over);
    if (i < 0 || j < 0 || i === j) return;
    order.splice(i, 1); order.splice(j, 0, id);
    show(view);
  }
  function tap(node) {
    const c = node.closest("[data-id]");
    const from = c && c.dataset.from;
    if (c && (from === "hand" || from === "loose" || from === "singles" || from === "stock" || /^[gd]\d+$/.test(from)) && view.mine) {
      if (sel && sel.from === from && view.game !== "buildten") {
        sel.ids = sel.ids.includes(c.dataset.id) ? sel.ids.filter((x) => x !== c.dataset.id) : sel.ids.concat(c.dataset.id);
        if (!sel.ids.length) sel = null;
        haptic("pick"); show(view); return;
      }
      if (!sel || sel.from === from || (from === "hand" && view.game === "buildten")) {
        sel = { from, ids: [c.dataset.id] }; haptic("pick"); show(view); return;
      }
    }
    if (!sel) return;
    const to = target(node);
    if (to && edit(sel.from, sel.ids, to)) haptic("drop");
    sel = null; show(view);
  }
  document.addEventListener("pointerdown", (e) => {
    const c = e.target.closest("[data-id]");
    if (!view || !view.mine && !(c && c.dataset.from === "hand")) { if (view && e.target.closest("button") === null) tap(e.target); return; }
    drag = { x: e.clientX, y: e.clientY, card: c, moved: false, ghost: null, id: e.pointerId,
      button: e.target.closest("button[data-press]") };
  });
  document.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id || !drag.card) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 8) return;
    if (!drag.moved) {
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
      // A finger's press acts on lifting: the browser's synthesized click can be swallowed
      // as the second half of a double tap right after a drag.
      const button = e.target.closest("button[data-press]");
      if (button && e.pointerType !== "mouse") {
        if (!button.disabled && button === d.button) { pressedAt = Date.now(); act(button.dataset.press); }
      } else if (!button) tap(e.target);
      return;
    }
    d.ghost.remove(); d.card.classList.remove("lifted");
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const from = d.card.dataset.from, id = d.card.dataset.id;
    const to = target(under);
    const over = under && under.closest("[data-id]");
    if (to && to.kind === "hand" && from === "hand" && over) { reorder(id, over.dataset.id); return; }
    if (!view.mine) return;
    const ids = sel && sel.from === from && sel.ids.includes(id) ? sel.ids : [id];
    if (to && edit(from, ids, to)) { haptic("drop"); sel = null; } else haptic("error");
  });
  document.addEventListener("pointercancel", () => {
    if (drag && drag.ghost) { drag.ghost.remove(); drag.card.classList.remove("lifted"); }
    drag = null;
  });
  // only inside Telegram (the vendored script defines WebApp everywhere; initData says where)
  if (tg) document.documentElement.classList.add("telegram");
  document.addEventListener("DOMContentLoaded", start);
})();
