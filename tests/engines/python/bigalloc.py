# bigalloc.py one-move IN OUT DEPTH: an engine that asks for a 1 GiB table
# at once (a transposition table sized for a laptop); under a memory limit
# the allocation fails before any of it is touched.
table = bytearray(1 << 30)
