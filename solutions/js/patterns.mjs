// Split patterns: the spec sends patterns written for Python's `regex` module; this module
// turns them into JavaScript RegExps (flags "gu") that cut every text into the same chunks.
//
// The two published patterns are translated by hand (see README.md, "Patterns"): Node 20's
// RegExp has no possessive quantifiers and no inline (?i:...), and its \s and `.` differ from
// the regex module's. Any other pattern goes through `translate`, which rewrites the few
// constructs whose meaning differs (\s \S \d \D, `.`, `$`, possessive quantifiers); whatever
// JavaScript then cannot compile is answered with a ValueError.
import { callerPositionOfUnits } from "./caller.mjs";

// The regex module's \s is Unicode White_Space (JavaScript's \s adds U+FEFF and lacks U+0085).
const WS = "\\p{White_Space}";
const NOT_WS = "\\P{White_Space}";

// Characters that match (?i:...) letters of GPT-4's contractions under simple case folding,
// as the regex module matches them: ſ (U+017F) folds to s, K (U+212A) is not involved.
const GPT4_CONTRACTION = "'(?:[sSſdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])";

/** The spec's published patterns by name (spec/patterns.py PATTERNS), character for character. */
export const PUBLISHED_PATTERNS = {
  gpt2: String.raw`'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`,
  gpt4: String.raw`'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s`,
};

/** Each published pattern -> its hand-made JavaScript equivalent. */
export const PUBLISHED = new Map([
  // GPT-2 as released: no possessives, no inline flags; only \s needs its Unicode meaning.
  [PUBLISHED_PATTERNS.gpt2,
    String.raw`'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^${WS}\p{L}\p{N}]+|${WS}+(?!${NOT_WS})|${WS}+`],
  // GPT-4 (cl100k_base). Each possessive here can drop its `+` without changing any match:
  // nothing after it could use a shorter run (see README.md); `$` is only reached at the end
  // of a whitespace run, where Python's "end, or before a final newline" means "end".
  [PUBLISHED_PATTERNS.gpt4,
    String.raw`${GPT4_CONTRACTION}|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^${WS}\p{L}\p{N}]+[\r\n]*|${WS}+$|${WS}*[\r\n]|${WS}+(?!${NOT_WS})|${WS}`],
]);

const cache = new Map();

export class PatternError extends Error {}

/** The JavaScript RegExp (flags "gu") for a regex-module pattern; PatternError if none. */
export function compilePattern(pattern) {
  if (typeof pattern !== "string") throw new TypeError(`pattern must be a string, not ${typeof pattern}`);
  let re = cache.get(pattern);
  if (re === undefined) {
    const source = PUBLISHED.get(pattern) ?? translate(pattern);
    try {
      re = new RegExp(source, "gu");
    } catch (error) {
      throw new PatternError(`invalid split pattern ${JSON.stringify(pattern)}: ${error.message}`);
    }
    cache.set(pattern, re);
  }
  return re;
}

/**
 * Every whole match of the pattern in text, in order, empty ones left out. The matches must
 * cover the text: a character in no match is a ValueError naming its position (in code
 * points, as Python counts, plus `offset`; `offsetUnits` is the same start in UTF-16 units),
 * since it would otherwise vanish from the tokens.
 */
export function chunksOf(pattern, text, offset = 0, offsetUnits = 0) {
  const re = compilePattern(pattern);
  const out = [];
  let covered = 0; // UTF-16 units covered so far; matches come in order and never overlap
  for (const match of text.matchAll(re)) {
    if (match.index > covered) throw uncovered(pattern, text, covered, offset, offsetUnits);
    covered = match.index + match[0].length;
    if (match[0]) out.push(match[0]);
  }
  if (covered < text.length) throw uncovered(pattern, text, covered, offset, offsetUnits);
  return out;
}

function uncovered(pattern, text, at, offset, offsetUnits) {
  const position = callerPositionOfUnits(offsetUnits + at) ?? offset + codePointCount(text.slice(0, at));
  const character = String.fromCodePoint(text.codePointAt(at));
  const error = new Error(`the split pattern ${JSON.stringify(pattern)} does not cover the text: the character `
    + `${JSON.stringify(character)} at position ${position} is in no match and would be lost; a split pattern must `
    + "match every character (the published patterns do)");
  error.kind = "ValueError";
  return error;
}

