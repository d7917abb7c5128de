"""A CS336 solution with one defect seen in course solutions (issue 38): <|endoftext|> is hard-coded and cut from
the training text when no special tokens were asked.
"""
