// Adapter: the npm package `minbpe` (oramasearch/minbpe, a JavaScript port of karpathy/minbpe)
// served over the bpe-kata stdio protocol (docs/PROTOCOL.md). Names and types only: each op builds
// a BasicTokenizer, sets its tables from the message and calls its method. The upstream is found
// through MINBPE_JS_DIR (a folder whose node_modules holds minbpe@0.0.2; README.md here says how).
// Upstream code prints progress with console.log, so console.log goes to stderr: stdout is the protocol's.
"use strict";
const path = require("path");
const readline = require("readline");
console.log = (...args) => console.error(...args);

const dir = process.env.MINBPE_JS_DIR;
if (!dir) { process.stderr.write("MINBPE_JS_DIR is not set: see tests/outside/README.md\n"); process.exit(2); }
const { BasicTokenizer } = require(path.join(path.resolve(dir), "node_modules", "minbpe"));

const definitions = new Map();
const value = (v) => (v && typeof v === "object" && !Array.isArray(v) && "ref" in v ? definitions.get(v.ref) : v);
const mergesMap = (table) => new Map(value(table).map(([a, b, idx]) => [`${a},${b}`, idx]));
const vocabMap = (vocab) => new Map(value(vocab).map(([id, hex]) => [id, Uint8Array.from(Buffer.from(hex, "hex"))]));
const pairOf = (key) => key.split(",").map(Number);

const ops = {
  hello: () => ({ protocol: 1, name: "minbpe (npm, oramasearch)", version: "0.0.2",
    features: ["encode", "get_stats", "merge", "train", "build_vocab", "decode"] }),
  define: (a) => { definitions.set(a.name, a.value); return null; },
  get_stats: (a) => {
    const { getStats } = require(path.join(path.resolve(dir), "node_modules", "minbpe", "script", "base.js"));
    return [...getStats(a.ids).entries()].map(([key, n]) => [...pairOf(key), n]);
  },
  merge: (a) => {
    const { merge } = require(path.join(path.resolve(dir), "node_modules", "minbpe", "script", "base.js"));
    return merge(a.ids, a.pair, a.idx);
  },
  train: (a) => {
    if (a.pattern != null || a.tie_rule != null) throw Object.assign(new Error("keyword not offered"), { kind: "NotImplemented" });
    const t = new BasicTokenizer();
    t.train(a.text, a.vocab_size, false);
    return [...t.merges.entries()].map(([key, idx]) => [...pairOf(key), idx]);
  },
  build_vocab: (a) => {
    if (a.special_tokens != null) throw Object.assign(new Error("special_tokens not offered"), { kind: "NotImplemented" });
    const t = new BasicTokenizer();
    t.merges = mergesMap(a.merges);
    t.vocab = t.buildVocab();
    return [...t.vocab.entries()].map(([id, bytes]) => [id, Buffer.from(bytes).toString("hex")]);
  },
  decode: (a) => { const t = new BasicTokenizer(); t.vocab = vocabMap(a.vocab); return t.decode(a.ids); },
  encode: (a) => {
    if (a.pattern != null || a.special_tokens != null) throw Object.assign(new Error("keyword not offered"), { kind: "NotImplemented" });
    const t = new BasicTokenizer(); t.merges = mergesMap(a.merges); return t.encode(a.text);
  },
};

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const request = JSON.parse(line);
  let response;
  try {
    response = { id: request.id, ok: true, result: ops[request.op](request.args || {}) };
  } catch (error) {
    const kind = error && error.kind ? error.kind : "Error";
    response = { id: request.id, ok: false, error: { kind, message: kind === "Error" ? `${error.message}\n${error.stack}` : String(error.message) } };
  }
  process.stdout.write(JSON.stringify(response) + "\n");
});
