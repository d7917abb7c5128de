// Incremental BPE training: the textbook's merges without recounting every pair per merge.
//
// The distinct chunks (the whole text is one chunk when there is no pattern) sit end to end
// in one linked list with no link across a chunk boundary; each node carries its chunk's
// frequency as a weight. Per pair we keep its weighted count, its first current position and
// the positions where it has occurred (checked lazily against the list). A merge rewrites only
// its own occurrences and settles the counts of their neighbouring pairs; a lazy heap ranks
// the pairs by count and the tie rule. First positions in the end-to-end list order pairs as
// the textbook's first occurrences over the full chunk list do, since every copy of a chunk
// changes the same way.

import { chunksOf } from "./patterns.mjs";
import { utf8Bytes, valueError } from "./core.mjs";
import { splitSpecial } from "./special.mjs";

const NONE = -1;
export const TIE_RULES = ["first-counted", "lowest-pair", "bytes-greatest"];

/** [[left, right, id], ...] in training order: vocabSize - 256 merges, fewer if pairs run out. */
/** With specialTokens (a list of strings), the text between them, each piece a document of its own. */
export function train(text, vocabSize, { pattern = null, tieRule = "first-counted", specialTokens = null } = {}) {
  if (typeof text !== "string") throw typeError(`text must be a str, not ${typeof text}`);
  if (!Number.isInteger(vocabSize)) throw typeError(`vocab_size must be an int, not ${typeof vocabSize}`);
  if (vocabSize < 256) throw valueError(`vocab_size must be at least 256 (the byte alphabet), got ${vocabSize}`);
  if (!TIE_RULES.includes(tieRule)) {
    throw valueError(`unknown tie_rule ${JSON.stringify(tieRule)}; the known rules are: ${TIE_RULES.join(", ")}`);
  }
  const chunks = new Map();
  for (const document of documents(text, specialTokens)) {
    if (pattern === null) chunks.set(document, (chunks.get(document) ?? 0) + 1);
    else for (const chunk of chunksOf(pattern, document.toWellFormed())) chunks.set(chunk, (chunks.get(chunk) ?? 0) + 1);
  }
  const pieces = [];
  for (const [chunk, times] of chunks) {
    const data = utf8Bytes(chunk);
    if (data.length >= 2) pieces.push([data, times]);
  }
  return new PairIndex(pieces, tieRule).learn(vocabSize);
}

/** The text cut at every special found in it (the longest where several start), the specials left out. */
function documents(text, specialTokens) {
  if (specialTokens === null || specialTokens === undefined) return [text];
  if (!Array.isArray(specialTokens)) throw typeError("special_tokens must be a list of strings");
  if (!specialTokens.length) return [text];
  const pieces = splitSpecial(text, specialTokens.map((s, i) => [s, i]), "all", []);
  return pieces.filter((piece) => Array.isArray(piece)).map(([piece]) => piece);
}

function typeError(message) {
  const error = new Error(message);
  error.kind = "TypeError";
  return error;
}

class PairIndex {
  constructor(pieces, tieRule) {
    let total = 0;
    for (const [data] of pieces) total += data.length;
    this.K = 256 + total + 1; // above every id training can make: pair key = left * K + right
    const vals = this.vals = new Int32Array(total);
    const weight = this.weight = new Float64Array(total);
    const prev = this.prev = new Int32Array(total);
    const next = this.next = new Int32Array(total);
    const places = this.places = new Map();
    const K = this.K;
    let start = 0;
    for (const [data, times] of pieces) {
      const end = start + data.length;
      for (let p = start; p < end; p++) {
        vals[p] = data[p - start];
        weight[p] = times;
        prev[p] = p === start ? NONE : p - 1;
        next[p] = p === end - 1 ? NONE : p + 1;
        if (p > start) {
          const key = vals[p - 1] * K + vals[p];
          const found = places.get(key);
          if (found === undefined) places.set(key, [p - 1]); else found.push(p - 1);
        }
      }
      start = end;
    }
    this.count = new Map();
    this.first = new Map();
    this.bytes = [];
    for (let b = 0; b < 256; b++) this.bytes.push(Uint8Array.of(b));
    this.heap = new Heap(this.comparator(tieRule));
    for (const [key, found] of places) {
      let sum = 0;
      for (const p of found) sum += weight[p];
      this.count.set(key, sum);
      this.first.set(key, found[0]);
      this.heap.push(this.entry(key, sum, found[0]));
    }
  }

  entry(key, count, first) {
    const K = this.K;
    const left = Math.floor(key / K);
    return { key, count, first, left, right: key - left * K };
  }

