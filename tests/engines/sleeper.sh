#!/bin/sh
# Never answers: the referee must time it out and kill it.
exec sleep 6011
