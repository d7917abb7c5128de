"""Tools around the spec: pictures of BPE for learners (show, trace, curve), class grading for
teachers, mutation testing of the reference against the spec (``mutation``); and the runner for
isolated implementations: the stdio protocol, its server and its client."""
