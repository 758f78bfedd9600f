# bigfile.py one-move IN OUT DEPTH: writes an output file of 2 MiB, past the
# referee's 1 MiB file-size limit. Python ignores SIGXFSZ, so the write
# fails with EFBIG and the engine exits 1 with a traceback.
import sys

with open(sys.argv[3], "w") as f:
    f.write("0" * (2 << 20))
