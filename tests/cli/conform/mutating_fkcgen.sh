#!/bin/sh
# mutating_fkcgen.sh — an fkcgen for `fkc-run conform --fkcgen` in tests/cli/test_conform.c:
# runs the real one ($CONFORM_TEST_FKCGEN) and, for `gen --out-dir DIR ...`, breaks the
# generated dispatch in DIR/fkc_bindings.c as $CONFORM_TEST_MUTATION says, so the test can see
# conform catch generated code that does not refuse what it must:
#   keys     [T, U] keys are no longer refused
#   backend  every backend takes the Vulkan bindings
#   width    the dispatch gives F16 write_slice the 4-byte wrapper
#   undeclared  the dispatch gives write_slice I8 (which the contract omits) the 1-byte wrapper
# A mutation that no longer applies (the generated code changed) fails loudly (exit 70).
set -eu
"$CONFORM_TEST_FKCGEN" "$@"
[ "$1" = gen ] || exit 0
c=$3/fkc_bindings.c
cp "$c" "$c.orig"
case ${CONFORM_TEST_MUTATION:-} in
keys)    sed -i 's/^    if (in != out)$/    if (in != out \&\& 0)/' "$c" ;;
backend) sed -i 's/if (backend == FKC_BACKEND_VULKAN) {/if (1) {/' "$c" ;;
width)   sed -i '0,/ref->write_slice = fkc_write_slice_b2;/s//ref->write_slice = fkc_write_slice_b4;/' "$c" ;;
undeclared) sed -i '0,/            case FKC_DTYPE_U8:/s//            case FKC_DTYPE_U8: case FKC_DTYPE_I8:/' "$c" ;;
*)       echo "mutating_fkcgen.sh: unknown CONFORM_TEST_MUTATION '${CONFORM_TEST_MUTATION:-}'" >&2; exit 70 ;;
esac
if cmp -s "$c" "$c.orig"; then
	echo "mutating_fkcgen.sh: mutation '$CONFORM_TEST_MUTATION' did not apply to $c" >&2
	exit 70
fi
rm -f "$c.orig"
