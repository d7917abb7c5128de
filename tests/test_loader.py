"""bpe_kata.impl.loader: ``--impl`` / ``$BPE_IMPL`` become a module, or an error that says how to fix it."""

from __future__ import annotations

import importlib
import os
import sys
import textwrap
from pathlib import Path

import pytest

from bpe_kata.impl.loader import DEFAULT_IMPL, ENV_VAR, ImplementationNotFound, load_implementation
from tests.support import run_spec_inline

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _forget_modules_from_tmp(tmp_path, monkeypatch):
    """Each test starts without $BPE_IMPL and leaves no module it loaded from tmp_path behind."""
    monkeypatch.delenv(ENV_VAR, raising=False)
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        module_file = str(getattr(sys.modules[name], "__file__", None) or "")
        if name.startswith("bpe_kata_impl_") or module_file.startswith(str(tmp_path)):
            del sys.modules[name]


def write(path: Path, source: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    importlib.invalidate_caches()
    return path


def load_error(value: str | None) -> str:
    with pytest.raises(ImplementationNotFound) as excinfo:
        load_implementation(value)
    return str(excinfo.value)


# --- what loads ---------------------------------------------------------------------------


def test_reference_by_name_is_the_reference_module():
    module = load_implementation("reference")
    assert module is importlib.import_module("reference")
    assert module.__name__ == "reference"
    assert callable(module.encode)


def test_default_is_reference_when_nothing_is_given():
    assert DEFAULT_IMPL == "reference"
    assert load_implementation() is importlib.import_module("reference")
    assert load_implementation(None) is importlib.import_module("reference")


def test_reference_folder_by_absolute_path_loads_under_its_real_name():
    module = load_implementation(str(REPO_ROOT / "reference"))
    assert module.__name__ == "reference"
    assert module is importlib.import_module("reference")
    assert not any(name.startswith("bpe_kata_impl_reference") for name in sys.modules)


@pytest.mark.parametrize("value", ["reference/", "./reference", f".{os.sep}reference{os.sep}"])
def test_reference_folder_by_relative_path_from_repo_root_loads_under_its_real_name(value, monkeypatch):
    monkeypatch.chdir(REPO_ROOT)
    module = load_implementation(value)
    assert module.__name__ == "reference"
    assert module is importlib.import_module("reference")


def test_py_file_outside_the_repo_loads_and_works(tmp_path):
    file = write(tmp_path / "elsewhere" / "my_double.py", """
        def double(x):
            return 2 * x
    """)
    module = load_implementation(str(file))
    assert module.double(21) == 42
    assert Path(module.__file__).resolve() == file.resolve()


def test_package_folder_outside_the_repo_loads_with_its_submodules(tmp_path):
    package = tmp_path / "kata_pkg_impl"
    write(package / "helpers.py", """
        def triple(x):
            return 3 * x
    """)
    write(package / "__init__.py", """
        from .helpers import triple

        def six_times(x):
            return 2 * triple(x)
    """)
    module = load_implementation(str(package))
    assert module.six_times(7) == 42
    assert module.triple(2) == 6
    assert Path(module.__file__).resolve() == (package / "__init__.py").resolve()


def test_bpe_impl_env_var_is_used_when_no_value_is_given(tmp_path, monkeypatch):
    file = write(tmp_path / "from_env_impl.py", """
        MARK = "loaded from BPE_IMPL"
    """)
    monkeypatch.setenv(ENV_VAR, str(file))
    assert load_implementation().MARK == "loaded from BPE_IMPL"
    assert load_implementation(None).MARK == "loaded from BPE_IMPL"


def test_an_explicit_value_wins_over_bpe_impl(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "does_not_exist.py"))
    assert load_implementation("reference") is importlib.import_module("reference")


# --- clear errors ---------------------------------------------------------------------------


def test_unknown_dotted_name_says_what_was_tried_and_how_to_fix_it():
    message = load_error("solutions.does_not_exist_xyz")
    assert "solutions.does_not_exist_xyz" in message
    assert "no module named" in message.lower()
    assert "tried import" in message and os.getcwd() in message  # what was tried, from where
    assert "bpe-kata new" in message  # how to fix
    assert "path" in message  # ... or give a path instead


