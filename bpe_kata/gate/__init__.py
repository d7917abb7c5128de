"""The gate's supervisor process: it owns one gate (or graded) run, starts the verdict process from a trusted
start, vouches for the installed suite and decides the exit status from the run's own records."""
