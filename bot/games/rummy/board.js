// The rummy family's board on the web table (every rulebook and Rummikub): the groups, New
// group, the loose row; how a pick and a drop become an edit (place, move, take). No rule here:
// the engine checks every edit, the view says which groups don't hold yet.
const RANKS = { A: 1, J: 11, Q: 12, K: 13 };
const rankOf = (f) => (f === "*" ? 99 : RANKS[f.slice(0, -1)] || parseInt(f, 10) || 0);
const suitOf = (f) => (f === "*" ? "~" : f.slice(-1));
const TILE = /^\d+[RKBO]$/;

export const multi = true; // several cards may be picked and placed together
export const pickable = (from, v) => /^(hand|loose|singles|g\d+)$/.test(from) && (v.mine || from === "hand");
export const repick = () => false;
export const sorts = ["suit", "rank"]; // the hand's orders, the first by default
export const sortKey = (face, by) => {
  const r = String(rankOf(face)).padStart(2, "0");
  return by === "suit" ? suitOf(face) + r : r + suitOf(face);
};
// a card's look: its colour (a tile's colour also by a mark's shape, the CSS draws it)
export function look(c, v) {
  if (v.tiles) return "marked" + (TILE.test(c.face) ? " c-" + c.face.slice(-1) : " joker");
  return "HD".includes(suitOf(c.face)) ? "red" : "";
}
// a drop of `ids` picked from `from` on `place`: the edit, or null
export function intent(from, ids, place, v) {
  const group = from[0] === "g" ? +from.slice(1) : null;
  const dest = place === "new" ? null : place.startsWith("g:") ? +place.slice(2) : undefined;
  if (group === null) return dest === undefined ? null : { op: "place", cards: ids, to: dest };
  if (dest === undefined) return place === "hand" || place === "loose" ? { op: "take", cards: [ids[0]], from: group } : null;
  return dest === group ? null : { op: "move", cards: ids, from: group, to: dest };
}
export const whyNot = () => "";
// the page's word for an action or a place (the words are this game's: "rummy:<key>")
const TILE_WORDS = { draw: "draw_tile", hand: "rack" };
export const word = (key, v) => (v.tiles && TILE_WORDS[key]) || (key === "giveup" && v.give_up_draw === 1 ? "giveup1" : key);
// the header's counts beside the seats
export const counts = (v, W) => W("stock", { n: v.stock });

export function table(v, { h, cards, W }) {
  const last = v.last || { groups: [], cards: [] };
  const names = (g) => g.cards.map((c) => c.text).join(" ");
  const groups = v.groups.map((g, i) => {
    const label = W("group", { label: g.label, cards: names(g) });
    const was = last.groups.includes(i);
    return h("div", {
      key: "g" + i, class: "group" + (g.bad ? " bad" : "") + (g.changed ? " changed" : "") + (was ? " last" : ""),
      role: "group", "aria-label": label + (was ? " · " + W("last_move") : ""),
      "data-group": g.label, "data-index": i, "data-place": "g:" + i, "data-bad": g.bad ? "yes" : null, "data-last": was ? "yes" : null },
    h("button", { type: "button", class: "gl", "data-place": "g:" + i, tabindex: 0, "aria-label": label, text: g.label }),
    h("span", { class: "cards" }, cards(g.cards, "g" + i, (c) => (last.cards.includes(c.id) ? "arrived" : ""), false)));
  });
  if (v.mine) groups.push(h("button", { key: "new", type: "button", class: "group new", "data-drop": "new", "data-place": "new", text: "+ " + W("new") }));
  const out = [h("section", { key: "table", class: "table", "data-table": true, "aria-label": W("table") }, groups)];
  if (v.loose.length || v.singles.length) {
    out.push(h("section", { key: "loose", class: "loose", "data-loose": true, "data-place": "loose", "aria-label": W("loose") },
      h("h2", { class: "label", text: W("loose") }),
      h("span", { class: "cards" }, cards(v.loose, "loose"), cards(v.singles, "singles"))));
  }
  return out;
}
