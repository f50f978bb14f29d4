# A flawed generator for docs/coursework.md, section 11: reads `queens-sat encode N` (run with
# `awk -v n=N`) and keeps a diagonal's pair clause only when its two cells are fewer than 6 rows
# apart, as a loop bound too small would. Right for n <= 7, where the pairs it leaves out are
# implied by the other rules; wrong from n = 8.
/^c/ { next }
/^p/ { next }
{
    if (NF == 3 && $1 < 0 && $2 < 0) {
        a = -$1 - 1; b = -$2 - 1
        dr = int(b / n) - int(a / n); dc = b % n - a % n
        if (dr < 0) dr = -dr
        if (dc < 0) dc = -dc
        if (dr == dc && dr >= 6) next
    }
    kept[++k] = $0
}
END {
    print "p cnf", n * n, k
    for (i = 1; i <= k; i++) print kept[i]
}
