"""A CS336 solution with one defect seen in course solutions (issue 38): the training file is read in text mode, so
CR and CRLF are folded into LF.
"""
