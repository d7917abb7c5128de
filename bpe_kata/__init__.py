"""The runner: how the spec (the ``spec`` package, what is specified) is run against an implementation.

Imports go one way, runner -> spec (tests/test_seam.py), and inside the runner only down its floors
(tests/test_floors.py), one folder per floor, each folder's ``__init__`` saying what it is for:

- the package's own modules, at the top: the ``bpe-kata`` command (``cli``, one table of subcommands), the
  learner's commands (``learner``, ``shape_starters``), the spec's commands (``spec_commands``: check, gate,
  verify-report), ``merge``, and the pytest plugin (``plugin``, ``-p bpe_kata.plugin``);
- ``mutation/``: mutation testing of the reference; ``tools/``: show, trace, curve, diff, grade, matrix;
- ``gate/``: the supervisor process above a gate's (or a graded submission's) verdict process;
- ``run/``: the pytest integration of a spec run (hooks, fixtures, budgets, the one pytest command);
- ``verdict/``: what a run decides (outcomes, judging, root causes, teaching lines, reports);
- ``child/``: both ends of the stdio protocol, and how a child is started and confined;
- ``impl/``: loading an implementation (the loader, course shapes, where its frames are);
- ``adapters/``: real BPE libraries in the contract's shape; ``data/``: corpora and published tables;
  ``layout/``: where the suite is installed; ``schemas/``: what it writes and reads.
"""
