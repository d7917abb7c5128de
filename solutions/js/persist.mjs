// Saving and loading a tokenizer in the plain-text `bpe-kata v1` format (spec/CONTRACT.md):
// the version line, the pattern and each special as JSON, then the merges in training order.
// A save writes a temporary file beside the target and renames it over; a load checks every
// line and names the file and the line of the first problem.

import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { valueError } from "./core.mjs";
import { checkSpecialTokens } from "./special.mjs";
import { compilePattern } from "./patterns.mjs";

const VERSION = "bpe-kata v1";
const NUMBER = /^(?:0|[1-9][0-9]*)$/;
const MAX_DIGITS = 4000; // no id needs more; Python's int() stops at 4300 digits

export function save(file, merges, pattern = null, specialTokens = []) {
  const text = dumps(merges, pattern, specialTokens);
  // A short name of its own, so that any legal target name can be saved to.
  const temporary = path.join(path.dirname(file), `.bpe-${crypto.randomBytes(4).toString("hex")}.tmp`);
  let handle = null;
  try {
    handle = fs.openSync(temporary, "wx");
    // One write call may write only part (a full disk, a file-size limit): write until all is
    // written, so that the failure, if any, comes as an error and the rename never happens.
    const data = Buffer.from(text, "utf8");
    for (let done = 0; done < data.length;) done += fs.writeSync(handle, data, done, data.length - done);
    fs.fsyncSync(handle);
    fs.closeSync(handle);
    handle = null;
    fs.renameSync(temporary, file);
  } catch (error) {
    if (handle !== null) fs.closeSync(handle);
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

/** The file's text; a ValueError for a table that load would reject. */
export function dumps(merges, pattern, specialTokens) {
  if (pattern !== null && typeof pattern !== "string") throw valueError("pattern must be a string or null");
  checkSpecialTokens(specialTokens);
  const rows = [...merges].sort((a, b) => a[2] - b[2]);
  const specials = [...specialTokens].sort((a, b) => a[1] - b[1]);
  const lines = [VERSION, `pattern ${JSON.stringify(pattern)}`, `specials ${specials.length}`];
  for (const [special, idx] of specials) lines.push(`${idx} ${JSON.stringify(special)}`);
  lines.push(`merges ${rows.length}`);
  for (const [a, b, idx] of rows) lines.push(`${a} ${b} ${idx}`);
  const text = lines.join("\n") + "\n";
  loads(text, "<the table to save>"); // never write what could not be read back
  return text;
}

/** {merges, pattern, special_tokens} read from a file written in the format. */
export function load(file) {
  const data = fs.readFileSync(file);
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data);
  } catch {
    // A newline byte is never inside a UTF-8 sequence: the first line that fails holds the problem.
    let line = 1, start = 0;
    for (;;) {
      const end = data.indexOf(0x0a, start);
      const part = data.subarray(start, end < 0 ? data.length : end);
      try { new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(part); } catch { break; }
      if (end < 0) break;
      line += 1; start = end + 1;
    }
    // The first problem is named: an earlier line may already break the format (the lines before
    // the bad one decode), and then that line is the one to report.
    const before = new TextDecoder("utf-8", { ignoreBOM: true }).decode(data.subarray(0, start));
    try { loads(before, String(file)); } catch (earlier) {
      const at = /, line (\d+): /.exec(earlier.message);
      if (at && Number(at[1]) < line) throw earlier;
    }
    throw valueError(`${file}, line ${line}: not UTF-8 text; is this a ${VERSION} file?`);
  }
  return loads(text, String(file));
}

