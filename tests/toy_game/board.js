// Race's board on the web table: the track from 1 to the target, filled up to the total. Its
// moves are the page's action buttons (+1, +2…); the engine checks each. No rule here.
export const multi = false;
export const pickable = () => false; // nothing to pick: a move is a button
export const repick = () => false;
export const sorts = ["none"];
export const sortKey = () => "";
export const look = () => "";
export const intent = () => null;
export const whyNot = () => "";
export const word = (key) => key;
export const counts = (v, W) => W("total", { total: v.total, target: v.target });

export function table(v, { h, W }) {
  const cells = [];
  for (let i = 1; i <= v.target; i++) {
    cells.push(h("span", { key: "c" + i, class: "card" + (i <= v.total ? " picked" : ""), "data-cell": i, text: String(i) }));
  }
  return [h("section", { key: "track", class: "table", "data-table": true, "data-total": v.total,
    "aria-label": W("total", { total: v.total, target: v.target }) }, cells)];
}
