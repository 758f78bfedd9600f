# hang.py one-move IN OUT DEPTH: a search that never returns.
while True:
    pass
