#!/bin/sh
# Draws the benchmark chart from the CSV that atdc_bench writes (--csv): each
# contender's speed relative to atdc's generated code (1.0 = atdc; above 1 the
# contender is faster), one panel for reading and one for writing, the seven
# main workloads along the x axis. The speed ratio is 1 / the CSV's
# ratio_to_generated, i.e. the median same-round time ratio, which holds
# between runs on a noisy machine where absolute MB/s do not. Only the
# fastest generic contenders are drawn (the others are far below and are in
# the tables). gnuplot (Debian gnuplot-nox) with the pngcairo terminal,
# falling back to png; no X needed.
#
# Usage: sh bench/plot.sh RESULTS.csv OUTPUT.png
set -eu
csv=$1
png=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

workloads="event twitter citm_catalog canada github blockchain donut"
readers="yyjson.parse yyjson.parse+conv simdjson.dom simdjson.ondemand atd_json.parse cjson.parse"
writers="yyjson.print simdjson.minify atd_json.print cjson.print"

# One table per group: rows = workloads, columns = contenders that ran,
# values = speed relative to atdc, "-" where a contender did not run there.
pivot() {
    awk -F, -v group="$1" -v wl="$workloads" -v cs="$2" '
        BEGIN { nw = split(wl, w, " "); nc = split(cs, c, " ") }
        /^#/ || $1 == "workload" || $2 != group || $7 == "" || $7 + 0 <= 0 { next }
        { v[$1 SUBSEP $3] = 1 / $7; ran[$3] = 1 }
        END {
            printf "workload"
            for (j = 1; j <= nc; j++) if (c[j] in ran) printf " %s", c[j]
            printf "\n"
            for (i = 1; i <= nw; i++) {
                printf "%s", w[i]
                for (j = 1; j <= nc; j++) {
                    if (!(c[j] in ran)) continue
                    k = w[i] SUBSEP c[j]
                    printf " %s", (k in v) ? sprintf("%.3f", v[k]) : "-"
                }
                printf "\n"
            }
        }' "$csv"
}
pivot read "$readers" > "$tmp/read.dat"
pivot write "$writers" > "$tmp/write.dat"
ncol_r=$(head -1 "$tmp/read.dat" | wc -w)
ncol_w=$(head -1 "$tmp/write.dat" | wc -w)
# The value labels are drawn from the same rows without the header line.
tail -n +2 "$tmp/read.dat" > "$tmp/read.rows"
tail -n +2 "$tmp/write.dat" > "$tmp/write.rows"
machine=$(sed -n 's/^# //p' "$csv" | head -1)

term="pngcairo size 1400,1100 font ',10'"
gnuplot -e "set terminal pngcairo" 2>/dev/null </dev/null || term="png size 1400,1100"

# Bar j (0-based) of n in a cluster with gap 1 is centred at x + (j - (n-1)/2) / (n+1).
gnuplot <<GP
set terminal $term
set output '$png'
set termoption noenhanced
set datafile missing '-'
array C[6] = ['#0072b2', '#56b4e9', '#d55e00', '#e69f00', '#999999', '#009e73']
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set boxwidth 1
set yrange [0:*]
set ylabel "speed relative to atdc (1.0 = atdc; < 1: atdc is faster)"
set grid ytics
set key outside right top vertical
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lw 2 dt 2 lc rgb '#000000' front
set label 1 'atdc' at graph 1, first 1 offset 0.5,0 left font ',9'
set multiplot layout 2,1 title "atdc benchmark: other parsers' speed relative to atdc's generated code\n$machine"
set title 'Reading (atdc: generated reader into structs, strings copied)'
n = $ncol_r - 1
plot for [i=2:$ncol_r] '$tmp/read.dat' using i:xtic(1) title columnhead(i) lc rgb C[(i-2)%6+1], \
     for [i=2:$ncol_r] '$tmp/read.rows' using (\$0 + (i - 2 - (n - 1) / 2.0) / (n + 1)):(column(i)):(sprintf('%.2f', column(i))) \
         with labels offset 0,0.6 font ',7' notitle
set title 'Writing (atdc: generated writer from structs; others: from their DOM)'
n = $ncol_w - 1
plot for [i=2:$ncol_w] '$tmp/write.dat' using i:xtic(1) title columnhead(i) lc rgb C[(i-2)%6+1], \
     for [i=2:$ncol_w] '$tmp/write.rows' using (\$0 + (i - 2 - (n - 1) / 2.0) / (n + 1)):(column(i)):(sprintf('%.2f', column(i))) \
         with labels offset 0,0.6 font ',7' notitle
unset multiplot
GP
echo "wrote $png"
