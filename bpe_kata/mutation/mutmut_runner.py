"""``mutmut run`` as ``bpe-kata mutate`` starts it: limits on CPU time, a cheaper trampoline per child.

mutmut (3.8.1, pinned in the ``dev`` extra) forks one child per mutant from a parent that has
already run the whole spec, and limits each child twice: CPU time (``RLIMIT_CPU``, (estimate
+ ``timeout_constant``) x ``timeout_multiplier`` x 2) and wall time (the same without the x 2).
Two changes, both measured (benchmarks/README.md):

* **The CPU limit decides.** On a machine shared with other work the wall clock stretches
  while CPU time does not, so with the wall limit binding, a mutant that is only slower
  survived on an idle machine and timed out on a loaded one, and the gate's answer
  depended on the load. The wall limit is widened :data:`WALL_SLACK` times, so that only a
  child that is starved for CPU far beyond any load we run at, or blocked, meets it; with
  ``[tool.mutmut]``'s settings an endless loop is cut after (estimate + 5 s) x 3 of CPU.
* **Estimates in CPU time.** mutmut estimates a mutant's time as the sum of its tests'
  wall-clock durations in its first, recording run: on a loaded machine that sum is several
  times the tests' CPU time (60 s against 15 s CPU at load 19 on 2 cores, 12 s against 12 s
  idle), and every limit grows with it. The durations are scaled by the recording run's CPU
  time over their sum (never up), so the limits follow the tests' CPU time at any load.
* **The trampoline reads a constant.** Every call of a function of ``reference/`` passes
  through mutmut's trampoline, which looks the active mutant up in ``os.environ`` each time
  (hundreds of thousands of calls in a child). Within a child the mutant never changes, so
  after mutmut has set it the lookup returns it directly: about a tenth of a surviving
  mutant's CPU time.

* **A memory limit per child.** Each mutant's child may grow its address space
  (``RLIMIT_AS``) by :data:`MEMORY_ALLOWANCE` bytes beyond the fork server it was forked
  from (``$BPE_KATA_MUTANT_MEMORY`` in MiB overrides it): one child of the first full run
  reached 15.7 GB. A child whose allocation fails exits :data:`OVER_MEMORY_EXIT`, reported
  "over memory" (bpe_kata/mutation/mutate.py), not as a test failure.

None changes which tests run against which mutant, nor what counts as killed.
"""

from __future__ import annotations

import os
import resource
import sys

#: How many times mutmut's own wall-clock limit a child may take before it counts as timed out.
#: With ``timeout_multiplier`` 1.5 the wall limit is then 4x the CPU limit: a CPU-bound child
#: meets its CPU limit first unless it gets less than a quarter of a core.
WALL_SLACK = 8.0

#: How much address space a mutant's child may add to what it inherits from the fork server.
MEMORY_ALLOWANCE = 3 * 1024 ** 3
#: The exit status of a child that ran out of its memory (mutmut uses none of 38..41).
OVER_MEMORY_EXIT = 39


def address_space() -> int:
    """This process's virtual memory size in bytes (what RLIMIT_AS limits)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def memory_limit() -> int:
    """The address space a mutant's child may use: what it inherited plus the allowance."""
    mib = os.environ.get("BPE_KATA_MUTANT_MEMORY", "")
    allowance = int(mib) * 1024 ** 2 if mib.isdigit() else MEMORY_ALLOWANCE
    return address_space() + allowance


def limit_memory() -> None:
    """Cap this process's address space (in a mutant's child, right after the fork)."""
    limit = memory_limit()
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


class MemoryWatch:
    """A pytest plugin noting a MemoryError in any test of a mutant's child."""

    def __init__(self) -> None:
        self.hit = False

    def pytest_runtest_makereport(self, item, call) -> None:  # pytest's hook signature
        if call.excinfo is not None and call.excinfo.errisinstance(MemoryError):
            self.hit = True


