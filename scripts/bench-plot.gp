# bench-plot.gp — bandwidth (GB/s written) against size, one panel per width, from the CSV of
# `fkc-bench --csv` (columns op,width,layout,path,bytes,sec,gbs,plain_sec,copy_sec):
# write_slice aligned and unaligned beside the two references measured in the same run
# (vkCmdCopyBuffer and the plain 16-byte-per-invocation compute copy). Rows are picked by awk.
# gnuplot -e "csv='bench.csv'; png='bench.png'; title='...'" scripts/bench-plot.gp
# (make bench-plot BENCH_CSV=... BENCH_PNG=... BENCH_TITLE=...)
set datafile separator ','
set terminal png size 900,620 font ",8"
set output png
set logscale x 2
set xlabel 'MiB written per op'
set ylabel 'GB/s written'
set key top left font ",8" noenhanced
set grid
set yrange [0:*]
set multiplot layout 2,2 title title noenhanced
rows(op, w, l) = sprintf("< awk -F, '$1==\"%s\" && ($2==\"%s\" || \"%s\"==\"-\") && ($3==\"%s\" || \"%s\"==\"-\")' '%s'", op, w, w, l, l, csv)
do for [w in 'b1 b2 b4 b8'] {
    set title 'width '.w
    plot rows('write_slice', w, 'aligned') using ($5/1048576):7 with linespoints pt 7 title 'write_slice aligned', \
         rows('write_slice', w, 'unaligned') using ($5/1048576):7 with linespoints pt 5 title 'write_slice unaligned', \
         rows('plain', '-', '-') using ($5/1048576):7 with linespoints dt 2 pt 1 title 'plain compute copy', \
         rows('copy', '-', '-') using ($5/1048576):7 with linespoints dt 3 pt 2 title 'vkCmdCopyBuffer'
}
unset multiplot
