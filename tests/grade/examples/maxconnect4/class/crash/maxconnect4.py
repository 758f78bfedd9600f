#!/usr/bin/python3
"""A Max-Connect4 submission that crashes before it reads anything (the
crasher of docs/rubrics/maxconnect4.json's test): exit status 1."""
raise RuntimeError("not implemented yet")
