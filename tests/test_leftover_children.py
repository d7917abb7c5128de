"""Processes an implementation starts in a test and leaves running are ended with the test
(bpe_kata/run/leftover_children.py): a course trainer that leaks a Manager per call must not fill the machine."""

from __future__ import annotations

import builtins
import multiprocessing

from tests.support import run_spec_inline

LEAKS_A_MANAGER_AND_A_POOL_PER_CALL = '''
"""Each training starts a Manager it never shuts down (a course trainer whose error path skips it), makes a pool it
drops at once, and keeps one pool across calls."""
import builtins
import multiprocessing

from reference import build_vocab, decode, encode, get_stats, merge  # noqa: F401
import reference


def train(text, vocab_size, **options):
    manager = multiprocessing.Manager()
    kept = builtins.__dict__.setdefault("_leaked_by_a_test_implementation", [])
    kept.append((manager, manager.Queue()))  # never shut down, never freed
    multiprocessing.Pool(1)  # freed at once: its finalizer terminates its worker, which must end
    if "_pool_of_a_test_implementation" not in builtins.__dict__:
        builtins.__dict__["_pool_of_a_test_implementation"] = multiprocessing.Pool(1)
    pool = builtins.__dict__["_pool_of_a_test_implementation"]
    assert pool.apply(len, ("ab",)) == 2  # a pool kept across calls still works
    return reference.train(text, vocab_size, **options)
'''


def test_what_a_test_starts_and_leaves_running_is_ended_with_it(tmp_path, capsys):
    impl = tmp_path / "leaky.py"
    impl.write_text(LEAKS_A_MANAGER_AND_A_POOL_PER_CALL, encoding="utf-8")
    before = {child.pid for child in multiprocessing.active_children()}
    run = run_spec_inline(tmp_path, "--impl", str(impl), "-m", "not corpus", "-k", "again",
                          files=["spec/test_train.py"], capsys=capsys)
    assert run.report is not None, run.output[-3000:]
    left = [child for child in multiprocessing.active_children()
            if child.pid not in before and "PoolWorker" not in child.name]
    for child in left:
        child.join(2)  # one shutting down on its own as it is freed
    left = [child for child in left if child.is_alive()]
    builtins.__dict__.pop("_leaked_by_a_test_implementation", None)
    pool = builtins.__dict__.pop("_pool_of_a_test_implementation", None)
    if pool is not None:
        pool.terminate()
    assert left == [], f"{len(left)} processes the implementation started are still running"
    failed = {cid for cid, row in run.report["claims"].items() if row["status"] == "failed"}
    assert failed == set(), failed  # its pool, kept across tests, was not ended under it