def test_missing_path_says_so_and_what_to_give_instead(tmp_path):
    missing = tmp_path / "nowhere" / "nope_impl.py"
    message = load_error(str(missing))
    assert str(missing) in message
    assert "no such" in message
    assert "dotted module name" in message and ".py file" in message


def test_folder_without_init_is_not_a_package(tmp_path):
    folder = tmp_path / "loose_files"
    write(folder / "bpe.py", "def encode(text, merges):\n    return []\n")
    message = load_error(str(folder))
    assert str(folder) in message
    assert "no __init__.py" in message
    assert ".py file" in message  # how to fix: point at a package folder or a single file


@pytest.fixture(params=["path", "dotted name"])
def load_broken(request, tmp_path, monkeypatch):
    """Write a module with a given body to tmp_path and load it by path or, on sys.path, by name."""

    def load(stem: str, source: str) -> tuple[str, str]:
        file = write(tmp_path / f"{stem}.py", source)
        if request.param == "path":
            value = str(file)
        else:
            monkeypatch.syspath_prepend(str(tmp_path))
            value = stem
        message = load_error(value)
        assert stem in message  # names the value that was tried
        return value, message

    return load


def test_syntax_error_names_the_error(load_broken):
    _, message = load_broken("kata_syntax_error_impl", "def broken(:\n    pass\n")
    assert "SyntaxError" in message
    assert "Fix the error in your module" in message


def test_module_raising_on_import_names_the_error_and_is_not_left_half_loaded(load_broken):
    value, message = load_broken("kata_raising_impl", "raise RuntimeError('boom from the kata test')\n")
    assert "RuntimeError" in message and "boom from the kata test" in message
    assert "Fix the error in your module" in message
    assert not any(name.endswith("kata_raising_impl") for name in sys.modules)
    assert "boom from the kata test" in load_error(value)  # a second try fails the same way


def test_missing_third_party_package_is_named_not_the_implementation(load_broken):
    _, message = load_broken("kata_dep_user_impl", "import kata_missing_dependency_xyz\n")
    assert "kata_missing_dependency_xyz" in message
    assert "no module named 'kata_dep_user_impl'" not in message.lower()  # the impl itself was found
    assert "bpe-kata new" not in message  # creating a new solution would not help


def test_missing_third_party_package_via_dotted_name_says_it_is_not_installed(tmp_path, monkeypatch):
    write(tmp_path / "kata_dep_pkg_impl" / "__init__.py", "from kata_missing_dependency_xyz import thing\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    message = load_error("kata_dep_pkg_impl")
    assert "kata_dep_pkg_impl" in message
    assert "'kata_missing_dependency_xyz'" in message and "not installed" in message


@pytest.mark.parametrize("value", ["not a module!", "solutions.mine-2", "1abc"])
def test_neither_a_name_nor_a_path(value):
    message = load_error(value)
    assert value in message
    assert "neither a dotted module name nor an existing file or folder" in message


def test_neither_a_name_nor_a_path_suggests_a_valid_value():
    message = load_error("not a module!")
    assert "solutions.mine" in message or "bpe-kata new" in message


def test_blank_value_falls_back_and_whitespace_only_is_an_error(monkeypatch):
    assert load_implementation("") is importlib.import_module("reference")
    assert "empty" in load_error("   ")


# --- through pytest ---------------------------------------------------------------------------


def test_pytest_with_an_unknown_impl_is_a_usage_error_with_the_fix(tmp_path, capsys):
    run = run_spec_inline(tmp_path, "--impl", "solutions.nope_xyz", capsys=capsys)
    assert run.returncode == 4, run.output  # pytest.ExitCode.USAGE_ERROR
    assert "no module named" in run.output.lower()
    assert "bpe-kata new" in run.output
    assert "solutions.nope_xyz" in run.output
    assert "Traceback" not in run.output
