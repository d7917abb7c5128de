// Encoding: replay the merge table on each chunk, the pair of lowest rank (its id) first.
//
// A short chunk (a word: most chunks of a split text) runs the textbook loop on a small array.
// A long one (a whole book without a pattern) runs a bucket replay: a linked list, the left
// positions of every pair found in the table filed under its rank, and a min-heap of ranks;
// one bucket drained is one textbook iteration. Chunks repeat, so a table caches their ids.

import { chunksOf, codePointCount, compilePattern } from "./patterns.mjs";
import { merge, utf8Bytes, valueError } from "./core.mjs";
import { splitSpecial } from "./special.mjs";

const NONE = -1;
const SHORT = 24;
const CACHE_LIMIT = 1 << 18;

/** A merge table ready for encoding: the pairs' ranks by numeric key, and a chunk cache. */
export class Table {
  constructor(merges) {
    this.merges = merges;
    let top = 255;
    let numeric = true;
    for (const [left, right, idx] of merges) {
      for (const v of [left, right, idx]) {
        if (!Number.isInteger(v) || v < 0) numeric = false; else if (v > top) top = v;
      }
    }
    this.K = numeric && top < 2 ** 26 ? top + 1 : 0;
    this.ranks = new Map();
    for (const [left, right, idx] of merges) this.ranks.set(this.key(left, right), idx);
    this.cache = new Map();
  }

  key(left, right) { return this.K ? left * this.K + right : `${left},${right}`; }

  rank(left, right) {
    if (this.K && (left >= this.K || right >= this.K)) return undefined;
    return this.ranks.get(this.key(left, right));
  }

  /** The ids of one chunk (its text), cached. */
  chunk(text) {
    let ids = this.cache.get(text);
    if (ids === undefined) {
      ids = encodeIds(Array.from(utf8Bytes(text)), this);
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(text, ids);
    }
    return ids;
  }
}

/** encode(text, merges, pattern=, special_tokens=, allowed_special=, disallowed_special=). */
export function encode(text, table, { pattern = null, specialTokens = null, allowed = [], disallowed = "all" } = {}) {
  if (typeof text !== "string") {
    const error = new Error(`text must be a str, not ${typeof text}`); error.kind = "TypeError"; throw error;
  }
  if (pattern !== null) compilePattern(pattern); // a bad pattern fails even for an empty text
  // Specials are looked for in the text as given; each plain piece is then repaired (lone
  // surrogates to U+FFFD, which keeps its length) and cut into chunks.
  const pieces = specialTokens && specialTokens.length
    ? splitSpecial(text, specialTokens, allowed, disallowed) : [[text, 0]];
  const out = [];
  for (const piece of pieces) {
    if (typeof piece === "number") { out.push(piece); continue; }
    const [plain, start] = piece;
    if (pattern === null) {
      for (const id of encodeIds(Array.from(utf8Bytes(plain)), table)) out.push(id);
    } else {
      const offset = start ? codePointCount(text.slice(0, start)) : 0;
      for (const chunk of chunksOf(pattern, plain.toWellFormed(), offset, start)) for (const id of table.chunk(chunk)) out.push(id);
    }
  }
  return out;
}

/** Apply the table to a list of ids (consumed). */
export function encodeIds(ids, table) {
  if (ids.length < 2 || table.ranks.size === 0) return ids;
  return ids.length <= SHORT ? replayShort(ids, table) : replayLong(ids, table);
}

/** The textbook loop: merge the present pair of lowest rank (the first seen on a tie), repeat. */
function replayShort(ids, table) {
  const rankAt = (i) => table.rank(ids[i], ids[i + 1]) ?? Infinity;
  let ranks = [];
  for (let i = 0; i + 1 < ids.length; i++) ranks.push(rankAt(i));
  while (ranks.length) {
    let best = Infinity, at = -1, copies = 0;
    for (let i = 0; i < ranks.length; i++) {
      if (ranks[i] < best) { best = ranks[i]; at = i; copies = 1; } else if (ranks[i] === best) copies += 1;
    }
    if (best === Infinity) break;
    if (copies > 1) { // several occurrences, overlaps, or a table giving two pairs one rank
      ids = merge(ids, [ids[at], ids[at + 1]], best);
      ranks = [];
      for (let i = 0; i + 1 < ids.length; i++) ranks.push(rankAt(i));
      continue;
    }
    ids[at] = best;
    ids.splice(at + 1, 1);
    ranks.splice(at, 1);
    if (at > 0) ranks[at - 1] = rankAt(at - 1);
    if (at < ranks.length) ranks[at] = rankAt(at);
  }
  return ids;
}

/** The bucket replay over a linked list, for long sequences. */
function replayLong(ids, table) {
  const n = ids.length;
  const vals = Float64Array.from(ids);
  const prev = new Int32Array(n), next = new Int32Array(n);
  for (let i = 0; i < n; i++) { prev[i] = i - 1; next[i] = i + 1; }
  next[n - 1] = NONE;
  const buckets = new Map();
  const heap = new NumberHeap();
  const file = (rank, pos) => {
    const bucket = buckets.get(rank);
    if (bucket === undefined) { buckets.set(rank, [pos]); heap.push(rank); } else bucket.push(pos);
  };
  for (let i = 0; i + 1 < n; i++) {
    const rank = table.rank(vals[i], vals[i + 1]);
    if (rank !== undefined) file(rank, i);
  }
  while (heap.size) {
    const rank = heap.pop();
    const filed = buckets.get(rank);
    buckets.delete(rank);
    filed.sort((a, b) => a - b);
    // Drain: the first current pair of this rank decides; same-rank others wait for a later drain.
    let left = null, right = null, last = -1;
    const positions = [], others = [];
    for (const pos of filed) {
      if (pos === last) continue;
      last = pos;
      const after = next[pos];
      if (after === NONE) continue;
      const a = vals[pos], b = vals[after];
      if (a === left && b === right) positions.push(pos);
      else if (table.rank(a, b) === rank) {
        if (left === null) { left = a; right = b; positions.push(pos); } else others.push(pos);
      }
    }
    if (others.length) { buckets.set(rank, others); heap.push(rank); }
    if (left === null) continue;
    const idx = rank;
    for (const pos of positions) {
      const after = next[pos];
      if (after === NONE) continue; // consumed by the previous, overlapping replacement
      const before = prev[pos], beyond = next[after];
      vals[pos] = idx;
      next[pos] = beyond;
      next[after] = NONE;
      if (beyond !== NONE) {
        prev[beyond] = pos;
        const r = table.rank(idx, vals[beyond]);
        if (r !== undefined) file(r, pos);
      }
      if (before !== NONE) {
        const r = table.rank(vals[before], idx);
        if (r !== undefined) file(r, before);
      }
    }
  }
  const out = [];
  for (let pos = 0; pos !== NONE; pos = next[pos]) out.push(vals[pos]);
  return out;
}

class NumberHeap {
  constructor() { this.items = []; }
  get size() { return this.items.length; }
  push(x) {
    const a = this.items;
    let i = a.length;
    a.push(x);
    while (i > 0) { const p = (i - 1) >> 1; if (a[p] <= x) break; a[i] = a[p]; i = p; }
    a[i] = x;
  }
  pop() {
    const a = this.items, top = a[0], last = a.pop();
    if (a.length) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= a.length) break;
        if (c + 1 < a.length && a[c + 1] < a[c]) c += 1;
        if (a[c] >= last) break;
        a[i] = a[c]; i = c;
      }
      a[i] = last;
    }
    return top;
  }
}

export { valueError };
