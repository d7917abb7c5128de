// Classic word-level BPE: words spelled as characters (code points) plus an end-of-word marker.
// Each step recounts the pairs of the distinct words, weighted by count; ties go to the pair
// seen first (words in order of first appearance, each left to right).

import { valueError } from "./core.mjs";

// Python's str.split() whitespace (str.isspace), which JavaScript's \s does not equal.
const PY_SPACE = /[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

/** [[[left, right], count], ...]: up to numMerges merges with their counts when chosen. */
export function trainWords(corpus, numMerges, endOfWord = "_") {
  if (!Number.isInteger(numMerges)) throw valueError(`num_merges must be an int, got ${numMerges}`);
  if (numMerges < 0) throw valueError(`num_merges must be at least 0, got ${numMerges}`);
  let words = countsOf(corpus).map(([word, count]) => [spell(word, endOfWord), count]);
  const merges = [];
  while (merges.length < numMerges) {
    words = words.filter(([symbols]) => symbols.length > 1);
    const stats = new Map();
    for (const [symbols, count] of words) {
      for (let i = 0; i + 1 < symbols.length; i++) {
        const key = JSON.stringify([symbols[i], symbols[i + 1]]);
        stats.set(key, (stats.get(key) ?? 0) + count);
      }
    }
    if (!stats.size) break;
    let bestKey = null, bestCount = -1;
    for (const [key, count] of stats) if (count > bestCount) { bestKey = key; bestCount = count; }
    const pair = JSON.parse(bestKey);
    merges.push([pair, bestCount]);
    words = words.map(([symbols, count]) => [mergeSymbols(symbols, pair), count]);
  }
  return merges;
}

/** Spell the word (plus the marker) and apply each merge once, in the order given. */
export function segmentWord(word, merges, endOfWord = "_") {
  let symbols = spell(word, endOfWord);
  for (const pair of merges) {
    if (symbols.length < 2) break;
    symbols = mergeSymbols(symbols, pair);
  }
  return symbols;
}

/** [word, count] in order of first appearance; an array of [word, count] keeps its own order. */
function countsOf(corpus) {
  if (typeof corpus === "string") {
    const counts = new Map();
    for (const word of corpus.split(PY_SPACE)) if (word) counts.set(word, (counts.get(word) ?? 0) + 1);
    return [...counts];
  }
  for (const [word, count] of corpus) {
    if (typeof word !== "string" || !Number.isInteger(count) || count < 1) {
      throw valueError(`corpus entries must be str -> positive int, got ${JSON.stringify(word)}: ${count}`);
    }
  }
  return corpus;
}

function spell(word, endOfWord) {
  const symbols = Array.from(word);
  if (endOfWord) symbols.push(endOfWord);
  return symbols;
}

function mergeSymbols(symbols, [left, right]) {
  const out = [];
  for (let i = 0; i < symbols.length;) {
    if (i + 1 < symbols.length && symbols[i] === left && symbols[i + 1] === right) { out.push(left + right); i += 2; }
    else { out.push(symbols[i]); i += 1; }
  }
  return out;
}
