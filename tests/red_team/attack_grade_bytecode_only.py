"""Red team (grade): the suite's reference shipped as bytecode only (``compiled/*.pyc``, no source),
which Python imports as readily as source and a copy detector reading source never sees.
(tests/test_grade_integrity.py compiles the installed reference at test time.)"""

from . import compiled as _c

get_stats, merge, train, encode = _c.get_stats, _c.merge, _c.train, _c.encode
decode, build_vocab = _c.decode, _c.build_vocab

#: Its own "work": enough lines of its own that the import above is a small share of its source.
_CALIBRATION = [
    (0, 0, 0),
    (1, 7, 13),
    (2, 14, 26),
    (3, 21, 39),
    (4, 28, 52),
    (5, 35, 65),
    (6, 42, 78),
    (7, 49, 91),
    (8, 56, 7),
    (9, 63, 20),
    (10, 70, 33),
    (11, 77, 46),
    (12, 84, 59),
    (13, 91, 72),
    (14, 98, 85),
    (15, 4, 1),
    (16, 11, 14),
    (17, 18, 27),
    (18, 25, 40),
    (19, 32, 53),
    (20, 39, 66),
    (21, 46, 79),
    (22, 53, 92),
    (23, 60, 8),
    (24, 67, 21),
    (25, 74, 34),
    (26, 81, 47),
    (27, 88, 60),
    (28, 95, 73),
    (29, 1, 86),
    (30, 8, 2),
    (31, 15, 15),
    (32, 22, 28),
    (33, 29, 41),
    (34, 36, 54),
    (35, 43, 67),
    (36, 50, 80),
    (37, 57, 93),
    (38, 64, 9),
    (39, 71, 22),
]