def install() -> None:
    """Patch mutmut in this process; fails loudly if the mutmut installed is not the one this fits."""
    import mutmut.__main__ as mutmut_main
    from mutmut.mutation import trampoline
    from mutmut.runners import harness
    from mutmut.state import state
    from mutmut.utils.file_utils import change_cwd
    from mutmut.workers import isolation

    missing = [name for name in ("register_timeout", "set_mutant_under_test", "ForkRunner")
               if not hasattr(isolation, name)] + \
              [name for name in ("get_mutant_under_test",) if not hasattr(trampoline, name)] + \
              [name for name in ("collect_or_load_stats",) if not hasattr(mutmut_main, name)] + \
              [name for name in ("run_tests", "execute_pytest", "_pytest_args_regular_run")
               if not hasattr(harness.PytestRunner, name)]
    if missing:
        raise RuntimeError(f"mutmut's internals changed (no {', '.join(missing)}): bpe_kata/mutation/mutmut_runner.py "
                           "fits mutmut 3.8.1, the version the dev extra pins")

    register_timeout = isolation.register_timeout
    set_mutant_under_test = isolation.set_mutant_under_test

    def register_wider_timeout(pid: int, timeout_s: float) -> None:
        register_timeout(pid=pid, timeout_s=timeout_s * WALL_SLACK)

    def set_fixed_mutant(name: str | None) -> None:
        # mutmut's worker module calls this only in a mutant's child, right after the fork.
        set_mutant_under_test(name)
        if name:
            trampoline.get_mutant_under_test = lambda: name
            limit_memory()

    run_tests = harness.PytestRunner.run_tests

    def run_tests_watching_memory(self, *, mutant_name, tests):
        if not mutant_name:  # the clean runs, in mutmut's own process: no limit there
            return run_tests(self, mutant_name=mutant_name, tests=tests)
        watch = MemoryWatch()
        try:
            with change_cwd("mutants"):
                code = int(self.execute_pytest(self._pytest_args_regular_run(tests), plugins=[watch]))
        except MemoryError:
            return OVER_MEMORY_EXIT
        return OVER_MEMORY_EXIT if watch.hit else code

    harness.PytestRunner.run_tests = run_tests_watching_memory
    isolation.register_timeout = register_wider_timeout
    isolation.set_mutant_under_test = set_fixed_mutant

    collect_or_load_stats = mutmut_main.collect_or_load_stats

    def collect_stats_in_cpu_time(*args, **kwargs) -> None:
        collect_or_load_stats(*args, **kwargs)
        factor = scale_to_cpu_time(state())
        print(f"bpe-kata mutate: test durations scaled to CPU time (x {factor:.2f}) for the limits", flush=True)

    mutmut_main.collect_or_load_stats = collect_stats_in_cpu_time


def scale_to_cpu_time(stats) -> float:
    """Scale ``stats.duration_by_test`` (wall clock) to the recording run's CPU time; the factor used."""
    recorded = sum(stats.duration_by_test.values())
    if not stats.stats_time or recorded <= 0:
        return 1.0
    factor = min(1.0, stats.stats_time / recorded)
    for test in stats.duration_by_test:
        stats.duration_by_test[test] *= factor
    return factor


def generate(max_children: int = 2) -> None:
    """Only the first step of ``mutmut run``: write ``mutants/`` (the mutated copy and its ``.py.meta`` files,
    every mutant unchecked) and run no test. ``bpe-kata mutate --shard`` lists the mutants from it, and
    ``--gate --from`` gives the differential checks a mutated copy without a run."""
    import mutmut.__main__ as mutmut_main
    from mutmut.mutation.trampoline import set_mutant_under_test
    from mutmut.utils.file_utils import copy_also_copy_files, copy_src_dir, setup_source_paths

    set_mutant_under_test("mutant_generation")
    os.makedirs("mutants", exist_ok=True)
    copy_src_dir()
    copy_also_copy_files()
    setup_source_paths()
    mutmut_main.store_lines_covered_by_tests()
    mutmut_main.create_mutants(max_children)


def main(argv: list[str]) -> None:
    """``mutmut ARGV`` (e.g. ``run --max-children 2``) with the changes above; ``generate`` writes mutants/ only."""
    if argv[:1] == ["generate"]:
        generate()
        return
    install()
    from mutmut.__main__ import cli

    sys.argv = ["mutmut", *argv]
    cli()


if __name__ == "__main__":
    main(sys.argv[1:])
