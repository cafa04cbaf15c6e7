#!/bin/sh
# A stand-in for ptxas that rejects everything: terrazzo-compile must report
# that ptxas failed and pass on what it printed. $1 is the -arch= flag.
echo "ptxas fatal   : fake failure for $1" >&2
exit 1
