"""Red team: a protocol server (run with cmd:) that answers an invalid train request (vocab_size
below 256) with a malformed result instead of the ValueError the contract asks for, hoping the client
turns it into that ValueError; every other train is answered with the right merges of a small,
honest trainer."""

from __future__ import annotations

import json
import sys


def train(text: str, vocab_size: int) -> list:
    ids, merges = list(text.encode("utf-8")), []
    for idx in range(256, vocab_size):
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        pair = max(counts, key=counts.get)
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
        merges.append([pair[0], pair[1], idx])
    return merges


def answer(message: dict) -> dict:
    op, args, ident = message.get("op"), message.get("args", {}), message.get("id")
    if op == "hello":
        return {"id": ident, "ok": True, "result": {"protocol": 1, "name": "malformed", "version": None,
                                                   "features": ["train"]}}
    if op == "train":
        if args["vocab_size"] < 256:
            return {"id": ident, "ok": True, "result": "nonsense"}  # unpacking this raises ValueError
        return {"id": ident, "ok": True, "result": train(args["text"], args["vocab_size"])}
    return {"id": ident, "ok": False, "error": {"kind": "NotImplemented", "message": op}}


for line in sys.stdin:
    sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
    sys.stdout.flush()
