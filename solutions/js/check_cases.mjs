#!/usr/bin/env node
// Runs this implementation on the worked examples of spec/cases/*.json (language-neutral data)
// and prints one line per disagreement; exits 1 if there is any. Cases that need a corpus
// file or a summary the suite computes (train_encode, words budgets, traces) are counted as
// skipped: the spec itself checks them through the protocol.
//
//   node solutions/js/check_cases.mjs [spec/cases]

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildVocab, decode, getStats, merge } from "./core.mjs";
import { Table, encode } from "./encode.mjs";
import { PUBLISHED_PATTERNS, chunksOf } from "./patterns.mjs";
import { train } from "./train.mjs";
import { streamDecode } from "./stream.mjs";
import { segmentWord, trainWords } from "./words.mjs";
import { load } from "./persist.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const folder = process.argv[2] ?? path.join(here, "..", "..", "spec", "cases");
const hex = (bytes) => Buffer.from(bytes).toString("hex");
const specials = (input) => Object.entries(input.special_tokens ?? {});
const failed = (run) => { try { run(); return null; } catch (error) { return error; } };
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bpe-js-cases-"));

/** operation -> (input, expected) => what the implementation gives, shaped as `expected`; undefined: skipped. */
const RUN = {
  encode: (i, e) => (e.ids ? { ids: encode(i.text, new Table(i.merges)) } : undefined),
  decode: (i) => ({ text: decode(i.ids, buildVocab(i.merges, specials(i))) }),
  build_vocab: (i, e) => {
    const vocab = buildVocab(i.merges);
    return { entries: Object.fromEntries(Object.keys(e.entries).map((id) => [id, hex(vocab.get(Number(id)))])) };
  },
  merge: (i) => ({ ids: merge(i.ids, i.pair, i.idx) }),
  get_stats: (i) => ({ pairs: getStats(i.ids) }),
  split: (i) => ({ chunks: chunksOf(PUBLISHED_PATTERNS[i.pattern] ?? i.pattern, i.text) }),
  train: (i, e) => {
    if (i.corpus) return undefined;
    const options = { pattern: i.pattern ? PUBLISHED_PATTERNS[i.pattern] : null, tieRule: i.tie_rule ?? "first-counted" };
    if (e.error) return { error: failed(() => train(i.text, i.vocab_size, options))?.kind };
    return { merges: train(i.text, i.vocab_size, options) };
  },
  uncovered: (i, e) => {
    // train and encode must both refuse the text, naming the first uncovered position
    const named = (error) => error && new RegExp(`(?<!\\d)${e.position}(?!\\d)`).test(error.message);
    const errors = [failed(() => train(i.text, 300, { pattern: i.pattern })), failed(() => encode(i.text, new Table([]), { pattern: i.pattern }))];
    return errors.every((error) => error?.kind === "ValueError" && named(error))
      ? { error: "ValueError", position: e.position } : { errors: errors.map(String) };
  },
  encode_special: (i, e) => {
    const options = { pattern: i.pattern ? PUBLISHED_PATTERNS[i.pattern] : null, specialTokens: specials(i),
      allowed: i.allowed_special, disallowed: i.disallowed_special };
    if (!e.error) return { ids: encode(i.text, new Table(i.merges), options) };
    const error = failed(() => encode(i.text, new Table(i.merges), options));
    const shown = error && error.message.includes(e.token) && new RegExp(`(?<!\\d)${e.position}(?!\\d)`).test(error.message);
    return shown ? { error: error.kind, position: e.position, token: e.token } : { error: String(error) };
  },
  stream: (i) => {
    const { feeds, flush } = streamDecode(buildVocab(i.merges), i.ids);
    return { outputs: feeds, flush };
  },
  load: (i, e) => {
    const file = path.join(scratch, "case.bpe");
    fs.writeFileSync(file, i.file);
    if (!e.error) {
      const { merges, pattern, special_tokens } = load(file);
      return { merges, pattern, special_tokens: Object.fromEntries(special_tokens) };
    }
    const error = failed(() => load(file));
    const line = error && error.message.includes(file) ? Number(/line (\d+)/.exec(error.message)?.[1]) : null;
    return { error: error?.kind, line };
  },
  train_words: (i, e) => {
    if (!e.merges) return undefined;
    const corpus = i.words ? Object.entries(i.words) : i.text;
    const merges = trainWords(corpus, i.num_merges, i.end_of_word === undefined ? "_" : i.end_of_word);
    return { merges: merges.map(([[left, right], count]) => [left, right, count]) };
  },
  segment_word: (i, e) => (e.symbols
    ? { symbols: segmentWord(i.word, i.merges, i.end_of_word === undefined ? "_" : i.end_of_word) } : undefined),
};

/** JSON with object keys sorted, so that only content is compared. */
const canonical = (value) => JSON.stringify(value, (key, v) => (v && typeof v === "object" && !Array.isArray(v)
  ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));

let checked = 0, skipped = 0, wrong = 0;
for (const name of fs.readdirSync(folder).sort()) {
  if (!name.endsWith(".json") || name === "schema.json") continue;
  for (const c of JSON.parse(fs.readFileSync(path.join(folder, name), "utf8")).cases) {
    const run = RUN[c.operation];
    let got;
    try { got = run ? run(c.input, c.expected) : undefined; } catch (error) { got = { error: String(error) }; }
    if (got === undefined) { skipped += 1; continue; }
    checked += 1;
    // runners_up (the second-best pairs) are the suite's to compute; the merges are compared.
    const expected = c.operation === "train_words" ? { merges: c.expected.merges } : c.expected;
    if (canonical(got) !== canonical(expected)) {
      wrong += 1;
      console.log(`${name} ${c.id}: expected ${JSON.stringify(expected).slice(0, 300)}, got ${JSON.stringify(got).slice(0, 300)}`);
    }
  }
}
fs.rmSync(scratch, { recursive: true, force: true });
console.log(`${checked} cases checked, ${wrong} wrong, ${skipped} skipped (need a corpus or a suite-computed summary)`);
process.exit(wrong ? 1 : 0);
