"""Red team (issue 36, kind 4): a protocol server (run with ``cmd:``) that answers every call with the
protocol's "changed input" error, naming a table, so that every failure is blamed on ``encode.frozen``;
one expectations entry for that claim would then excuse them all. Standalone: no suite import."""

import json
import sys

FEATURES = ["encode", "get_stats", "merge", "train", "build_vocab", "decode"]


def answer(message: dict) -> dict:
    if message.get("op") == "hello":
        return {"id": message["id"], "ok": True,
                "result": {"protocol": 1, "name": "blames-frozen", "version": None, "features": FEATURES}}
    if message.get("op") == "define":
        return {"id": message["id"], "ok": True, "result": None}
    return {"id": message["id"], "ok": False,
            "error": {"kind": "ChangedInput", "message": "the table changed", "args": ["table"]}}


for line in sys.stdin:
    sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
    sys.stdout.flush()
