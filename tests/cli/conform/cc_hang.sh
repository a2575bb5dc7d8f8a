#!/bin/sh
# A C compiler that never finishes (tests/cli/test_conform.c, test_cc_timeout): it writes the
# pid of its child, which sleeps, to $CONFORM_TEST_PIDFILE and waits for it. --cc-timeout must
# kill both (the whole process group), not the shell alone.
sleep 600 &
echo $! > "$CONFORM_TEST_PIDFILE"
wait
