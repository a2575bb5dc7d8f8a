#!/bin/sh
# A compiler wrapper that leaves a daemon (tests/cli/test_conform.c, test_cc_daemon), as
# sccache starts its server: a child that keeps every inherited descriptor but stdio and
# outlives the compile; its pid goes to $CONFORM_TEST_PIDFILE. Then the real compile, by cc.
sleep "${CONFORM_TEST_DAEMON_SECONDS:-120}" </dev/null >/dev/null 2>&1 &
echo $! > "$CONFORM_TEST_PIDFILE"
exec cc "$@"