/** How many characters Python counts in a string: code points (a surrogate pair is one). */
export function codePointCount(text) {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

// The regex module's \w (Unicode's word characters; JavaScript's \w is ASCII only).
const WORD = "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}";

/** Escapes that mean a set of characters, inside a class [...] or (wrapped) outside. */
const CLASS_ESCAPES = { s: WS, S: NOT_WS, d: "\\p{Nd}", D: "\\P{Nd}", w: WORD };

/** Escapes outside a class whose JavaScript meaning differs from the regex module's. */
const ESCAPES = {
  ...CLASS_ESCAPES,
  w: `[${WORD}]`,
  W: `[^${WORD}]`,
  b: `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`,
  B: `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`,
  Z: "$",
  A: "^",
};

/**
 * Rewrite a regex-module pattern for JavaScript: \s \S \d \D \w \W \b \B by their Unicode
 * meaning, \A and \Z, `.` as "anything but \n", `$` as "end, or before a final \n", and a possessive quantifier
 * (X*+, X++, X?+, X{m,n}+) as an atomic group, (?=(X*))\k, which JavaScript can express.
 */
export function translate(pattern) {
  let out = "";
  let groups = 0;        // capturing groups of the pattern, to name ours after them
  const atoms = [];      // start offset in `out` of each atom, for possessive rewriting
  const openings = [];   // start offsets of open groups
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    const start = out.length;
    if (c === "\\") {
      const next = pattern[i + 1];
      if (Object.hasOwn(ESCAPES, next)) { out += ESCAPES[next]; i += 2; }
      else if ((next === "p" || next === "P") && pattern[i + 2] === "{") {
        const end = pattern.indexOf("}", i);
        out += pattern.slice(i, end + 1); i = end + 1;
      } else { out += pattern.slice(i, i + 2); i += 2; }
      atoms.push(start);
    } else if (c === "[") {
      const [text, end] = translateClass(pattern, i);
      out += text; i = end; atoms.push(start);
    } else if (c === "(") {
      if (pattern[i + 1] !== "?" || pattern.startsWith("(?P<", i) || (pattern[i + 2] === "<" && !"=!".includes(pattern[i + 3]))) groups += 1;
      if (pattern.startsWith("(?P<", i)) { out += "(?<"; i += 4; } else { out += "("; i += 1; }
      openings.push(start);
    } else if (c === ")") {
      out += ")"; i += 1;
      atoms.push(openings.pop() ?? start);
    } else if (c === "." ) { out += "[^\\n]"; i += 1; atoms.push(start); }
    else if (c === "$") { out += "(?=\\n?$)"; i += 1; }
    else if ("*+?{".includes(c)) {
      let end = i + 1;
      if (c === "{") { const close = pattern.indexOf("}", i); end = close < 0 ? i + 1 : close + 1; }
      const quantifier = pattern.slice(i, end);
      if (pattern[end] === "+" && atoms.length) {
        const atomStart = atoms[atoms.length - 1];
        const atom = out.slice(atomStart);
        groups += 1;
        const name = `possessive${groups}`;
        out = out.slice(0, atomStart) + `(?:(?=(?<${name}>${atom}${quantifier}))\\k<${name}>)`;
        i = end + 1;
      } else {
        out += quantifier; i = end;
        if (pattern[i] === "?") { out += "?"; i += 1; }
      }
    } else {
      // one code point, kept whole
      const cp = pattern.codePointAt(i);
      const ch = String.fromCodePoint(cp);
      out += ch; i += ch.length; atoms.push(start);
      if (c === "|") atoms.length = 0;
    }
  }
  return out;
}

/** A character class [...] from `i`: its JavaScript text and the offset after it. */
function translateClass(pattern, i) {
  let out = "[";
  i += 1;
  if (pattern[i] === "^") { out += "^"; i += 1; }
  if (pattern[i] === "]") { out += "\\]"; i += 1; }
  while (i < pattern.length && pattern[i] !== "]") {
    if (pattern[i] === "\\") {
      const next = pattern[i + 1];
      if (Object.hasOwn(CLASS_ESCAPES, next)) { out += CLASS_ESCAPES[next]; i += 2; continue; }
      if (next === "W") throw new PatternError("\\W inside a character class is not supported by this implementation");
      out += pattern.slice(i, i + 2); i += 2; continue;
    }
    if (pattern[i] === "[") { out += "\\["; i += 1; continue; }
    const ch = String.fromCodePoint(pattern.codePointAt(i));
    out += ch; i += ch.length;
  }
  return [out + "]", i + 1];
}
