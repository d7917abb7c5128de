"""The child server's operation handlers: one request of the stdio protocol answered against the implementation.

Apart from the entry point and its main loop (bpe_kata/child/server.py) because this is what a request does,
whoever reads it: the red team's junk server and the suite's tests call ``Server.handle`` directly. Each
operation's arguments are loaded, the call bound and made, what it was given checked unchanged (a defined
table is put back), its result dumped; what it raises becomes the protocol's error answer.
"""

from __future__ import annotations

import functools
import traceback
from pathlib import Path
from typing import Any

from bpe_kata.child import gc_policy, protocol
from bpe_kata.child.protocol import ARGUMENTS, DEFINABLE, POSITIONAL, RESULTS
from bpe_kata.child.signatures import Signatures, features_of
from bpe_kata.impl import frames

#: The server's own files: never the implementation's frame.
SERVER_FILES = frozenset(str(Path(__file__).resolve().parent / name)
                         for name in ("server.py", "handlers.py", "signatures.py", "protocol.py"))


CONTRACT_EXCEPTIONS = (("ValueError", ValueError), ("KeyError", KeyError), ("TypeError", TypeError))


class NotServed(Exception):
    """The request cannot be served as asked; ``kind`` is the protocol's error kind."""

    def __init__(self, kind: str, message: str, **extra) -> None:
        super().__init__(message)
        self.kind, self.extra = kind, extra


class GuardedTable(dict):
    """A defined table: every mutating method marks it changed (a len check backs this up)."""

    changed = False

    def _mark(name):  # builds the methods below
        def method(self, *args, **kwargs):
            self.changed = True
            return getattr(dict, name)(self, *args, **kwargs)
        return method

    __setitem__ = _mark("__setitem__")
    __delitem__ = _mark("__delitem__")
    __ior__ = _mark("__ior__")
    setdefault, pop, popitem = _mark("setdefault"), _mark("pop"), _mark("popitem")
    clear, update = _mark("clear"), _mark("update")
    del _mark


