/* The classic bitboard counter of the n-queens solutions, in C: rows top-down, the columns and
 * the two diagonal directions that attack the next row each kept as one machine word (the
 * diagonals shifted by one column per row), the free cells of a row taken lowest bit first;
 * the first row's queen only in the left half, the count doubled, and the middle column of an
 * odd n searched apart. Total count only. The baseline of benches/count_vs_c.sh.
 *
 *   cc -O3 -o classic_counter benches/classic_counter.c && ./classic_counter 16
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long below(unsigned all, unsigned cols, unsigned left, unsigned right) {
    if (cols == all)
        return 1;
    unsigned long long count = 0;
    unsigned free = all & ~(cols | left | right);
    while (free) {
        unsigned bit = free & -free;
        free ^= bit;
        count += below(all, cols | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    return count;
}

int main(int argc, char **argv) {
    int n = argc == 2 ? atoi(argv[1]) : 0;
    if (n < 1 || n > 31) {
        fprintf(stderr, "usage: classic_counter N (1 to 31)\n");
        return 2;
    }
    unsigned all = (1u << n) - 1;
    unsigned long long total = 0;
    for (int c = 0; c < n / 2; c++) {
        unsigned bit = 1u << c;
        total += below(all, bit, bit << 1, bit >> 1);
    }
    total *= 2;
    if (n % 2 == 1) {
        unsigned bit = 1u << (n / 2);
        total += below(all, bit, bit << 1, bit >> 1);
    }
    printf("%llu\n", total);
    return 0;
}
