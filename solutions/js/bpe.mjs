#!/usr/bin/env node
// bpe-kata stdio protocol, version 1 (docs/PROTOCOL.md): one JSON request per line on stdin,
// one JSON response per line on stdout, in order. Logs go to stderr only.
//
//   node solutions/js/bpe.mjs

import readline from "node:readline";
import { buildVocab, decode, getStats, merge } from "./core.mjs";
import { Table, encode } from "./encode.mjs";
import { PatternError } from "./patterns.mjs";
import { train } from "./train.mjs";
import { streamDecode } from "./stream.mjs";
import { segmentWord, trainWords } from "./words.mjs";
import { withCallerCodePoints } from "./caller.mjs";
import { load, save } from "./persist.mjs";

const FEATURES = [
  "encode", "encode_iterable", "get_stats", "merge", "train", "build_vocab", "decode",
  "train(pattern=)", "encode(pattern=)", "encode(special_tokens=)", "build_vocab(special_tokens=)",
  "save", "load", "StreamDecoder", "train_words", "segment_word", "train(tie_rule=)", "train(special_tokens=)",
];

const definitions = new Map(); // name -> {kind, value}: merges as a Table, vocab as a Map

class ProtocolError extends Error {
  constructor(kind, message) { super(message); this.kind = kind; }
}

/** A merge table argument: inline [[l, r, id], ...] or {"ref": NAME}. */
function tableOf(value) {
  if (value && !Array.isArray(value) && typeof value === "object") return defined(value.ref, "merges");
  if (!Array.isArray(value)) throw new ProtocolError("TypeError", "merges must be an array of [left, right, id] or a ref");
  return new Table(value);
}

/** A vocabulary argument: inline [[id, "hex"], ...] or {"ref": NAME}, as a Map id -> bytes. */
function vocabOf(value) {
  if (value && !Array.isArray(value) && typeof value === "object") return defined(value.ref, "vocab");
  if (!Array.isArray(value)) throw new ProtocolError("TypeError", "vocab must be an array of [id, hex] or a ref");
  return new Map(value.map(([id, hex]) => [id, Uint8Array.from(Buffer.from(hex, "hex"))]));
}

function defined(name, kind) {
  const definition = definitions.get(name);
  if (!definition) throw new ProtocolError("Error", `no definition named ${JSON.stringify(name)}`);
  if (definition.kind !== kind) throw new ProtocolError("Error", `definition ${JSON.stringify(name)} is ${definition.kind}, not ${kind}`);
  return definition.value;
}

const optional = (args, name, fallback) => (args[name] === undefined ? fallback : args[name]);

/** Each operation: the keywords it accepts, and what it does with them. */
const OPERATIONS = {
  hello: [["protocol"], (args) => {
    if (args.protocol !== 1) throw new ProtocolError("Error", `this implementation speaks protocol 1, not ${args.protocol}`);
    return { protocol: 1, name: "bpe-kata-js", version: "0.1.0", features: FEATURES, code_points: true };
  }],
  get_stats: [["ids"], (args) => getStats(args.ids)],
  merge: [["ids", "pair", "idx"], (args) => merge(args.ids, args.pair, args.idx)],
  train: [["text", "vocab_size", "pattern", "tie_rule", "special_tokens"], (args) => train(args.text, args.vocab_size, {
    pattern: optional(args, "pattern", null), tieRule: optional(args, "tie_rule", "first-counted"),
    specialTokens: optional(args, "special_tokens", null),
  })],
  build_vocab: [["merges", "special_tokens"], (args) => {
    const vocab = buildVocab(tableOf(args.merges).merges, optional(args, "special_tokens", null) ?? []);
    return [...vocab].map(([id, bytes]) => [id, Buffer.from(bytes).toString("hex")]);
  }],
  decode: [["ids", "vocab"], (args) => decode(args.ids, vocabOf(args.vocab))],
  encode: [["text", "merges", "pattern", "special_tokens", "allowed_special", "disallowed_special"],
    (args) => encode(args.text, tableOf(args.merges), {
      pattern: optional(args, "pattern", null),
      specialTokens: optional(args, "special_tokens", null),
      allowed: optional(args, "allowed_special", []),
      disallowed: optional(args, "disallowed_special", "all"),
    })],
  // The texts travel whole (docs/PROTOCOL.md): the ids are those of the texts joined.
  encode_iterable: [["texts", "merges", "pattern", "special_tokens", "allowed_special", "disallowed_special"],
    (args) => OPERATIONS.encode[1](args)],
  save: [["path", "merges", "pattern", "special_tokens"], (args) => {
    save(args.path, tableOf(args.merges).merges, optional(args, "pattern", null), optional(args, "special_tokens", null) ?? []);
    return null;
  }],
  load: [["path"], (args) => load(args.path)],
  stream_decode: [["vocab", "ids"], (args) => streamDecode(vocabOf(args.vocab), args.ids)],
  train_words: [["corpus", "num_merges", "end_of_word"],
    (args) => trainWords(args.corpus, args.num_merges, optional(args, "end_of_word", "_"))],
  segment_word: [["word", "merges", "end_of_word"],
    (args) => segmentWord(args.word, args.merges, optional(args, "end_of_word", "_"))],
  define: [["name", "kind", "value"], (args) => {
    if (args.kind === "merges") definitions.set(args.name, { kind: "merges", value: tableOf(args.value) });
    else if (args.kind === "vocab") definitions.set(args.name, { kind: "vocab", value: vocabOf(args.value) });
    else throw new ProtocolError("ValueError", `unknown definition kind ${JSON.stringify(args.kind)}`);
    return null;
  }],
};

