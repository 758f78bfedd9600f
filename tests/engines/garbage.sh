#!/bin/sh
# Writes something that is no board file.
echo garbage > "$2"
