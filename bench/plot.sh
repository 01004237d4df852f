#!/bin/sh
# Draws bench/results/throughput.png from the CSV that atdc_bench writes
# (--csv): best-of-rounds MB/s per contender, one panel for readers and one
# for writers, workloads along the x axis. gnuplot (Debian gnuplot-nox) with
# the pngcairo terminal, falling back to png; no X needed. The y axis is
# logarithmic because the contenders span three orders of magnitude; memcpy
# is left out (it would flatten everything else).
#
# Usage: sh bench/plot.sh RESULTS.csv OUTPUT.png
set -eu
csv=$1
png=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Pivot the long CSV into one table per group: rows = workloads, columns =
# contenders (in order of first appearance), "-" where a contender did not run.
pivot() {
    awk -F, -v group="$1" '
        /^#/ || $1 == "workload" || $2 != group || $3 == "memcpy" || $6 == "" { next }
        {
            if (!($1 in wseen)) { wseen[$1] = 1; w[nw++] = $1 }
            if (!($3 in cseen)) { cseen[$3] = 1; c[nc++] = $3 }
            v[$1 SUBSEP $3] = $6
        }
        END {
            printf "workload"
            for (j = 0; j < nc; j++) printf " %s", c[j]
            printf "\n"
            for (i = 0; i < nw; i++) {
                printf "%s", w[i]
                for (j = 0; j < nc; j++) {
                    k = w[i] SUBSEP c[j]
                    printf " %s", (k in v) ? v[k] : "-"
                }
                printf "\n"
            }
        }' "$csv"
}
pivot read > "$tmp/read.dat"
pivot write > "$tmp/write.dat"
ncol_r=$(head -1 "$tmp/read.dat" | wc -w)
ncol_w=$(head -1 "$tmp/write.dat" | wc -w)

term="pngcairo size 1600,1200 font ',10'"
gnuplot -e "set terminal pngcairo" 2>/dev/null </dev/null || term="png size 1600,1200"

gnuplot <<GP
set terminal $term
set output '$png'
set termoption noenhanced
set datafile missing '-'
# Fourteen distinct colours: the default eight would repeat within a cluster.
array C[14] = ['#6a3d9a', '#1b9e77', '#56b4e9', '#e69f00', '#f0e442', '#0072b2', '#d55e00', \
               '#000000', '#cc79a7', '#999999', '#66a61e', '#e7298a', '#a6761d', '#1f78b4']
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set logscale y
set yrange [1:*]
set ylabel 'MB/s (best of rounds, log scale)'
set grid ytics
set key outside right top vertical
set xtics rotate by -30
set multiplot layout 2,1 title 'atdc benchmark: generated reader/writer vs generic parsers'
set title 'Reading'
plot for [i=2:$ncol_r] '$tmp/read.dat' using i:xtic(1) title columnhead(i) lc rgb C[(i-2)%14+1]
set title 'Writing'
plot for [i=2:$ncol_w] '$tmp/write.dat' using i:xtic(1) title columnhead(i) lc rgb C[(i-2)%14+1]
unset multiplot
GP
echo "wrote $png"
