// The whole-sequence building blocks of byte-level BPE: pair counts, one merge, the
// vocabulary, decoding. Training and encoding have their own fast paths (train.mjs,
// encode.mjs); these are the contract's plain operations.

const utf8 = new TextEncoder();

/** UTF-8 bytes of text; a lone surrogate becomes U+FFFD's bytes (EF BF BD). */
export function utf8Bytes(text) {
  return utf8.encode(text);
}

/** Decode bytes as UTF-8, each maximal invalid subpart becoming U+FFFD (as Python's "replace"). */
export function utf8Text(bytes) {
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes);
}

/** [left, right, count] for every adjacent pair, overlaps included, in first-seen order. */
export function getStats(ids) {
  const counts = new Map();
  for (let i = 0; i + 1 < ids.length; i++) {
    const key = `${ids[i]},${ids[i + 1]}`;
    const entry = counts.get(key);
    if (entry === undefined) counts.set(key, [ids[i], ids[i + 1], 1]);
    else entry[2] += 1;
  }
  return [...counts.values()];
}

/** A new list with each occurrence of pair, left to right and never overlapping, replaced by idx. */
export function merge(ids, pair, idx) {
  const [first, second] = pair;
  const out = [];
  const n = ids.length;
  for (let i = 0; i < n;) {
    if (i + 1 < n && ids[i] === first && ids[i + 1] === second) { out.push(idx); i += 2; }
    else { out.push(ids[i]); i += 1; }
  }
  return out;
}

/**
 * id -> bytes (Uint8Array): the 256 bytes, each merge in id order (its parts may be earlier
 * merges), then each special token's UTF-8 text.
 */
export function buildVocab(merges, specialTokens = []) {
  const vocab = new Map();
  for (let b = 0; b < 256; b++) vocab.set(b, Uint8Array.of(b));
  const ordered = [...merges].sort((a, b) => a[2] - b[2]);
  for (const [left, right, idx] of ordered) {
    for (const part of [left, right]) {
      if (!vocab.has(part)) {
        throw valueError(`merge (${left}, ${right}) -> ${idx} uses id ${part}, which is neither a byte (0..255) nor produced by an earlier merge`);
      }
    }
    const a = vocab.get(left), b = vocab.get(right);
    const joined = new Uint8Array(a.length + b.length);
    joined.set(a); joined.set(b, a.length);
    vocab.set(idx, joined);
  }
  for (const [special, idx] of specialTokens) {
    if (vocab.has(idx)) throw valueError(`special token ${JSON.stringify(special)} has id ${idx}, which a byte or a merge already uses`);
    vocab.set(idx, utf8Bytes(special));
  }
  return vocab;
}

/** All the ids' bytes joined, then decoded once as UTF-8 with replacement. */
export function decode(ids, vocab) {
  let total = 0;
  const parts = new Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const part = vocab.get(ids[i]);
    if (part === undefined) {
      throw valueError(`unknown token id ${ids[i]} at position ${i}: the vocabulary has ${vocab.size} ids`);
    }
    parts[i] = part;
    total += part.length;
  }
  const data = new Uint8Array(total);
  let at = 0;
  for (const part of parts) { data.set(part, at); at += part.length; }
  return utf8Text(data);
}

/** An Error the protocol reports with kind ValueError. */
export function valueError(message) {
  const error = new Error(message);
  error.kind = "ValueError";
  return error;
}
