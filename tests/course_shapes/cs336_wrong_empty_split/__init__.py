"""A CS336 solution with one defect seen in course solutions (issue 38): with no special tokens the split pattern
is empty, so every character is its own pre-token.
"""
