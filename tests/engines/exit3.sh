#!/bin/sh
# Fails with exit status 3.
exit 3
