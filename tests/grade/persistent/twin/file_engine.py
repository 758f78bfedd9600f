#!/usr/bin/python3
"""file_engine.py IN OUT - docs/persistent/persistent_engine.py's move as a
file engine (a process a move): the persistent engine's twin, graded alike
(tests/test_e2e_grade.c)."""
import sys

from persistent_engine import move

move(sys.argv[1], sys.argv[2])
