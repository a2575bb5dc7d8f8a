#!/bin/sh
# mutating_fkcgen.sh — an fkcgen for `fkc-run conform --fkcgen` in tests/cli/test_conform.c:
# runs the real one ($CONFORM_TEST_FKCGEN) and, for `gen --out-dir DIR ...`, breaks the
# generated dispatch (its data table and loop) in DIR/fkc_bindings.c as $CONFORM_TEST_MUTATION
# says, so the test can see conform catch generated code that does not refuse what it must:
#   keys     [T, U] keys are no longer refused
#   backend  every backend takes the Vulkan bindings
#   width    the dispatch gives BF16 write_slice the F32 row, a 4-byte wrapper
#   undeclared  the dispatch gives write_slice I8 (which the contract omits) the 1-byte wrapper
# A mutation that no longer applies (the generated code changed) fails loudly (exit 70).
set -eu
"$CONFORM_TEST_FKCGEN" "$@"
[ "$1" = gen ] || exit 0
c=$3/fkc_bindings.c
cp "$c" "$c.orig"
case ${CONFORM_TEST_MUTATION:-} in
keys)    sed -i 's/^    if (in != out ||/    if ((in != out \&\& 0) ||/' "$c" ;;
backend) sed -i 's/if (dispatch_groups\[g\].backend == backend \&\& row) {/if (row) {/' "$c" ;;
width)   sed -i '0,/\[FKC_DTYPE_BF16\] = [0-9]*/s//[FKC_DTYPE_BF16] = 1/' "$c" ;;
undeclared) sed -i '0,/\[FKC_DTYPE_U8\] = \([0-9]*\)}}/s//[FKC_DTYPE_U8] = \1, [FKC_DTYPE_I8] = \1}}/' "$c" ;;
*)       echo "mutating_fkcgen.sh: unknown CONFORM_TEST_MUTATION '${CONFORM_TEST_MUTATION:-}'" >&2; exit 70 ;;
esac
if cmp -s "$c" "$c.orig"; then
	echo "mutating_fkcgen.sh: mutation '$CONFORM_TEST_MUTATION' did not apply to $c" >&2
	exit 70
fi
rm -f "$c.orig"
