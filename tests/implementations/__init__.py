"""Implementations for the suite's own tests: textbook, known-wrong variants, right ones."""
