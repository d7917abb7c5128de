"""A CS336 solution with one defect seen in course solutions (issue 38): the special tokens are added to the vocab
but the text is never cut at them, so pieces of <|endoftext|> are learned and pairs around it counted.
"""
