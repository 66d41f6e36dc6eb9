/* SPDX-License-Identifier: MIT */
/* The one text-table writer of the benchmarks: cells as text, each column as wide as its
 * widest cell (or its minimum), left- or right-aligned, two spaces between columns; the
 * last column is not padded. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

struct bench_table *bench_table_new(size_t max_rows, size_t max_cols)
{
    struct bench_table *t = calloc(1, sizeof *t);
    if (t == NULL || (t->cell = calloc(max_rows * max_cols, sizeof *t->cell)) == NULL ||
        (t->min_width = calloc(max_cols, sizeof *t->min_width)) == NULL ||
        (t->right = calloc(max_cols, sizeof *t->right)) == NULL)
        abort();
    t->max_rows = max_rows;
    t->max_cols = max_cols;
    return t;
}

void bench_table_free(struct bench_table *t)
{
    if (t == NULL)
        return;
    free(t->cell);
    free(t->min_width);
    free(t->right);
    free(t);
}

void bench_table_column(struct bench_table *t, size_t col, int min_width, int right)
{
    if (col < t->max_cols) {
        t->min_width[col] = min_width;
        t->right[col] = right;
    }
}

void bench_table_set(struct bench_table *t, size_t row, size_t col, const char *fmt, ...)
{
    if (row >= t->max_rows || col >= t->max_cols)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->cell[row * t->max_cols + col], BENCH_CELL, fmt, ap);
    va_end(ap);
    if (row >= t->rows)
        t->rows = row + 1;
    if (col >= t->cols)
        t->cols = col + 1;
}

void bench_table_print(FILE *f, const struct bench_table *t)
{
    for (size_t r = 0; r < t->rows; r++) {
        for (size_t c = 0; c < t->cols; c++) {
            int width = t->min_width[c];
            for (size_t k = 0; k < t->rows; k++) {
                int w = (int)strlen(t->cell[k * t->max_cols + c]);
                width = w > width ? w : width;
            }
            const char *text = t->cell[r * t->max_cols + c];
            if (c + 1 == t->cols && !t->right[c])
                width = 0; /* no trailing spaces */
            fprintf(f, t->right[c] ? "%s%*s" : "%s%-*s", c ? "  " : "", width, text);
        }
        fputc('\n', f);
    }
}
