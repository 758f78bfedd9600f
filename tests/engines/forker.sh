#!/bin/sh
# Leaves a child running in the background and answers nothing.
sleep 6013 &
exit 0
