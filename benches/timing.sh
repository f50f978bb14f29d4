# Shared by the benchmark scripts (sourced, not run): CPU time of a command and the median of
# numbers.
#
# cpu CMD...: runs CMD with its standard output into $tmp/out (the caller's scratch folder)
#   and prints its CPU time (user + system, seconds) as /usr/bin/time measures it.
# median: the median of the numbers on standard input, one a line (the mean of the middle
#   two for an even count).
cpu() {
  /usr/bin/time -f "%U %S" -o "$tmp/time" "$@" >"$tmp/out"
  awk '{ printf "%.3f\n", $1 + $2 }' "$tmp/time"
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
