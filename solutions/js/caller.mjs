// Positions in the caller's characters. A text sent as {"code_points": [...]} (docs/PROTOCOL.md)
// may hold a surrogate pair as two code points, which a JS string joins into one character;
// while a call on such a text runs, error positions are counted in the code points it sent.

let callerCodePoints = null;

/** Run `run` with the caller's code points known. */
export function withCallerCodePoints(codePoints, run) {
  callerCodePoints = codePoints;
  try { return run(); } finally { callerCodePoints = null; }
}

/** The caller's position of a UTF-16 index into the whole text, or null for an ordinary text. */
export function callerPositionOfUnits(unitIndex) {
  if (!callerCodePoints) return null;
  let units = 0, position = 0;
  while (units < unitIndex) units += callerCodePoints[position++] > 0xffff ? 2 : 1;
  return position;
}
