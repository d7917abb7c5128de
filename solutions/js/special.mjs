// Special tokens: found in the text and handled by the allowed / disallowed policy, named as
// tiktoken names it. Scanning from the left, the first position where an allowed or
// disallowed special starts wins; among the specials starting there, the longest.

import { valueError } from "./core.mjs";
import { codePointCount } from "./patterns.mjs";
import { callerPositionOfUnits } from "./caller.mjs";

/** Reject specials that could not round-trip: empty strings, bad ids, shared ids. */
export function checkSpecialTokens(specialTokens) {
  const seen = new Map();
  for (const [special, idx] of specialTokens) {
    if (typeof special !== "string" || !special) throw valueError(`a special token must be a non-empty str, got ${JSON.stringify(special)}`);
    if (!Number.isInteger(idx) || idx < 0) throw valueError(`special token ${JSON.stringify(special)} needs a non-negative int id, got ${idx}`);
    if (seen.has(idx)) throw valueError(`special tokens ${JSON.stringify(seen.get(idx))} and ${JSON.stringify(special)} share the id ${idx}`);
    seen.set(idx, special);
  }
}

function policySet(policy, known, name) {
  if (policy === "all") return new Set(known);
  if (typeof policy === "string" || !Array.isArray(policy)) {
    throw valueError(`${name} must be 'all' or a collection of special strings, not ${JSON.stringify(policy)}`);
  }
  return new Set(policy.filter((s) => known.has(s)));
}

const escape = (s) => s.replace(/[\\^$.*+?()[\]{}|\/]/g, "\\$&");

/**
 * The text cut into plain pieces and allowed specials' ids (numbers), in order; a plain piece
 * is [text, start], start in UTF-16 units of the whole text.
 */
export function splitSpecial(text, specialTokens, allowedSpecial, disallowedSpecial) {
  checkSpecialTokens(specialTokens);
  const ids = new Map(specialTokens);
  const known = new Set(ids.keys());
  const allowed = policySet(allowedSpecial, known, "allowed_special");
  const disallowed = policySet(disallowedSpecial, known, "disallowed_special");
  for (const s of allowed) disallowed.delete(s);
  const lookedFor = [...allowed, ...disallowed];
  if (!lookedFor.length || !text) return text ? [[text, 0]] : [];
  lookedFor.sort((a, b) => codePointCount(b) - codePointCount(a) || (a < b ? -1 : a > b ? 1 : 0));
  const finder = new RegExp(lookedFor.map(escape).join("|"), "gu");
  const pieces = [];
  let start = 0;
  for (const match of text.matchAll(finder)) {
    const special = match[0];
    if (disallowed.has(special)) {
      throw valueError(`disallowed special token "${special}" at position ${callerPositionOfUnits(match.index) ?? codePointCount(text.slice(0, match.index))} of the text: pass it in allowed_special to encode it as its id, or leave it out of disallowed_special to encode it as plain text`);
    }
    if (match.index > start) pieces.push([text.slice(start, match.index), start]);
    pieces.push(ids.get(special));
    start = match.index + special.length;
  }
  if (start < text.length) pieces.push([text.slice(start), start]);
  return pieces;
}
