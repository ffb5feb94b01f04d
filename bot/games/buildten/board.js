// Build-to-Ten's board on the web table: the build piles (each with what it needs next), New
// build pile, every seat's face-up stock card and discard piles, each place named; how a pick
// and a drop become a move (play, discard, a joker on a seat). The engine checks every move.
const RANKS = { A: 1, J: 11, Q: 12, K: 13 };

export const multi = false; // one card a move
export const pickable = (from, v) => /^(hand|stock|d\d+)$/.test(from) && (v.mine || from === "hand");
export const repick = (from) => from === "hand" || from === "stock" || /^d\d+$/.test(from);
export const sorts = ["suit", "rank"]; // the hand's orders, the first by default
export const sortKey = (face, by) => {
  const r = String(face === "*" ? 99 : RANKS[face.slice(0, -1)] || parseInt(face, 10) || 0).padStart(2, "0");
  return by === "suit" ? face.slice(-1) + r : r + face.slice(-1);
};
export const look = (c) => (c.face === "*" ? "joker" : "HD".includes(c.face.slice(-1)) ? "red" : "");
export function intent(from, ids, place) {
  const id = ids[0];
  if (place.startsWith("b:")) return { op: "play", cards: [id], to: +place.slice(2) };
  if (place === "new") return { op: "play", cards: [id], to: null };
  if (place.startsWith("d:") && from === "hand") return { op: "discard", cards: [id], to: +place.slice(2) };
  if (place.startsWith("s:") && /^(SHIFT|SWAP)/.test(id)) return { op: "joker", cards: [id], to: +place.slice(2) };
  return null;
}
export const whyNot = () => "";
export const word = (key) => key; // the page's word for an action or a place
export const counts = (v, W) => W("stock", { n: v.stock }); // the header's, beside the seats

export function table(v, { h, card, W }) {
  const L = v.labels;
  const piles = v.builds.map((pile, i) => {
    const top = pile[pile.length - 1];
    return h("div", { key: "b" + i, class: "group pile", role: "group", "aria-label": L.builds[i],
      "data-group": "ABCD"[i], "data-pile": "b" + i, "data-index": i, "data-place": "b:" + i },
    h("button", { type: "button", class: "gl need", "data-place": "b:" + i },
      h("small", { text: L.needs }), h("b", { text: String(pile.length + 1) })),
    top ? card(top, "b" + i) : null);
  });
  if (v.mine) piles.push(h("button", { key: "new", type: "button", class: "group new", "data-drop": "new", "data-place": "new", text: "+ " + L.new }));
  const out = [h("section", { key: "builds", class: "table", "data-table": true, "aria-labelledby": "builds-head" },
    h("h2", { id: "builds-head", class: "label", text: W("builds") + " · " + L.general }), piles)];
  v.seats.forEach((s, i) => {
    const mine = i === v.seat;
    out.push(h("section", { key: "seat" + i, class: "seatrow" + (mine ? " me" : ""), "data-seat": i, "data-place": "s:" + i, "aria-label": s.name },
      h("b", { text: `${s.computer ? "🤖 " : ""}${s.name}` }),
      h("span", { class: "place" }, h("small", { text: L.stocks[i] }), s.face_up ? card(s.face_up, mine ? "stock" : "other", { tab: mine ? 0 : -1 }) : null),
      h("span", { class: "place" }, h("small", { text: L.discards }),
        s.discards.map((pile, k) => {
          const top = pile[pile.length - 1];
          return h("span", { key: "d" + k, class: "group pile discard", "data-discard": mine ? k : null, "data-index": k, "data-place": mine ? "d:" + k : null },
            mine ? h("button", { type: "button", class: "gl", "data-place": "d:" + k, "aria-label": L.discards + " " + (k + 1), text: String(k + 1) }) : null,
            top ? card(top, mine ? "d" + k : "other") : null);
        }),
        mine && v.mine && s.discards.length < 4 ? h("button", { key: "dnew", type: "button", class: "group pile discard gl", "data-discard": s.discards.length,
          "data-place": "d:" + s.discards.length, "aria-label": L.discards + " " + (s.discards.length + 1), text: "+" }) : null)));
  });
  return out;
}