  /** "a ranks before b": higher count, then the tie rule. */
  comparator(rule) {
    if (rule === "lowest-pair") return (a, b) => a.count > b.count || (a.count === b.count && a.key < b.key);
    if (rule === "bytes-greatest") {
      const bytes = this.bytes;
      return (a, b) => {
        if (a.count !== b.count) return a.count > b.count;
        const order = compareBytes(bytes[a.left], bytes[b.left]) || compareBytes(bytes[a.right], bytes[b.right]);
        return order !== 0 ? order > 0 : a.first < b.first;
      };
    }
    return (a, b) => a.count > b.count || (a.count === b.count && a.first < b.first);
  }

  learn(vocabSize) {
    const merges = [];
    for (let idx = 256; idx < vocabSize; idx++) {
      const best = this.best();
      if (best === null) break;
      const a = this.bytes[best.left], b = this.bytes[best.right];
      const joined = new Uint8Array(a.length + b.length);
      joined.set(a); joined.set(b, a.length);
      this.bytes.push(joined);
      this.apply(best, idx);
      merges.push([best.left, best.right, idx]);
    }
    return merges;
  }

  /** The valid top of the heap (stale entries are dropped), or null when no pair is left. */
  best() {
    const { heap, count, first } = this;
    while (heap.size) {
      const top = heap.peek();
      if (count.get(top.key) === top.count && first.get(top.key) === top.first) return top;
      heap.pop();
    }
    return null;
  }

  /** Replace every occurrence of the pair by idx, left to right, never overlapping. */
  apply(pair, idx) {
    const { vals, prev, next, weight, places, count, first, K } = this;
    const { key, left, right } = pair;
    const positions = places.get(key);
    places.delete(key); count.delete(key); first.delete(key);
    const lost = new Map();   // weight retired per pair, settled at the end
    const gained = new Map(); // weight of the pairs born in this step (all contain idx)
    const born = (newKey, pos, w) => {
      const found = places.get(newKey);
      if (found === undefined) { places.set(newKey, [pos]); first.set(newKey, pos); gained.set(newKey, w); }
      else { found.push(pos); gained.set(newKey, gained.get(newKey) + w); }
    };
    for (const pos of positions) {
      const after = next[pos];
      if (after === NONE || vals[pos] !== left || vals[after] !== right) continue; // stale or overlapped
      const w = weight[pos];
      const before = prev[pos];
      const beyond = next[after];
      if (before !== NONE) {
        const gone = vals[before] * K + left;
        lost.set(gone, (lost.get(gone) ?? 0) + w);
        born(vals[before] * K + idx, before, w);
      }
      if (beyond !== NONE) {
        const gone = right * K + vals[beyond];
        lost.set(gone, (lost.get(gone) ?? 0) + w);
        born(idx * K + vals[beyond], pos, w);
        prev[beyond] = pos;
      }
      vals[pos] = idx;
      next[pos] = beyond;
      next[after] = NONE;
    }
    for (const [newKey, weightIn] of gained) {
      this.settle(newKey, weightIn - (lost.get(newKey) ?? 0));
      lost.delete(newKey);
    }
    for (const [gone, retired] of lost) {
      if (gone !== key) this.settle(gone, count.get(gone) - retired);
    }
  }

  /** Store a pair's new count and first position and rank it again, or forget it at zero. */
  settle(key, remaining) {
    if (!remaining) {
      this.count.delete(key); this.first.delete(key); this.places.delete(key);
      return;
    }
    this.count.set(key, remaining);
    const K = this.K;
    const left = Math.floor(key / K), right = key - left * K;
    let pos = this.first.get(key);
    if (!this.occursAt(pos, left, right)) {
      const found = this.places.get(key);
      let lo = 0, hi = found.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (found[mid] <= pos) lo = mid + 1; else hi = mid; }
      while (!this.occursAt(found[lo], left, right)) lo += 1;
      pos = found[lo];
      this.first.set(key, pos);
    }
    this.heap.push({ key, count: remaining, first: pos, left, right });
  }

  occursAt(pos, left, right) {
    const after = this.next[pos];
    return after !== NONE && this.vals[pos] === left && this.vals[after] === right;
  }
}

/** Python's bytes order: lexicographic, a proper prefix first. */
function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** A binary heap; `before(a, b)` says a comes out first. */
export class Heap {
  constructor(before) { this.before = before; this.items = []; }
  get size() { return this.items.length; }
  peek() { return this.items[0]; }
  push(item) {
    const items = this.items, before = this.before;
    let i = items.length;
    items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(item, items[parent])) break;
      items[i] = items[parent];
      i = parent;
    }
    items[i] = item;
  }
  pop() {
    const items = this.items, before = this.before;
    const top = items[0];
    const last = items.pop();
    if (items.length) {
      let i = 0;
      const n = items.length;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && before(items[child + 1], items[child])) child += 1;
        if (!before(items[child], last)) break;
        items[i] = items[child];
        i = child;
      }
      items[i] = last;
    }
    return top;
  }
}
