#!/bin/sh
# The revindex benchmark (bench/revindex.c): for each variant, writes the
# reverse index to a file and reads it back in fresh processes, ROUNDS times
# (default 3), keeping the best time of each phase (docs of measuring: the
# minimum is the least disturbed run) and the largest peak memory; each
# round reads warm (the file in the page cache) and cold (its pages dropped
# with posix_fadvise POSIX_FADV_DONTNEED first). Checks that every variant's
# queries saw the same occurrences (checksum). The OCaml Marshal baseline
# (bench/revindex_marshal.ml: the same generator and checksum) runs when
# ocamlfind and ocamlopt are there, and is skipped with a note when not.
# Writes OUTDIR/revindex.csv, OUTDIR/revindex.md (table with the targets)
# and, when gnuplot is there, OUTDIR/revindex.png.
#
# Usage: sh bench/revindex.sh ATDC_REVINDEX OUTDIR [NWORDS [NFILES [NQUERIES]]]
# (REPORT_ONLY=1 redraws OUTDIR's table and chart from its CSV; VARIANTS
# limits the variants run.)
# Full size (the default): 1,000,000 words among 100,000 files, 1,000
# queries; the largest file (JSON) is about 3 GB in TMPDIR, one at a time,
# and the decode-everything readers need several GB of memory.
set -eu
bin=$1
outdir=$2
nwords=${3:-1000000}
nfiles=${4:-100000}
nqueries=${5:-1000}
rounds=${ROUNDS:-3}
here=$(cd "$(dirname "$0")" && pwd)
variants=${VARIANTS:-"json biniou lazy lazy_shared lazy_index marshal"}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/revindex.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$outdir"
csv="$outdir/revindex.csv"
note=""
# REPORT_ONLY=1: redraw the table and chart from an existing CSV
if [ "${REPORT_ONLY:-0}" != 1 ]; then
echo "variant,write_s,open_s,queries_s,peak_kb,size_bytes,checksum,open_cold_s,queries_cold_s,rss_open_kb,pages_queries_cold,pages_ahead_cold,write_cpu_s" > "$csv"

field() { # field NAME LINE
    echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a + 0 < b + 0) ? a : b }'; }
max() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a + 0 > b + 0) ? a : b }'; }

for v in $variants; do
    run="$bin"
    if [ "$v" = marshal ]; then
        if ! command -v ocamlfind > /dev/null 2>&1 || ! ocamlfind ocamlopt -version > /dev/null 2>&1; then
            echo "revindex: OCaml (ocamlfind ocamlopt) not found: the Marshal baseline is skipped" >&2
            continue
        fi
        cp "$here/revindex_marshal.ml" "$tmp/"
        (cd "$tmp" && ocamlfind ocamlopt -O3 -package unix -linkpkg revindex_marshal.ml \
             -o revindex_marshal > /dev/null 2>&1 ||
         ocamlfind ocamlopt -package unix -linkpkg revindex_marshal.ml -o revindex_marshal)
        # the same command line as atdc_revindex, without the variant
        marshal() { mode=$1; shift; shift; "$tmp/revindex_marshal" "$mode" "$@"; }
        run=marshal
    fi
    f="$tmp/$v.db"
    w="" wc="" o="" q="" oc="" qc="" p="" ro="" pq="" pa="" size="" sum=""
    r=0
    while [ "$r" -lt "$rounds" ]; do
        line=$($run write "$v" "$f" "$nwords" "$nfiles")
        w=$(min "$(field write_s "$line")" "$w")
        wc=$(min "$(field write_cpu_s "$line")" "$wc")
        size=$(field size "$line")
        for mode in read read_cold; do
            line=$($run "$mode" "$v" "$f" "$nwords" "$nqueries")
            if [ "$mode" = read ]; then
                o=$(min "$(field open_s "$line")" "$o")
                q=$(min "$(field queries_s "$line")" "$q")
                ro=$(max "$(field rss_open_kb "$line")" "$ro")
            else
                oc=$(min "$(field open_s "$line")" "$oc")
                qc=$(min "$(field queries_s "$line")" "$qc")
                pq=$(field pages_queries "$line")
                pa=$(field pages_ahead "$line")
            fi
            p=$(max "$(field peak_kb "$line")" "$p")
            s=$(field checksum "$line")
            if [ -n "$sum" ] && [ "$s" != "$sum" ]; then
                echo "revindex: $v: checksum $s differs between rounds ($sum)" >&2
                exit 1
            fi
            sum=$s
        done
        r=$((r + 1))
    done
    rm -f "$f"
    echo "$v,$w,$o,$q,$p,$size,$sum,$oc,$qc,$ro,$pq,${pa:-0},$wc" >> "$csv"
done
fi

