#!/bin/sh
# Dies of a segmentation fault.
kill -SEGV $$
