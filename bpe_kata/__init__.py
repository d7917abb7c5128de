"""Tools around the spec: pictures of BPE for learners (show, trace, curve) and class grading for
teachers; and the runner for isolated implementations: the stdio protocol, its server and its client."""
