"""Tools around the spec: pictures of BPE for learners (show, trace, curve) and class grading for teachers."""
