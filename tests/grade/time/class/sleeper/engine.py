#!/usr/bin/python3
"""A Max-Connect4 engine that sleeps instead of answering (a test submission
of referee grade): it uses no CPU, so only the wall guard stops it."""
import time

if __name__ == "__main__":
    time.sleep(3600)
