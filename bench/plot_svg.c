/* SPDX-License-Identifier: MIT */
/*
 * The plot of a benchmark run: median GB/s against buffer size (log2 axis), one line
 * per implementation, one panel per algorithm, from the aligned-buffer throughput
 * results.  Plain SVG 1.1 written by hand, so it needs nothing to render but a browser.
 * crcforge's paths are solid lines with dots; peers are dashed lines with squares.
 */
#include <math.h>
#include <string.h>

#include "bench.h"

enum {
    PANEL_W = 1060, PANEL_H = 540, /* one algorithm */
    LEFT = 80, RIGHT = 330, TOP = 70, BOTTOM = 75,
    MAX_SERIES = 48
};

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                      "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* A series keeps its colour in every panel: the index of its name among the names of
 * the whole run, in order of first appearance. */
static const char *colour_of(const struct bench_run *run, const char *name)
{
    size_t index = 0;
    for (size_t i = 0; i < run->count; i++) {
        const char *seen = run->results[i].subject;
        if (strcmp(seen, name) == 0)
            break;
        size_t j = 0;
        while (j < i && strcmp(run->results[j].subject, seen) != 0)
            j++;
        index += j == i; /* first appearance of another name */
    }
    return palette[index % (sizeof palette / sizeof *palette)];
}

/* A result of the panel's model and offset, timed by the loop of the run's tables. */
static int usable(const struct bench_run *run, const struct bench_result *r,
                  const crcforge_model *m, unsigned offset)
{
    return r->model == m && r->offset == offset && r->latency == (run->keys ? 0 : run->latency) &&
           r->status == BENCH_OK && r->size > 0;
}

/* The smallest step of the form {1, 2, 5} x 10^k giving at most 8 ticks up to max. */
static double tick_step(double max)
{
    static const double mantissa[] = {1, 2, 5};
    double decade = pow(10, floor(log10(max)) - 1);
    for (;; decade *= 10)
        for (int i = 0; i < 3; i++)
            if (max / (mantissa[i] * decade) <= 8)
                return mantissa[i] * decade;
}

static void size_label(char *out, size_t n, double size)
{
    if (size >= 1 << 30)
        snprintf(out, n, "%gG", size / (1 << 30));
    else if (size >= 1 << 20)
        snprintf(out, n, "%gM", size / (1 << 20));
    else if (size >= 1024)
        snprintf(out, n, "%gK", size / 1024);
    else
        snprintf(out, n, "%g", size);
}

