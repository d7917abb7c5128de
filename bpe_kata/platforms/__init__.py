"""What a finished run's report becomes for the places teachers grade: points a teacher sets, and one writer per
platform (Gradescope, GitHub Classroom, JUnit per level, Exercism). Each reads the report's JSON only, so the
in-process run, the gate's supervisor and ``bpe-kata results`` write the same files from the same report."""
