"""Tools around the spec: pictures of BPE for learners (show, trace, curve), class grading for teachers,
and mutation testing of the reference against the spec (``mutation``)."""
