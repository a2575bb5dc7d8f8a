#!/bin/sh
# tests/runtime/layers/check.sh CC BUILD — scripts/runtime-layers.py must fail where it should:
# a source dir of two files calling each other (a circle) and a function of 61 lines; and pass
# the same files once the circle and the long function are gone. Run by check-runtime-layers.
set -eu
cc=$1
dir=$2/runtime-layers-selftest
rm -rf "$dir"
mkdir -p "$dir/src"
printf 'void b(int n);\nvoid a(int n);\nvoid a(int n)\n{\n    if (n)\n        b(n - 1);\n}\n' \
    > "$dir/src/a.c"
{
    printf 'void a(int n);\nvoid b(int n);\nvoid b(int n)\n{\n'
    i=0
    while [ $i -lt 60 ]; do printf '    (void)n;\n'; i=$((i + 1)); done
    printf '    a(n);\n}\n'
} > "$dir/src/b.c"
$cc -c "$dir/src/a.c" -o "$dir/a.o"
$cc -c "$dir/src/b.c" -o "$dir/b.o"
if python3 scripts/runtime-layers.py "$dir/src" "$dir/a.o" "$dir/b.o" > "$dir/out.txt"; then
    cat "$dir/out.txt"
    echo "runtime-layers self-test: a circle and a 61-line function passed"
    exit 1
fi
grep -q "a call circle among a.c, b.c" "$dir/out.txt" &&
    grep -q "src/b.c:3: b has 61 lines (at most 60)" "$dir/out.txt" || {
    cat "$dir/out.txt"
    echo "runtime-layers self-test: the circle or the long function not reported"
    exit 1
}
# no circle, 60 lines: passes
printf 'void a(int n);\nvoid a(int n)\n{\n    (void)n;\n}\n' > "$dir/src/a.c"
sed -i '/^    a(n);$/d' "$dir/src/b.c"
$cc -c "$dir/src/a.c" -o "$dir/a.o"
$cc -c "$dir/src/b.c" -o "$dir/b.o"
python3 scripts/runtime-layers.py "$dir/src" "$dir/a.o" "$dir/b.o" > "$dir/out.txt" || {
    cat "$dir/out.txt"
    echo "runtime-layers self-test: two independent files with a 60-line function failed"
    exit 1
}
echo "runtime-layers self-test: a circle and a 61-line function fail, 60 lines and no circle pass"
