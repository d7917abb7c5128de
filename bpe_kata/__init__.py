"""The runner: how the spec (the ``spec`` package, what is specified) is run against an implementation.

Imports go one way, runner -> spec (tests/test_seam.py). The rooms:

- ``plugin`` (``-p bpe_kata.plugin``): options and hook registration; ``run/``: the spec run
  (fixtures, the run's state and verdict, judging failures, outcomes, reports, expectations);
- ``child/``: an implementation in a child process (the stdio protocol, its server and client,
  the sandbox, the supervisor of a gate run, and ``launch``, the one route to any implementation);
- ``tools/``: show, trace, curve, grade, matrix and their pages; ``mutation/``: mutation testing
  of the reference against the spec; ``data/``: corpora and published tables; ``adapters/``:
  real BPE libraries in the contract's shape;
- ``cli``: the ``bpe-kata`` command, one table of subcommands.
"""
