"""``--impl map:PATH`` (issue 38): code with names of its own, described by a bpe-kata.toml instead of Python glue.

The mapping is read strictly (each mistake one message naming the key), translates names and types only (a merges
list, a size counted in merges, a class's own method and attribute names), and a right implementation in a shape
of its own is judged like the course shapes, with a wrong one failing its claim.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from bpe_kata.impl import declared_build, declared_shape, loader
from bpe_kata.impl.shape_parts import ShapeError
from tests.support import REPO_ROOT, run_spec_inline

MAP_RIGHT = REPO_ROOT / "tests" / "course_shapes" / "map_right"

FUNCTIONS_CODE = '''
import reference


def learn(text, num_merges, pattern=None):
    merges = reference.train(text, 256 + num_merges, pattern=pattern)
    return [pair for pair, _ in sorted(merges.items(), key=lambda item: item[1])], {}


def tokenize(text, rules, pattern=None):
    return tuple(reference.encode(text, {pair: 256 + k for k, pair in enumerate(rules)}, pattern=pattern))
'''


def _write(folder: Path, toml: str, code: str = FUNCTIONS_CODE) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "code.py").write_text(textwrap.dedent(code), encoding="utf-8")
    (folder / declared_shape.FILE_NAME).write_text(textwrap.dedent(toml), encoding="utf-8")
    return folder


@pytest.mark.parametrize(("toml", "said"), [
    ("[functions]\ntrain = 'learn'\n", "`module` is missing"),
    ("module = 'code.py'\n", "name your code's parts in [functions]"),
    ("module = 'code.py'\n[functions]\ntrain = 'learn'\ntrian = 'x'\n", "unknown keys trian"),
    ("module = 'code.py'\nclasses = 1\n", "unknown top-level keys classes"),
    ("module = 'missing.py'\n[functions]\ntrain = 'learn'\n", "does not exist"),
    ("module = '../code.py'\n[functions]\ntrain = 'learn'\n", "is outside"),
    ("module = 'code.py'\n[functions]\ntrain = 3\n", "train = 3: write a name in quotes"),
    ("module = 'code.py'\n[functions]\ntrain = 'learn'\n[types]\nmerges = 'list'\n", "write one of dict, pairs"),
    ("module = 'code.py'\n[functions]\ntrain = 'learn'\n[split]\ntie_rule = 'bytes-greatest'\n", "give pattern too"),
    ("module = 'code.py'\n[functions]\ntrain = 'learn'\n[split]\ntie_rule = 'random'\n", "the rules are"),
    ("module = 'code.py'\n[class]\ntrain = 'fit'\n", "[class] needs `name`"),
    ("module = 'code.py'\n[functions]\ntrain = 'learn\n", "not valid TOML"),
])
def test_a_wrong_mapping_is_one_message_naming_what_to_fix(tmp_path, toml, said):
    folder = _write(tmp_path / "sub", toml)
    with pytest.raises(ShapeError) as raised:
        declared_shape.read(folder)
    assert said in str(raised.value) and declared_shape.FILE_NAME in str(raised.value)


def test_a_folder_without_the_file_and_a_name_the_code_lacks_are_refused_as_usage_errors(tmp_path):
    with pytest.raises(loader.ImplementationNotFound, match="has no bpe-kata.toml"):
        loader.load_implementation(f"map:{tmp_path}")
    folder = _write(tmp_path / "sub", "module = 'code.py'\n[functions]\ntrain = 'learn_bpe'\n")
    with pytest.raises(loader.ImplementationNotFound, match="has no function 'learn_bpe'"):
        loader.load_implementation(f"map:{folder}")


def test_functions_under_other_names_and_types_are_translated_to_the_contract(tmp_path):
    import reference

    folder = _write(tmp_path / "fn", """
        module = "code.py"
        [functions]
        train = "learn"
        encode = "tokenize"
        [types]
        merges = "pairs"
        train_size = "merges"
        train_returns = "merges-and-vocab"
        """)
    module = loader.load_implementation(f"map:{folder}")
    assert module.train("aaabdaaabac", 259) == reference.train("aaabdaaabac", 259)
    table = reference.train("hello hello world", 270)
    assert module.encode("hello world", table) == reference.encode("hello world", table)
    assert isinstance(module.encode("hi", table), list)
    assert not hasattr(module, "decode")  # not named: its levels say "not started: ... needs decode"
    with pytest.raises(NotImplementedError, match="cannot express"):
        module.encode("ab", {(97, 98): 300})  # a list of pairs cannot number a merge 300


def test_a_class_under_its_own_names_is_driven_as_a_minbpe_class():
    module = loader.load_implementation(f"map:{MAP_RIGHT}")
    assert module.train("aaabdaaabac", 259) == {(97, 97): 256, (256, 97): 257, (257, 98): 258}
    table = module.train("low lower lowest newest", 280)
    ids = module.encode("lowest low", table)
    assert module.decode(ids, module.build_vocab(table)) == "lowest low"
    assert module.get_stats([1, 1, 1]) == {(1, 1): 2} and module.merge([1, 2, 3], (1, 2), 256) == [256, 3]
    assert module.COURSE_SHAPE == "map" and not hasattr(module, "FIXED_PATTERN")


def test_a_declared_split_and_tie_rule_become_the_modules_declarations(tmp_path):
    folder = _write(tmp_path / "fixed", """
        module = "code.py"
        [functions]
        train = "learn"
        [split]
        pattern = "gpt2"
        tie_rule = "bytes-greatest"
        """)
    module = declared_build.build(folder, f"map:{folder}")
    assert module.FIXED_PATTERN == "gpt2" and module.DEFAULT_TIE_RULE == "bytes-greatest"


@pytest.mark.heavy
def test_a_right_class_of_its_own_shape_is_green_and_a_wrong_one_fails_its_claim(tmp_path):
    levels = ("--level", "encode", "-m", "not corpus", "--one-failure-per-claim")
    right = run_spec_inline(tmp_path, "--impl", f"map:{MAP_RIGHT}", *levels)
    assert right.returncode == 0, right.output
    assert {name: right.level_status(name) for name in ("bytes", "pairs", "merge", "train", "decode", "encode")} \
        == dict.fromkeys(("bytes", "pairs", "merge", "train", "decode", "encode"), "green")
    wrong = shutil.copytree(MAP_RIGHT, tmp_path / "map_wrong")
    code = wrong / "pair_coder.py"
    source = code.read_text(encoding="utf-8")
    assert "key=lambda p: ranks.get(p, float(\"inf\"))" in source
    highest_rank = source.replace("pair = min(stats, key=lambda p: ranks", "pair = max(stats, key=lambda p: ranks")
    code.write_text(highest_rank, encoding="utf-8")
    failed = run_spec_inline(tmp_path, "--impl", f"map:{wrong}", *levels)
    assert failed.returncode == 1 and failed.claim_status("encode.lowest-rank") == "failed", failed.output
    assert failed.level_status("train") == "green"
