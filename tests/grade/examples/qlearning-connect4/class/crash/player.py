#!/usr/bin/python3
"""A Connect-4 player that crashes before it reads anything (the crasher of
docs/rubrics/qlearning-connect4.json's test): exit status 1."""
raise RuntimeError("not implemented yet")