static void panel(FILE *f, const struct bench_run *run, const crcforge_model *m, double y0)
{
    /* The offset plotted: 0 (aligned) when measured, else the first one measured. */
    unsigned offset = 64;
    for (size_t i = 0; i < run->count; i++)
        if (run->results[i].model == m && run->results[i].offset < offset)
            offset = run->results[i].offset;

    const char *series[MAX_SERIES];
    int peer[MAX_SERIES];
    size_t ns = 0;
    double lo = INFINITY, hi = 0, top = 0;
    for (size_t i = 0; i < run->count; i++) {
        const struct bench_result *r = &run->results[i];
        if (!usable(run, r, m, offset))
            continue;
        size_t k = 0;
        while (k < ns && strcmp(series[k], r->subject) != 0)
            k++;
        if (k == ns && ns < MAX_SERIES) {
            series[ns] = r->subject;
            peer[ns++] = r->is_peer;
        }
        lo = fmin(lo, (double)r->size);
        hi = fmax(hi, (double)r->size);
        top = fmax(top, bench_gbps(r->size, r->ns_median));
    }

    char name[128];
    const char *const *aliases = crcforge_model_aliases(m);
    snprintf(name, sizeof name, "%s%s%s%s", crcforge_model_name(m), aliases[0] ? " (" : "",
             aliases[0] ? aliases[0] : "", aliases[0] ? ")" : "");
    fprintf(f, "<text x=\"%d\" y=\"%.0f\" font-size=\"18\" font-weight=\"bold\">", LEFT,
            y0 + 28);
    xml_text(f, name);
    fputs(" throughput on ", f);
    xml_text(f, run->cpu);
    fputs("</text>\n", f);
    fprintf(f, "<text x=\"%d\" y=\"%.0f\" font-size=\"12\" fill=\"#444\">crcforge bench: "
               "median GB/s (decimal) of %u samples, buffers %s; higher is better</text>\n",
            LEFT, y0 + 48, run->cfg->repeat,
            offset == 0 ? "64-byte aligned" : "misaligned");
    if (ns == 0) {
        fprintf(f, "<text x=\"%d\" y=\"%.0f\" font-size=\"14\">no throughput results</text>\n",
                LEFT, y0 + TOP + 40);
        return;
    }

    double pw = PANEL_W - LEFT - RIGHT, ph = PANEL_H - TOP - BOTTOM;
    double gx = LEFT, gy = y0 + TOP;
    double xl = floor(log2(lo)), xh = ceil(log2(hi));
    if (xh <= xl)
        xh = xl + 1;
    double step = tick_step(top > 0 ? top : 1);
    double ymax = ceil(top / step) * step;
    if (ymax <= 0)
        ymax = step;
#define X(size) (gx + (log2(size) - xl) / (xh - xl) * pw)
#define Y(gbps) (gy + ph - (gbps) / ymax * ph)

    /* Grid, ticks and tick labels. */
    fprintf(f, "<g font-size=\"11\" fill=\"#222\">\n");
    for (double v = 0; v <= ymax + step / 2; v += step) {
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                gx, Y(v), gx + pw, Y(v));
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", gx - 6,
                Y(v) + 4, v);
    }
    for (double e = xl; e <= xh; e++) {
        char label[16];
        double x = gx + (e - xl) / (xh - xl) * pw;
        size_label(label, sizeof label, pow(2, e));
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n",
                x, gy, x, gy + ph);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
                   "transform=\"rotate(-45 %.1f %.1f)\">%s</text>\n",
                x + 3, gy + ph + 14, x + 3, gy + ph + 14, label);
    }
    fprintf(f, "</g>\n");
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
               "stroke=\"#000\"/>\n", gx, gy, pw, ph);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\">"
               "buffer size in bytes (log scale)</text>\n", gx + pw / 2, gy + ph + 55);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\" "
               "transform=\"rotate(-90 %.1f %.1f)\">GB/s (10^9 bytes per second)</text>\n",
            gx - 50, gy + ph / 2, gx - 50, gy + ph / 2);

    /* One polyline per series, in size order as measured, and the legend beside it. */
    for (size_t k = 0; k < ns; k++) {
        const char *colour = colour_of(run, series[k]);
        int is_auto = strcmp(series[k], "auto") == 0;
        fprintf(f, "<g class=\"series\" data-name=\"");
        xml_text(f, series[k]);
        fprintf(f, "\" stroke=\"%s\" fill=\"%s\">\n<polyline fill=\"none\" stroke-width=\"%s\"%s "
                   "points=\"", colour, colour, is_auto ? "3" : "1.8",
                peer[k] ? " stroke-dasharray=\"6 4\"" : "");
        for (size_t i = 0; i < run->count; i++) {
            const struct bench_result *r = &run->results[i];
            if (usable(run, r, m, offset) && strcmp(r->subject, series[k]) == 0)
                fprintf(f, "%.1f,%.1f ", X((double)r->size),
                        Y(bench_gbps(r->size, r->ns_median)));
        }
        fprintf(f, "\"/>\n");
        for (size_t i = 0; i < run->count; i++) {
            const struct bench_result *r = &run->results[i];
            if (!usable(run, r, m, offset) || strcmp(r->subject, series[k]) != 0)
                continue;
            double x = X((double)r->size), y = Y(bench_gbps(r->size, r->ns_median));
            if (peer[k])
                fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\"/>\n", x - 3,
                        y - 3);
            else
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>\n", x, y);
        }
        double ly = gy + 10 + 20 * (double)k, lx = gx + pw + 20;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"%s\"%s/>\n",
                lx, ly, lx + 30, ly, is_auto ? "3" : "1.8",
                peer[k] ? " stroke-dasharray=\"6 4\"" : "");
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" stroke=\"none\" "
                   "fill=\"#000\">", lx + 38, ly + 4);
        xml_text(f, series[k]);
        fprintf(f, "%s</text>\n</g>\n", peer[k] ? " (peer)" : "");
    }
#undef X
#undef Y
}

void bench_plot_svg(FILE *f, const struct bench_run *run)
{
    const crcforge_model *models[64];
    size_t nm = 0;
    for (size_t i = 0; i < run->count; i++) {
        size_t k = 0;
        while (k < nm && models[k] != run->results[i].model)
            k++;
        if (k == nm && nm < 64)
            models[nm++] = run->results[i].model;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
               "height=\"%zu\" viewBox=\"0 0 %d %zu\" font-family=\"sans-serif\">\n",
            PANEL_W, PANEL_H * (nm ? nm : 1), PANEL_W, PANEL_H * (nm ? nm : 1));
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n");
    for (size_t k = 0; k < nm; k++)
        panel(f, run, models[k], (double)(PANEL_H * k));
    fprintf(f, "</svg>\n");
}
