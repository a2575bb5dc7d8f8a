#!/bin/sh
# demo.sh FKC_RUN DIR — the short demo `make` runs: two small arrays made by fkc-run itself, then
# a write_slice and a wrapping rotating write on the default Vulkan device, or on the CPU
# reference (--cpu) when there is no Vulkan device at all.
set -eu
run=$1
dir=$2
mkdir -p "$dir"

set +e
devices=$("$run" devices 2>&1)
rc=$?
set -e
case $rc in
0) path=""
   echo "demo: on the default Vulkan device: $(echo "$devices" | sed -n 's/^default: //p')" ;;
3) path="--cpu"
   echo "demo: $devices"
   echo "demo: no Vulkan device found: running on the CPU reference (--cpu) instead" ;;
*) echo "$devices" >&2; exit 1 ;;
esac

"$run" iota --shape 4,6 --dtype f32 -o "$dir/dst.npy"
"$run" iota --shape 2,3 --dtype f32 --start 100 -o "$dir/src.npy"
"$run" show "$dir/src.npy"

echo "demo: fkc-run write_slice --dst dst.npy --src src.npy --offsets 1,2 -o slice.npy $path"
"$run" write_slice --dst "$dir/dst.npy" --src "$dir/src.npy" --offsets 1,2 \
	-o "$dir/slice.npy" $path
"$run" show "$dir/slice.npy"

echo "demo: fkc-run write_slice_rotating --dst dst.npy --src src.npy --capacity 4 --position 3" \
	"-o ring.npy $path   (rows land at 3 and 0: the write wraps)"
"$run" write_slice_rotating --dst "$dir/dst.npy" --src "$dir/src.npy" --capacity 4 \
	--position 3 -o "$dir/ring.npy" $path
"$run" show "$dir/ring.npy"
