# plot.gp — bar chart of the bench results (median ns per unit, min-max
# error bars, log scale) with the host runtime's targets, PNG and SVG.
#   gnuplot -e "datafile='build/bench/plot.dat'; outbase='build/bench/bench'; present='0 1 2 3'" bench/plot.gp
# (present: the systems with figures, 0 = ours, 1 = bare C, 2 = Erlang,
# 3 = CAF; bench/report.py writes them to plot.sys)
if (!exists("datafile")) datafile = 'build/bench/plot.dat'
if (!exists("outbase")) outbase = 'build/bench/bench'

set title "actormachine host runtime vs a bare C event loop, Erlang/OTP, CAF (one thread each)"
set ylabel "ns per unit (median, min-max), log scale"
set logscale y
set grid ytics mytics
set key top left
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics nomirror rotate by -20
set bars 0.5
set yrange [2:*]
array names = ["actormachine (host)", "bare C event loop", "Erlang/OTP +S 1", "CAF 0.17, 1 thread"]
array colors = ["#1b9e77", "#666666", "#d95f02", "#7570b3"]
if (!exists("present")) present = "0 1 2 3"

do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1100,600 font ",10" } \
    else { set terminal svg size 1100,600 font "sans,10" dynamic }
    set output outbase . "." . fmt
    plot for [s in present] datafile \
             using (column(2 + 3 * int(s))):(column(3 + 3 * int(s))):(column(4 + 3 * int(s))):xtic(1) \
             title names[int(s) + 1] lc rgb colors[int(s) + 1], \
         15 with lines dt 2 lw 1.5 lc rgb "#1b9e77" title "target: 15 ns/msg (ping-pong, ring)", \
         40 with lines dt 3 lw 1.5 lc rgb "#1b9e77" title "target: 40 ns/actor (creation)"
    unset output
}