/** The texts of encode_iterable as one text: a string, or {code_points} when any text arrived as code points. */
function joinedText(texts) {
  if (!Array.isArray(texts)) throw new ProtocolError("TypeError", "texts must be an array of texts");
  if (!texts.some((text) => text && typeof text === "object")) return texts.join("");
  const codePoints = [];
  for (const text of texts) {
    if (text && typeof text === "object") codePoints.push(...text.code_points);
    else for (const character of text) codePoints.push(character.codePointAt(0));
  }
  return { code_points: codePoints };
}

function handle(request) {
  const operation = OPERATIONS[request.op];
  if (!operation) throw new ProtocolError("NotImplemented", `unknown operation ${JSON.stringify(request.op)}`);
  const [keywords, run] = operation;
  let args = request.args ?? {};
  for (const name of Object.keys(args)) {
    if (!keywords.includes(name)) throw new ProtocolError("NotImplemented", `${request.op} does not take ${name}`);
  }
  if (request.op === "encode_iterable") {
    const { texts, ...rest } = args;
    args = { ...rest, text: joinedText(texts) };
  }
  const text = args.text;
  if (text && typeof text === "object" && Array.isArray(text.code_points)) {
    // A Python str whose surrogate pair arrived as two code points (docs/PROTOCOL.md): a JS string
    // joins them, so positions are counted in the caller's code points while the call runs.
    let joined = "";
    for (const cp of text.code_points) joined += String.fromCodePoint(cp);
    return withCallerCodePoints(text.code_points, () => run({ ...args, text: joined }));
  }
  return run(args);
}

function failure(error) {
  if (error instanceof PatternError) return { kind: "ValueError", message: error.message };
  const kind = ["ValueError", "KeyError", "TypeError", "NotImplemented", "Error"].includes(error?.kind) ? error.kind : "Error";
  const message = kind === "Error" && error?.stack ? `${error.message}\n${error.stack}` : String(error?.message ?? error);
  const frame = firstFrame(error);
  return { kind, message, ...(kind === "Error" && error?.name ? { type: error.name } : {}), ...(frame ? { frame } : {}) };
}

/** The optional frame of an error (docs/PROTOCOL.md): the stack's first "at f (file:line:col)" line. */
function firstFrame(error) {
  const line = String(error?.stack ?? "").split("\n").find((text) => /^\s+at /.test(text));
  const match = line && /^\s+at (?:(.*?) \()?(?:file:\/\/)?(.*?):(\d+):\d+\)?$/.exec(line);
  if (!match) return null;
  const [, fn, file, number] = match;
  const cwd = process.cwd() + "/";
  return { file: file.startsWith(cwd) ? file.slice(cwd.length) : file, line: Number(number), function: fn || "?" };
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
input.on("line", (line) => {
  if (!line.trim()) return;
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    // Still one answer per line, so that the suite sees the fault at once instead of waiting.
    process.stderr.write(`bpe-kata-js: not a JSON request: ${line.slice(0, 200)}\n`);
    const message = `not a JSON request: ${error.message}`;
    process.stdout.write(JSON.stringify({ id: null, ok: false, error: { kind: "Error", message } }) + "\n");
    return;
  }
  let response;
  try {
    response = { id: request.id, ok: true, result: handle(request) };
  } catch (error) {
    if (failure(error).kind === "Error") process.stderr.write(`bpe-kata-js: ${error?.stack ?? error}\n`);
    response = { id: request.id, ok: false, error: failure(error) };
  }
  process.stdout.write(JSON.stringify(response) + "\n");
});
input.on("close", () => process.exit(0));
