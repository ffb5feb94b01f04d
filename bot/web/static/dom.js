// A keyed render: the page describes its DOM as plain objects (h), and patch() brings the live
// DOM to them, reusing each node by its key (or its place among unkeyed siblings) — so focus,
// scroll and a running animation survive a new frame, and nothing is rebuilt that didn't change.
export const h = (tag, attrs, ...kids) => ({ tag, attrs: attrs || {}, kids: kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false) });

const keyOf = (v, i) => (typeof v === "string" || typeof v === "number" ? "#t" + i : v.attrs.key !== undefined ? "k" + v.attrs.key : v.tag + i);

function setAttrs(node, attrs) {
  const old = node._attrs || {};
  for (const k of Object.keys(old)) if (!(k in attrs) || attrs[k] === null || attrs[k] === undefined || attrs[k] === false) {
    if (k === "class") node.removeAttribute("class"); else if (k !== "key" && k !== "text") node.removeAttribute(k);
  }
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "key" || v === null || v === undefined || v === false) continue;
    if (k === "text") { if (node.textContent !== String(v)) node.textContent = v; continue; }
    if (k === "value") { if (node.value !== v) node.value = v; continue; }
    const s = v === true ? "" : String(v);
    if (node.getAttribute(k) !== s) node.setAttribute(k, s);
  }
  node._attrs = attrs;
}

function create(v) {
  if (typeof v !== "object") return document.createTextNode(String(v));
  const n = document.createElement(v.tag);
  setAttrs(n, v.attrs);
  if (!("text" in v.attrs)) patch(n, v.kids);
  return n;
}

// Bring `parent`'s children to `vnodes`, keyed.
export function patch(parent, vnodes) {
  const have = new Map();
  Array.from(parent.childNodes).forEach((n, i) => { if (n._key) have.set(n._key, n); else if (n.nodeType === 3) have.set("#t" + i, n); });
  const seen = new Set();
  vnodes.forEach((v, i) => {
    const key = keyOf(v, i);
    let node = have.get(key);
    const text = typeof v !== "object";
    if (node && (text ? node.nodeType !== 3 : node.nodeType !== 1 || node.tagName.toLowerCase() !== v.tag)) node = null;
    if (!node) node = create(v);
    else if (text) { if (node.data !== String(v)) node.data = String(v); }
    else { setAttrs(node, v.attrs); if (!("text" in v.attrs)) patch(node, v.kids); }
    if (!text) node._key = key;
    seen.add(node);
    const at = parent.childNodes[i];
    if (at !== node) parent.insertBefore(node, at || null);
  });
  for (const n of Array.from(parent.childNodes)) if (!seen.has(n)) n.remove();
}