export function loads(text, name) {
  const lines = text.split("\n");
  const complete = lines[lines.length - 1] === "";
  if (complete) lines.pop();
  let number = 0;
  const fail = (problem) => valueError(`${name}, line ${number}: ${problem}`);
  const nextLine = (expecting) => {
    number += 1;
    if (number > lines.length) throw fail(`the file ends here, but ${expecting} should follow: it is truncated`);
    if (number === lines.length && !complete) throw fail("the last line has no newline at its end: the file is truncated");
    return lines[number - 1];
  };
  const keyword = (key, expecting) => {
    const line = nextLine(expecting);
    if (!line.startsWith(key + " ")) throw fail(`expected ${expecting}, found ${JSON.stringify(line.slice(0, 60))}`);
    return line.slice(key.length + 1);
  };
  const numberOf = (field) => {
    if (field.length > MAX_DIGITS) throw fail(`a number of ${field.length} digits: more than ${MAX_DIGITS}, no id needs it`);
    if (!NUMBER.test(field)) throw fail(`${JSON.stringify(field.slice(0, 40))} is not a number (decimal digits, no sign)`);
    const value = Number(field);
    // Ids travel as JSON numbers: one beyond 2^53 would not come back exact, so it is refused here.
    if (!Number.isSafeInteger(value)) throw fail(`${field.length > 20 ? field.slice(0, 20) + "..." : field} is larger than this implementation can hold exactly (${Number.MAX_SAFE_INTEGER})`);
    return value;
  };
  const json = (field) => {
    let value;
    try { value = JSON.parse(field); } catch { throw fail(`${JSON.stringify(field.slice(0, 60))} is not a JSON value`); }
    if (typeof value === "string" && !value.isWellFormed()) {
      throw fail("the string holds a lone surrogate (a JSON escape such as \\ud800), which has no UTF-8 form");
    }
    return value;
  };

  const version = nextLine(`the version line '${VERSION}'`);
  if (version !== VERSION) {
    const kind = version.startsWith("bpe-kata ") ? "an unsupported version" : "not a bpe-kata file";
    throw fail(`${kind}: expected '${VERSION}', found ${JSON.stringify(version.slice(0, 60))}`);
  }
  const pattern = json(keyword("pattern", "'pattern <JSON string or null>'"));
  if (pattern !== null && typeof pattern !== "string") throw fail("the pattern must be a JSON string or null");
  if (pattern !== null) {
    try { compilePattern(pattern); } catch (error) { throw fail(`the pattern is not a usable split pattern: ${error.message}`); }
  }

  const specialCount = numberOf(keyword("specials", "'specials <count>'"));
  const specials = new Map();
  const specialIds = new Set();
  for (let i = 0; i < specialCount; i++) {
    const line = nextLine(`special token ${i + 1} of ${specialCount}`);
    const space = line.indexOf(" ");
    const idx = numberOf(space < 0 ? line : line.slice(0, space));
    const special = json(space < 0 ? "" : line.slice(space + 1));
    if (typeof special !== "string" || !special) throw fail("a special token must be a non-empty JSON string");
    if (idx < 256) throw fail(`special token id ${idx} is a byte value; special ids start at 256`);
    if (specialIds.has(idx) || specials.has(special)) throw fail(`duplicate special token id or string: ${idx} ${JSON.stringify(special)}`);
    specials.set(special, idx);
    specialIds.add(idx);
  }

  const mergeCount = numberOf(keyword("merges", "'merges <count>'"));
  const merges = [];
  const pairs = new Set();
  const defined = new Set();
  let last = 255;
  for (let i = 0; i < mergeCount; i++) {
    const fields = nextLine(`merge ${i + 1} of ${mergeCount}`).split(" ");
    if (fields.length !== 3) throw fail("a merge line is '<left> <right> <id>'");
    const [left, right, idx] = fields.map(numberOf);
    for (const part of [left, right]) {
      if (part >= 256 && !defined.has(part)) throw fail(`merge uses id ${part}, which no earlier merge defines`);
    }
    if (idx <= last) throw fail(`merge id ${idx} does not come after ${last}: merges must be in training order`);
    if (specialIds.has(idx)) throw fail(`merge id ${idx} is already a special token's id`);
    if (pairs.has(`${left},${right}`)) throw fail(`the pair (${left}, ${right}) is merged twice`);
    pairs.add(`${left},${right}`);
    merges.push([left, right, idx]);
    defined.add(idx);
    last = idx;
  }
  if (number < lines.length) { number += 1; throw fail("unexpected content after the last merge"); }
  return { merges, pattern, special_tokens: [...specials] };
}
