# oclfuse bench charts: run `gnuplot charts.gp` in this directory.

reset
set terminal pngcairo size 1000,620 noenhanced font 'sans,11'
set output 'add.png'
set datafile missing '?'
set grid
set key below
set title "add: out = x + y\nNVIDIA H200 (580.159.04)"
set xlabel 'elements n'
set ylabel 'GB/s (3 x 4n bytes / median time)'
set yrange [0:*]
set logscale x 2
set format x '2^%L'
plot 'add.dat' using 1:3 with linespoints lw 2 pt 7 title 'liboclfuse (AUTO)', 'add.dat' using 1:4 with linespoints lw 2 pt 7 title 'baseline: 1 element per work-item', 4140.48 with lines dt 2 lw 2 lc rgb 'black' title 'copy ceiling GB/s 4140'

reset
set terminal pngcairo size 1000,620 noenhanced font 'sans,11'
set output 'softmax.png'
set datafile missing '?'
set grid
set key below
set title "row softmax\nNVIDIA H200 (580.159.04)"
set xlabel 'shape (rows x cols)'
set ylabel 'effective GB/s (2 x 4 x rows x cols bytes)'
set yrange [0:*]
set xrange [-0.5:5-0.5]
set xtics rotate by -20
plot 'softmax.dat' using 1:3:xticlabels(2) with linespoints lw 2 pt 7 title 'liboclfuse fused (AUTO)', 'softmax.dat' using 1:4:xticlabels(2) with linespoints lw 2 pt 7 title 'baseline: 3 kernels (max, exp-sum, div)', 4140.48 with lines dt 2 lw 2 lc rgb 'black' title 'copy ceiling GB/s 4140'

reset
set terminal pngcairo size 1000,620 noenhanced font 'sans,11'
set output 'matmul.png'
set datafile missing '?'
set grid
set key below
set title "SGEMM C = A B, square N x N x N\nNVIDIA H200 (580.159.04)"
set xlabel 'N'
set ylabel 'GFLOP/s (2 N^3 / median time)'
set yrange [0:*]
set logscale x 2
set format x '%g'
plot 'matmul.dat' using 1:3 with linespoints lw 2 pt 7 title 'liboclfuse (AUTO)', 'matmul.dat' using 1:4 with linespoints lw 2 pt 7 title 'naive: 1 output per work-item', 'matmul.dat' using 1:5 with linespoints lw 2 pt 7 title 'CLBlast SGEMM', 'matmul.dat' using 1:6 with linespoints lw 2 pt 7 title 'CLBlast, H200-tuned Xgemm', 61057.7 with lines dt 2 lw 2 lc rgb 'black' title 'FMA peak GFLOP/s 61058'

reset
set terminal pngcairo size 1000,620 noenhanced font 'sans,11'
set output 'sweep_add.png'
set datafile missing '?'
set grid
set key below
set title "add: time against workgroup size\nNVIDIA H200 (580.159.04)"
set xlabel 'workgroup size'
set ylabel 'median ms'
set yrange [0:*]
set logscale x 2
set format x '%g'
set logscale y 10
set yrange [*:*]
plot 'sweep_add.dat' using 1:3 with linespoints lw 2 pt 7 title 'liboclfuse (AUTO)'

reset
set terminal pngcairo size 1000,620 noenhanced font 'sans,11'
set output 'sweep_softmax.png'
set datafile missing '?'
set grid
set key below
set title "softmax: time against workgroup size\nNVIDIA H200 (580.159.04)"
set xlabel 'workgroup size'
set ylabel 'median ms'
set yrange [0:*]
set logscale x 2
set format x '%g'
set logscale y 10
set yrange [*:*]
plot 'sweep_softmax.dat' using 1:3 with linespoints lw 2 pt 7 title 'liboclfuse (AUTO)'

reset
set terminal pngcairo size 1000,620 noenhanced font 'sans,11'
set output 'sweep_matmul.png'
set datafile missing '?'
set grid
set key below
set title "matmul: time against workgroup size\nNVIDIA H200 (580.159.04)"
set xlabel 'workgroup size'
set ylabel 'median ms'
set yrange [0:*]
set logscale x 2
set format x '%g'
set logscale y 10
set yrange [*:*]
plot 'sweep_matmul.dat' using 1:3 with linespoints lw 2 pt 7 title 'liboclfuse (AUTO)'
