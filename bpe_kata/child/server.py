"""Serve a Python implementation over the stdio protocol: ``python -m bpe_kata.child.server IMPL``.

The implementation is loaded here, in a process of its own, so nothing it does (pytest
hooks, ``os._exit``, prints, a loop that never ends) can touch the process that decides
the verdict. Its prints go to stderr: the protocol keeps stdout for itself.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
import traceback
from pathlib import Path
from typing import Any, BinaryIO

from bpe_kata.child import gc_policy, protocol
from bpe_kata.child.protocol import ARGUMENTS, DEFINABLE, KEYWORD_FEATURES, POSITIONAL, RESULTS
from bpe_kata.impl import frames

#: The server's own files: never the implementation's frame.
SERVER_FILES = frozenset(str(Path(__file__).resolve().parent / name) for name in ("server.py", "protocol.py"))


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


def _accepts(function, keyword: str) -> bool:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return True  # a builtin without a signature: let the call decide
    return any(p.name == keyword or p.kind is p.VAR_KEYWORD for p in parameters)


def features_of(impl) -> list[str]:
    """What the implementation offers: functions it defines, keywords their signatures take."""
    found = [op for op in protocol.OPERATIONS if callable(getattr(impl, op, None))]
    if callable(getattr(impl, "StreamDecoder", None)):
        found.append("StreamDecoder")
    for op, keywords in KEYWORD_FEATURES.items():
        function = getattr(impl, op, None)
        for keyword, feature in keywords.items():
            if callable(function) and _accepts(function, keyword) and feature not in found:
                found.append(feature)
    return found


class Server:
    """Answers requests one by one against ``impl``."""

    def __init__(self, impl, name: str) -> None:
        self.impl, self.name = impl, name
        self.definitions: dict[str, tuple[GuardedTable, dict, int]] = {}
        self.kept: dict[str, dict] = {}  # short kept results (``keep``), handed out as fresh dicts
        self.signatures: dict[int, tuple[object, inspect.Signature]] = {}  # id(function) -> (function, its signature)
        self.bindings: dict[tuple, tuple[object, str | None]] = {}  # (id(function), shape of call) -> refusal

    def answer(self, message: dict) -> bytes:
        """The response line to one request (a plain answer by the fast encoder, protocol.encode_plain_line)."""
        response = self.handle(message)
        plain = response.get("ok") is True and message.get("op") in protocol.PLAIN_ANSWERS
        return (protocol.encode_plain_line if plain else protocol.encode_line)(response)

    def handle(self, message: dict) -> dict:
        request_id = message.get("id")
        try:
            result = self.dispatch(message.get("op"), message.get("args") or {})
            if "keep" in message:
                self.keep(message.get("op"), message["keep"], result)
            return {"id": request_id, "ok": True, "result": result}
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
            place = frames.place_of(
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
            refusal = self.binding(function, len(positional), tuple(values))
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

    def binding(self, function, positional: int, keywords: tuple[str, ...]) -> str | None:
        """Why ``function`` cannot take this many positional arguments and these keywords (the
        ``TypeError`` of binding its signature), or None when it can or has no signature to read.
        Whether a call binds depends on those alone, never on the values: read once per shape
        of call for a plain function."""
        key = (id(function), positional, keywords)
        known = self.bindings.get(key) if inspect.isfunction(function) else None
        if known is not None and known[0] is function:
            return known[1]
        try:
            self.signature(function).bind(*range(positional), **dict.fromkeys(keywords))
            refusal = None
        except TypeError as error:
            refusal = str(error)
        except ValueError:
            refusal = None  # no signature to check: call it
        if inspect.isfunction(function):
            self.bindings[key] = (function, refusal)
        return refusal

    def signature(self, function) -> inspect.Signature:
        """``inspect.signature(function)``, read once per plain function (a module that rebinds a name
        gets its new function's own; any other callable is read every time, as it raises)."""
        if not inspect.isfunction(function):
            return inspect.signature(function)
        known = self.signatures.get(id(function))
        if known is not None and known[0] is function:
            return known[1]
        signature = inspect.signature(function)
        self.signatures[id(function)] = (function, signature)
        return signature

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
            "keep": True,
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
        if "merges" not in refs:  # an inline table, or a short kept one: a fresh dict for each text
            return [self.dispatch("encode", {"text": text, "merges": args["merges"]}) for text in texts]
        # A defined table (the corpus tables): what dispatch does per text, with what is the same for every
        # text (the table, the function, whether it binds) looked up once.
        function = self.function("encode")
        refusal = self.binding(function, 2, ())
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
        self.kept.pop(args["name"], None)
        self.definitions[args["name"]] = (GuardedTable(table), table, len(table))
        gc_policy.freeze()

    def keep(self, op: str | None, name: Any, result: Any) -> None:
        """Hold a result under ``name`` (docs/PROTOCOL.md, "Kept results"), as the suite would send it back:
        a table as long as the suite defines becomes a definition; a shorter one is handed to each later
        call as a fresh dict, exactly as if it had come inline (checked against a copy after the call)."""
        kind = protocol.KEEPS.get(op)
        if kind is None or not isinstance(name, str):
            return  # nothing to keep: the answer stands, and the suite never names what was not kept
        table = DEFINABLE[kind].load(result)  # after the call: an argument of it may have named this slot
        self.definitions.pop(name, None)
        self.kept.pop(name, None)
        if len(table) >= protocol.DEFINE_AT[kind]:
            self.definitions[name] = (GuardedTable(table), table, len(table))
        else:
            self.kept[name] = table

    def arguments(self, op: str, args: dict) -> tuple[dict[str, Any], dict[str, str]]:
        """Python values of the request's arguments, and which of them came from a definition."""
        values, refs = {}, {}
        for name, value in args.items():
            kind = ARGUMENTS[op].get(name)
            if kind is None:
                raise NotServed(protocol.NOT_IMPLEMENTED, f"{op} has no argument {name!r} in protocol 1")
            if protocol.is_ref(value):
                if value["ref"] in self.kept:
                    values[name] = dict(self.kept[value["ref"]])  # as if sent inline: a fresh dict each call
                    continue
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


def _protocol_stdout() -> BinaryIO:
    """Keep the real stdout for protocol lines; send everything else printed to stderr."""
    sys.stdout.flush()
    private = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return private


def serve(value: str, requests: BinaryIO, responses: BinaryIO) -> int:
    """Load the implementation, then answer requests until stdin closes."""
    from bpe_kata.impl.loader import ImplementationNotFound, load_implementation

    try:
        impl = load_implementation(value)
    except ImplementationNotFound as error:
        impl, failure = None, str(error)
    server = Server(impl, value) if impl is not None else None
    gc_policy.settle()  # the implementation's modules, and the tables defined later, stay out of collections
    for line in requests:
        if not line.strip():
            continue
        try:
            message = protocol.decode_line(line)
        except ValueError as error:
            responses.write(
                protocol.encode_line(protocol.error_response(None, protocol.OTHER_ERROR, f"bad request: {error}"))
            )
            continue
        if server is None:
            responses.write(
                protocol.encode_line(protocol.error_response(message.get("id"), protocol.OTHER_ERROR, failure))
            )
            return 1
        responses.write(server.answer(message))
    return 0


#: ``python -m bpe_kata.child.server --encode-iterable-memory IMPL``: no protocol, one measurement (claim
#: encode.iterable, spec/test_encode_iterable.py): a JSON request on stdin, a JSON answer on stdout.
MEMORY_FLAG = "--encode-iterable-memory"


def _address_space() -> int:
    """This process's address space in bytes (``VmSize``: what ``RLIMIT_AS`` limits)."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) << 10 for line in status if line.startswith("VmSize:"))


def encode_iterable_memory(impl, request: dict, report) -> dict:
    """``encode_iterable`` over ``request["characters"]`` characters of ``request["lines"]`` (cycled, made as they
    are read, never kept), its ids counted and dropped, under an address-space limit of this process's size
    once the table is built and one short call has run (imports, compiled patterns) plus ``request["margin"]``.
    What was measured is reported as it goes (``report(dict)``: the limit, then every ``PROGRESS`` characters
    the characters fed and ids yielded), so a child that dies has said how far it got; the answer ends it."""
    import itertools
    import resource
    import time

    merges = protocol.MERGES.load(request["merges"])
    keywords = {"pattern": request["pattern"]} if request.get("pattern") is not None else {}
    lines, total = request["lines"], request["characters"]
    for _ in impl.encode_iterable(iter(lines), merges, **keywords):
        pass
    fed = ids = 0

    def texts():
        nonlocal fed
        mark = PROGRESS
        for line in itertools.cycle(lines):
            if fed >= total:
                return
            if fed >= mark:
                report({"fed": fed, "ids": ids})
                mark += PROGRESS
            fed += len(line)
            yield line

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    base = _address_space()
    limit = base + request["margin"]
    if hard != resource.RLIM_INFINITY and hard < limit:
        limit = hard
    report({"base": base, "limit": limit})
    error, start = None, time.monotonic()
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        for _ in impl.encode_iterable(texts(), merges, **keywords):
            ids += 1
    except MemoryError:
        error = "MemoryError"
    except Exception as raised:  # noqa: BLE001  (said in the answer: the test fails with it)
        error = f"{type(raised).__name__}: {str(raised)[:300]}"
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    return {"base": base, "limit": limit, "fed": fed, "ids": ids, "error": error,
            "seconds": round(time.monotonic() - start, 3), "done": True}


#: How often (characters fed) the memory measurement says how far it got.
PROGRESS = 1 << 18


def _memory_main(value: str, responses: BinaryIO) -> int:
    from bpe_kata.impl.loader import ImplementationNotFound, load_implementation

    request = protocol.decode_line(sys.stdin.buffer.read())

    def report(message: dict) -> None:
        responses.write(protocol.encode_line(message))

    try:
        answer = encode_iterable_memory(load_implementation(value), request, report)
    except ImplementationNotFound as error:
        answer = {"error": f"not loaded: {error}", "done": True}
    report(answer)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    memory = len(argv) == 2 and argv[0] == MEMORY_FLAG
    if memory:
        argv = argv[1:]
    if len(argv) != 1:
        print("usage: python -m bpe_kata.child.server [--encode-iterable-memory] IMPL   (a dotted module name, "
              "package folder or .py file)", file=sys.stderr)
        return 2
    responses = _protocol_stdout()

    if sys.flags.safe_path and os.getcwd() not in sys.path:  # started with -P (client.server_command)
        sys.path.insert(0, os.getcwd())  # the implementation's dotted names are relative to it, as with -m
    if memory:
        return _memory_main(argv[0], responses)
    return serve(argv[0], sys.stdin.buffer, responses)


if __name__ == "__main__":
    sys.exit(main())