class Server:
    """Answers requests one by one against ``impl``."""

    def __init__(self, impl, name: str) -> None:
        self.impl, self.name = impl, name
        self.definitions: dict[str, tuple[GuardedTable, dict, int]] = {}
        self.signatures = Signatures()  # what the implementation's functions accept, read once each

    def answer(self, message: dict) -> bytes:
        """The response line to one request."""
        return protocol.encode_line(self.handle(message))

    def handle(self, message: dict) -> dict:
        request_id = message.get("id")
        try:
            return {"id": request_id, "ok": True, "result": self.dispatch(message.get("op"), message.get("args") or {})}
        except NotServed as refused:
            return protocol.error_response(request_id, refused.kind, str(refused), **refused.extra)
        except NotImplementedError as error:
            return protocol.error_response(request_id, protocol.NOT_IMPLEMENTED, str(error) or "NotImplementedError")
        except (ValueError, KeyError, TypeError) as error:
            kind = next(name for name, cls in CONTRACT_EXCEPTIONS if isinstance(error, cls))
            text = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
            return protocol.error_response(request_id, kind, text, **self.origin(error, with_type=False))
        except Exception as error:  # the protocol's "anything else"
            trace = "".join(traceback.format_exception(error)[-6:])
            return protocol.error_response(
                request_id, protocol.OTHER_ERROR, f"{type(error).__name__}: {error}\n{trace}", **self.origin(error)
            )

    def origin(self, error: BaseException, with_type: bool = True) -> dict:
        """The optional ``type`` and ``frame`` of an error response: the innermost frame of the
        implementation's own code (past adapters), so the suite can tell two bugs apart."""
        try:
            root = self.root
            place = frames.place_in_remote_traceback(error, root, _shown_path) or frames.place_of(
                frames.innermost_own(error, root, skip=lambda p: str(p) in SERVER_FILES), _shown_path, error, root
            )
        except Exception:  # the frame is optional: never lose the error for it
            place = None
        return {**({"type": type(error).__name__} if with_type else {}),
                **({"frame": place.as_protocol()} if place else {})}

    @functools.cached_property
    def root(self) -> Path | None:
        """The implementation's own code (``frames.implementation_root``), found at the first error it raises."""
        return frames.implementation_root(self.impl)

    def dispatch(self, op: str | None, args: dict) -> Any:
        if op == "hello":
            return self.hello(args)
        if op == "define":
            return self.define(args)
        if op == protocol.BATCHES["encode"]:
            return self.encode_batch(args)
        if op not in ARGUMENTS:
            raise NotServed(protocol.OTHER_ERROR, f"unknown op {op!r}")
        values, refs = self.arguments(op, args)
        function = self.function(op)
        positional = [values.pop(name) for name in POSITIONAL[op] if name in values]
        if op != "stream_decode":
            refusal = self.signatures.binding(function, len(positional), tuple(values))
            if refusal is not None:
                raise NotServed(protocol.NOT_IMPLEMENTED, f"{op}: {refusal}")
        given = {**dict(zip(POSITIONAL[op], positional)), **values}
        snapshots = {name: _snapshot(value) for name, value in given.items() if name not in refs}
        result = function(*positional, **values)
        if op == "encode_iterable":
            result = list(result)  # its errors are raised while it is read: the call's, not the result's shape
        self.check_unchanged(op, given, snapshots, refs)
        return self.dumped(op, result)

    @staticmethod
    def dumped(op: str, result: Any) -> Any:
        """The result as the protocol carries it; a result of the wrong shape is not a contract error."""
        try:
            return RESULTS[op].dump(result)
        except Exception as error:
            raise NotServed(
                protocol.OTHER_ERROR,
                f"{op} returned {type(result).__name__} {str(result)[:200]!r}, "
                f"which is not the contract's result ({type(error).__name__}: {error})",
            ) from error

    def hello(self, args: dict) -> dict:
        if args.get("protocol") != protocol.PROTOCOL_VERSION:
            raise NotServed(protocol.OTHER_ERROR, f"this server speaks protocol {protocol.PROTOCOL_VERSION}, "
                                                  f"not {args.get('protocol')!r}")
        return {
            "protocol": protocol.PROTOCOL_VERSION,
            "name": self.name,
            "version": getattr(self.impl, "__version__", None),
            "features": features_of(self.impl),
            "code_points": True,
            "batch": [op for op in protocol.BATCHES if callable(getattr(self.impl, op, None))],
            **(
                {"fixed_pattern": self.impl.FIXED_PATTERN}
                if isinstance(getattr(self.impl, "FIXED_PATTERN", None), str)
                else {}
            ),
            **(
                {"default_tie_rule": self.impl.DEFAULT_TIE_RULE}
                if isinstance(getattr(self.impl, "DEFAULT_TIE_RULE", None), str)
                else {}
            ),
        }

    def encode_batch(self, args: dict) -> list:
        """Each text's ``encode(text, merges)``, as separate requests would have it; the first
        text whose call fails answers for the whole batch (the suite then asks one by one)."""
        texts = args.get("texts")
        if set(args) != {"texts", "merges"} or not isinstance(texts, list):
            raise NotServed(protocol.OTHER_ERROR, "encode_batch takes texts (an array) and merges, nothing else")
        table, refs = self.arguments("encode", {"merges": args["merges"]}) if texts and protocol.is_ref(
            args["merges"]) else ({}, {})
        if "merges" not in refs:  # an inline table: a fresh dict for each text
            return [self.dispatch("encode", {"text": text, "merges": args["merges"]}) for text in texts]
        # A defined table (the corpus tables): what dispatch does per text, with what is the same for every
        # text (the table, the function, whether it binds) looked up once.
        function = self.function("encode")
        refusal = self.signatures.binding(function, 2, ())
        if refusal is not None:
            raise NotServed(protocol.NOT_IMPLEMENTED, f"encode: {refusal}")
        merges, load_text, results = table["merges"], ARGUMENTS["encode"]["text"].load, []
        for text in texts:
            text = load_text(text)
            snapshots = {"text": _snapshot(text)}
            result = function(text, merges)
            self.check_unchanged("encode", {"text": text, "merges": merges}, snapshots, refs)
            results.append(self.dumped("encode", result))
        return results

    def define(self, args: dict) -> None:
        kind = DEFINABLE.get(args.get("kind"))
        if kind is None or not isinstance(args.get("name"), str):
            raise NotServed(protocol.OTHER_ERROR, "define needs a name and a kind among " + ", ".join(DEFINABLE))
        table = kind.load(args["value"])
        self.definitions[args["name"]] = (GuardedTable(table), table, len(table))
        gc_policy.freeze()

    def arguments(self, op: str, args: dict) -> tuple[dict[str, Any], dict[str, str]]:
        """Python values of the request's arguments, and which of them came from a definition."""
        values, refs = {}, {}
        for name, value in args.items():
            kind = ARGUMENTS[op].get(name)
            if kind is None:
                raise NotServed(protocol.NOT_IMPLEMENTED, f"{op} has no argument {name!r} in protocol 1")
            if protocol.is_ref(value):
                if value["ref"] not in self.definitions:
                    raise NotServed(protocol.OTHER_ERROR, f"{op}: {name} refers to {value['ref']!r}, never defined")
                values[name], refs[name] = self.definitions[value["ref"]][0], value["ref"]
            else:
                values[name] = kind.load(value)
        return values, refs

    def function(self, op: str):
        if op == "stream_decode":
            decoder_class = getattr(self.impl, "StreamDecoder", None)
            if not callable(decoder_class):
                raise NotServed(protocol.NOT_IMPLEMENTED, "StreamDecoder is not defined")
            return lambda vocab, ids: _stream(decoder_class, vocab, ids)
        function = getattr(self.impl, op, None)
        if not callable(function):
            raise NotServed(protocol.NOT_IMPLEMENTED, f"{op} is not defined")
        return function

    def check_unchanged(self, op: str, values: dict, snapshots: dict, refs: dict[str, str]) -> None:
        """The implementation must not change what it was given; say so, and put definitions back."""
        changed = []
        for name, value in values.items():
            if name in refs:
                live, pristine, size = self.definitions[refs[name]]
                if live.changed or len(live) != size:
                    changed.append(name)
                    self.definitions[refs[name]] = (GuardedTable(pristine), pristine, size)
            elif snapshots.get(name) is not None and _snapshot(value) != snapshots[name]:
                changed.append(name)
        if changed:
            raise NotServed(protocol.CHANGED_INPUT, f"{op} changed the {', '.join(changed)} it was given",
                            args=changed)


def _shown_path(path: Path) -> str:
    """A frame's file relative to the working directory (the suite's), else its name."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return path.name


def _snapshot(value) -> list | None:
    """A copy to compare with after the call, for the containers a call could change."""
    if isinstance(value, dict):
        return list(value.items())
    if isinstance(value, (list, set)):
        return list(value)
    return None


def _stream(decoder_class, vocab, ids) -> tuple[list[str], str]:
    decoder = decoder_class(vocab)
    feeds = [decoder.feed(token) for token in ids]
    return feeds, decoder.flush()

