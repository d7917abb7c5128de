"""A CS336 solution with one defect seen in course solutions (issue 38): an indexed heap whose entries are not
lowered when a merge lowers a count, so a count-4 pair is merged while a count-5 pair remains.
"""
