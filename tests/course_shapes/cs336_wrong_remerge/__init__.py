"""A CS336 solution with one defect seen in a public course solution (issue 37, kind 9, in the course's shape):
the pair counts are kept from one step to the next, a gone pair at count 0, so once no pair is left the trainer
merges again a pair it merged before: its merges list holds the same pair twice.
"""
