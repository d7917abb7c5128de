"""A CS336 solution with one defect seen in course solutions (ninth round): its tokenizer cuts the text at
``"(" + "|".join(special_tokens) + ")"`` whenever special tokens are given, so given an empty list it cuts between
every character and applies no merge.
"""
