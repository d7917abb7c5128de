"""The pytest integration of a spec run, in the verdict process: the run's hooks and state, the fixtures the
spec asks for, budgets, profiles and the one pytest command every spec run is started with."""