# every variant answered the same queries with the same occurrences
if [ "$(cut -d, -f7 "$csv" | sed 1d | sort -u | wc -l)" -ne 1 ]; then
    echo "revindex: the variants' checksums differ:" >&2
    cat "$csv" >&2
    exit 1
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
awk -F, -v nwords="$nwords" -v nfiles="$nfiles" -v nq="$nqueries" -v rounds="$rounds" -v cpu="$cpu" '
    NR == 1 { next }
    { w[$1] = $2; o[$1] = $3; q[$1] = $4; p[$1] = $5; s[$1] = $6; oc[$1] = $8; qc[$1] = $9; ro[$1] = $10; pq[$1] = $11; pa[$1] = $12 + 0; wc[$1] = $13; order[++n] = $1 }
    END {
        name["json"] = "atdc JSON (decode everything)"
        name["biniou"] = "atdc biniou (decode everything)"
        name["lazy"] = "lazy: occurrence lists <c lazy>"
        name["lazy_shared"] = "lazy + <c shared> file names"
        name["lazy_index"] = "lazy + shared + <c index> map"
        name["marshal"] = "OCaml Marshal (decode everything)"
        printf "# revindex: the lazy format\n\n"
        printf "%d words, 1-100 occurrences each among %d files, %d queries (each: look a word up, decode its occurrences); best of %d rounds, each phase in a fresh process; cold: the file dropped from the page cache (posix_fadvise DONTNEED) before open. CPU: %s. Generated by `sh bench/revindex.sh`.\n\n", nwords, nfiles, nq, rounds, cpu
        printf "| variant | write | open (warm / cold) | %d queries (warm / cold) | pages read per cold query | file size | RSS after open | peak RSS |\n", nq
        printf "|---|---:|---:|---:|---:|---:|---:|---:|\n"
        for (i = 1; i <= n; i++) {
            k = order[i]
            pages = (k == "marshal") ? "-" : sprintf("%.2f", pq[k] / nq)
            if (pa[k] > 0)
                pages = sprintf("%s (%.2f + %.2f)", pages, (pq[k] - pa[k]) / nq, pa[k] / nq)
            printf "| %s | %.3f s | %s / %s | %s / %s | %s | %.1f MB | %.1f MB | %.0f MB |\n", name[k], w[k], t(o[k]), t(oc[k]), t(q[k]), t(qc[k]), pages, s[k] / 1e6, ro[k] / 1024, p[k] / 1024
        }
        printf "\nPages read per cold query: the pages of the file resident after the queries less those after open (mincore), over the queries (file names and index nodes are shared between queries); in parentheses, those read one at a time + those that arrived from the parts read ahead in the background (shared strings, the index'"'"'s upper nodes).\n"
        if ("lazy_index" in w && "lazy_shared" in w && "lazy" in w) {
            printf "\nTargets (lazy + shared + index):\n\n"
            printf "- open under 1 ms: %s (%s)\n", t(o["lazy_index"]), (o["lazy_index"] < 0.001) ? "met" : "NOT met"
            printf "- <c shared> costs at most 20%% on the write: lazy + shared %.3f s vs lazy %.3f s, %.2fx (%s)\n", w["lazy_shared"], w["lazy"], w["lazy_shared"] / w["lazy"], (w["lazy_shared"] <= 1.2 * w["lazy"]) ? "met" : "NOT met"
            if (wc["lazy_shared"] != "" && wc["lazy"] > 0)
                printf "  (in CPU time, steadier on a shared machine: %.3f s vs %.3f s, %.2fx)\n", wc["lazy_shared"], wc["lazy"], wc["lazy_shared"] / wc["lazy"]
            if ("marshal" in w) {
                printf "- file no larger than Marshal'"'"'s: %.1f MB vs %.1f MB (%s)\n", s["lazy_index"] / 1e6, s["marshal"] / 1e6, (s["lazy_index"] <= s["marshal"]) ? "met" : "NOT met"
                printf "- shared write faster than Marshal'"'"'s: %.3f s vs %.3f s (%s)\n", w["lazy_shared"], w["marshal"], (w["lazy_shared"] < w["marshal"]) ? "met" : "NOT met"
            }
        }
    }
    function t(x) { if (x == "") return "-"; if (x < 0.001) return sprintf("%.1f µs", x * 1e6); if (x < 1) return sprintf("%.2f ms", x * 1e3); return sprintf("%.3f s", x) }
' "$csv" > "$outdir/revindex.md"

if command -v gnuplot > /dev/null 2>&1; then
    sed 1d "$csv" | awk -F, '{ printf "%s %g %g %g %g %g\n", $1, $2, $3 + 1e-6, $4 + 1e-6, $6 / 1e6, $9 + 1e-6 }' > "$tmp/data"
    gnuplot > /dev/null 2>&1 <<EOF || echo "revindex: gnuplot failed, no chart" >&2
set terminal pngcairo size 1100,420 noenhanced
set output "$outdir/revindex.png"
set multiplot layout 1,2 title "revindex: $nwords words, $nqueries queries"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set ylabel "seconds (log)"
set xtics rotate by -20
set format y "%g"
set key outside bottom center horizontal
plot "$tmp/data" using 2:xtic(1) title "write", "" using 3 title "open", "" using 4 title "queries", "" using 6 title "cold queries"
unset logscale y
set yrange [0:*]
set ylabel "file size (MB)"
plot "$tmp/data" using 5:xtic(1) title "file size" linecolor rgb "#4060a0"
unset multiplot
EOF
fi
cat "$outdir/revindex.md"
