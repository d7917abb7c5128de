"""The tools around the spec: show, trace, curve, grade, matrix and their pages."""
