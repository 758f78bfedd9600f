#!/bin/sh
# Leaves its process group (setsid) with a child that keeps running, then
# answers nothing: only the subreaper sweep can catch the escapee.
setsid sleep 6029 &
exit 0
