#!/usr/bin/python3
"""A Max-Connect4 engine that never answers (a test submission of referee
grade): every move runs into the rubric's timeout."""
while True:
    pass
