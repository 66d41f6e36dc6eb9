/* SPDX-License-Identifier: MIT */
/* A benchmark run as an aligned terminal table, as CSV, and as JSON. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

/* The distinct values of one field over the results, in order of first appearance. */
#define DISTINCT(out_, n_, max_, field_, filter_)                                         \
    do {                                                                                  \
        n_ = 0;                                                                           \
        for (size_t i_ = 0; i_ < run->count; i_++) {                                      \
            const struct bench_result *r = &run->results[i_];                             \
            if (!(filter_))                                                               \
                continue;                                                                 \
            size_t k_ = 0;                                                                \
            while (k_ < n_ && !(out_[k_] == r->field_))                                   \
                k_++;                                                                     \
            if (k_ == n_ && n_ < (max_))                                                  \
                out_[n_++] = r->field_;                                                   \
        }                                                                                 \
    } while (0)

enum { MAX_GROUP = 64 };

static const struct bench_result *find(const struct bench_run *run, const crcforge_model *m,
                                       unsigned offset, size_t size, const char *subject,
                                       int latency)
{
    for (size_t i = 0; i < run->count; i++) {
        const struct bench_result *r = &run->results[i];
        if (r->model == m && r->offset == offset && r->size == size && r->latency == latency &&
            strcmp(r->subject, subject) == 0)
            return r;
    }
    return NULL;
}

/* "8 B", "4 KiB", "64 MiB", or bytes when not a whole unit. */
static void format_size(char *out, size_t n, size_t size)
{
    if (size >= (1u << 20) && size % (1u << 20) == 0)
        snprintf(out, n, "%zu MiB", size >> 20);
    else if (size >= 1024 && size % 1024 == 0)
        snprintf(out, n, "%zu KiB", size >> 10);
    else
        snprintf(out, n, "%zu B", size);
}

/* A row's size, or "mean 2107 B" for the mixed stream. */
static void size_label(char *out, size_t n, const struct bench_run *run, size_t size)
{
    char text[32];
    format_size(text, sizeof text, size);
    snprintf(out, n, "%s%s", run->mixed ? "mean " : "", text);
}

static const char *model_title(const crcforge_model *m, char *out, size_t n)
{
    const char *const *aliases = crcforge_model_aliases(m);
    if (aliases[0] != NULL)
        snprintf(out, n, "%s (%s)", crcforge_model_name(m), aliases[0]);
    else
        snprintf(out, n, "%s", crcforge_model_name(m));
    return out;
}

/* What a result times: a crcforge path, a peer, or the baseline. */
static const char *bench_kind(const struct bench_result *r)
{
    return r->is_peer ? "peer" : r->is_baseline ? "baseline" : "crcforge";
}

/* The fastest peer that matched, by median time; NULL when none. */
/* The loop of the tables' cells: the latency loop with --loop latency (in --keys mode,
 * throughput, the latency loop beside it). */
static int main_loop(const struct bench_run *run)
{
    return run->keys ? 0 : run->latency;
}

static const struct bench_result *best_peer(const struct bench_run *run,
                                            const crcforge_model *m, unsigned offset,
                                            size_t size)
{
    const struct bench_result *best = NULL;
    for (size_t i = 0; i < run->count; i++) {
        const struct bench_result *r = &run->results[i];
        if (r->model == m && r->offset == offset && r->size == size &&
            r->latency == main_loop(run) &&
            r->is_peer && r->status == BENCH_OK &&
            (best == NULL || r->ns_median < best->ns_median))
            best = r;
    }
    return best;
}

static void cell(char *out, size_t n, const struct bench_run *run, const struct bench_result *r,
                 const struct bench_result *lat)
{
    if (r == NULL)
        snprintf(out, n, "-");
    else if (r->status != BENCH_OK)
        snprintf(out, n, "MISMATCH");
    else if (run->keys)
        snprintf(out, n, "%.1f / %.1f", r->ns_median, lat != NULL ? lat->ns_median : -1.0);
    else
        snprintf(out, n, "%.2f (%.2f)", bench_gbps(r->size, r->ns_median),
                 bench_gbps(r->size, r->ns_best));
}

/* A paired ratio: "1.02x (0.99-1.05)", median (quartiles); inverted (the reference's
 * speed-up over the subject) when asked; "-" when there is none. */
static void paired_text(char *out, size_t n, const struct bench_paired *p, int invert,
                        const char *label)
{
    if (p->median <= 0) {
        snprintf(out, n, "-");
        return;
    }
    double m = p->median, lo = p->q1, hi = p->q3;
    if (invert)
        m = 1 / m, lo = 1 / p->q3, hi = 1 / p->q1;
    snprintf(out, n, "%.2fx (%.2f-%.2f)%s%.16s", m, lo, hi, label ? " " : "", label ? label : "");
}

/* Each subject's paired ratio to the fastest peer of the round, when there are peers. */
static void print_paired(FILE *f, const struct bench_run *run, const crcforge_model *m,
                         unsigned offset, const char *const *subjects, size_t ns,
                         const size_t *sizes, size_t nz)
{
    if (best_peer(run, m, offset, sizes[0]) == NULL)
        return;
    fprintf(f, "  speed relative to the fastest peer of each round (its time / this one's), "
               "median (quartiles) over the rounds\n");
    struct bench_table *t = bench_table_new(nz + 1, ns + 1);
    bench_table_column(t, 0, 8, 0);
    bench_table_set(t, 0, 0, "size");
    size_t col = 0;
    for (size_t s = 0; s < ns; s++) {
        const struct bench_result *first =
            find(run, m, offset, sizes[0], subjects[s], main_loop(run));
        if (first != NULL && first->is_baseline)
            continue;
        col++;
        bench_table_column(t, col, 15, 0);
        bench_table_set(t, 0, col, "%s", subjects[s]);
        for (size_t z = 0; z < nz; z++) {
            char text[64];
            const struct bench_result *r =
                find(run, m, offset, sizes[z], subjects[s], main_loop(run));
            const struct bench_paired none = {-1, -1, -1};
            paired_text(text, sizeof text, r && r->status == BENCH_OK ? &r->vs_peer : &none, 0,
                        NULL);
            bench_table_set(t, z + 1, col, "%s", text);
        }
    }
    for (size_t z = 0; z < nz; z++) {
        char text[64];
        size_label(text, sizeof text, run, sizes[z]);
        bench_table_set(t, z + 1, 0, "%s", text);
    }
    bench_table_print(f, t);
    bench_table_free(t);
    fputc('\n', f);
}

static void print_group(FILE *f, const struct bench_run *run, const crcforge_model *m,
                        unsigned offset)
{
    const char *subjects[MAX_GROUP];
    size_t sizes[MAX_GROUP];
    size_t ns, nz;
    DISTINCT(subjects, ns, MAX_GROUP, subject, r->model == m && r->offset == offset);
    DISTINCT(sizes, nz, MAX_GROUP, size, r->model == m && r->offset == offset);
    /* DISTINCT compared subject pointers: names are unique per model, which is enough. */
    char title[96];
    if (run->mixed)
        fprintf(f, "%s, a stream of mixed sizes (%s), %s loop: ", model_title(m, title, sizeof title),
                run->mixed, run->latency ? "latency" : "throughput");
    else
        fprintf(f, "%s, buffers %s%s: ", model_title(m, title, sizeof title),
                offset == 0 ? "64-byte aligned" : "offset by 1 from 64-byte alignment",
                run->latency ? ", latency loop (each call's address waits for the previous "
                               "result)"
                             : "");
    if (run->keys)
        fprintf(f, "ns per call, median of %u rounds, throughput loop / latency loop\n",
                run->cfg->repeat);
    else
        fprintf(f, "GB/s, median of %u rounds (best)\n", run->cfg->repeat);

    struct bench_table *t = bench_table_new(nz + 1, ns + 3);
    bench_table_column(t, 0, 8, 0);
    bench_table_set(t, 0, 0, "size");
    for (size_t s = 0; s < ns; s++) {
        bench_table_column(t, s + 1, 15, 0);
        bench_table_set(t, 0, s + 1, "%s", subjects[s]);
    }
    bench_table_column(t, ns + 1, 22, 0);
    bench_table_set(t, 0, ns + 1, "auto vs fastest peer");
    bench_table_set(t, 0, ns + 2, "auto vs portable");
    for (size_t z = 0; z < nz; z++) {
        char text[64];
        size_label(text, sizeof text, run, sizes[z]);
        bench_table_set(t, z + 1, 0, "%s", text);
        for (size_t s = 0; s < ns; s++) {
            const struct bench_result *r =
                find(run, m, offset, sizes[z], subjects[s], main_loop(run));
            const struct bench_result *lat = find(run, m, offset, sizes[z], subjects[s], 1);
            cell(text, sizeof text, run, r, lat);
            bench_table_set(t, z + 1, s + 1, "%s", text);
        }
        const struct bench_result *aut = find(run, m, offset, sizes[z], "auto", main_loop(run));
        const struct bench_result *peer = best_peer(run, m, offset, sizes[z]);
        char label[BENCH_NAME_MAX];
        snprintf(label, sizeof label, "%s", peer ? peer->subject : "");
        label[strcspn(label, " ")] = '\0'; /* the library's name */
        const struct bench_paired none = {-1, -1, -1};
        paired_text(text, sizeof text, aut && aut->status == BENCH_OK ? &aut->vs_peer : &none,
                    0, label);
        bench_table_set(t, z + 1, ns + 1, "%s", text);
        const struct bench_result *portable =
            find(run, m, offset, sizes[z], "portable", main_loop(run));
        paired_text(text, sizeof text,
                    portable && portable->status == BENCH_OK ? &portable->vs_auto : &none, 1,
                    NULL);
        bench_table_set(t, z + 1, ns + 2, "%s", text);
    }
    bench_table_print(f, t);
    bench_table_free(t);
    fputc('\n', f);
    print_paired(f, run, m, offset, subjects, ns, sizes, nz);
}

static void print_mismatches(FILE *f, const struct bench_run *run)
{
    for (size_t i = 0; i < run->count; i++) {
        const struct bench_result *r = &run->results[i];
        if (r->status == BENCH_MISMATCH)
            fprintf(f, "MISMATCH: %s on %s, %zu bytes at offset %u: got %llx, crcforge "
                       "(portable) says %llx; its timing is discarded\n",
                    r->subject, crcforge_model_name(r->model), r->size, r->offset,
                    (unsigned long long)r->got, (unsigned long long)r->want);
    }
}

void bench_print_table(FILE *f, const struct bench_run *run)
{
    fprintf(f, "CPU: %s\n", run->cpu);
    fprintf(f, "features: %s\n", crcforge_cpu_features());
    fprintf(f, "clock: %s\n", run->cfg->wall_clock
                                  ? "wall (CLOCK_MONOTONIC)"
                                  : "this thread's CPU time (CLOCK_THREAD_CPUTIME_ID)");
    fprintf(f, "cycles/byte: %s\n",
            run->cycles_note ? run->cycles_note : "core cycles from perf events (in CSV/JSON)");
    fprintf(f, "crcforge paths:");
    for (size_t i = 0; i < crcforge_impl_count(); i++)
        fprintf(f, " %s%s", crcforge_impl_name(i),
                crcforge_impl_runnable(crcforge_impl_name(i)) ? "" : " (not runnable here)");
    fprintf(f, "\n");
    fprintf(f, "tuning: family %s, table %s", crcforge_tuning_family(), crcforge_tuning_table());
    const char *tune = getenv("CRCFORGE_TUNE");
    if (tune != NULL && *tune != '\0')
        fprintf(f, ", CRCFORGE_TUNE=%s", tune);
    if (*crcforge_tuning_parameters() != '\0')
        fprintf(f, "\ntuning parameters: %s", crcforge_tuning_parameters());
    fprintf(f, "\n");
    const char *forced = getenv("CRCFORGE_IMPL");
    if (forced != NULL && *forced != '\0')
        fprintf(f, "note: CRCFORGE_IMPL=%s is set, so \"auto\" is that path, not the "
                   "dispatcher's choice\n", forced);
    fprintf(f, "peers:");
    for (size_t i = 0; i < bench_peer_library_count; i++) {
        const char *name = bench_peer_libraries[i].name;
        char kernels[64];
        bench_peer_kernels(name, kernels, sizeof kernels);
        if (bench_peer_libraries[i].built)
            fprintf(f, " %s %s%s%s%s", name, bench_peer_version(name), *kernels ? " (" : "",
                    kernels, *kernels ? ")" : "");
        else
            fprintf(f, " %s (not built)", name);
        fputs(i + 1 < bench_peer_library_count ? "," : "", f);
    }
    fprintf(f, "\n\n");

    const crcforge_model *models[MAX_GROUP];
    size_t nm;
    DISTINCT(models, nm, MAX_GROUP, model, 1);
    for (size_t i = 0; i < nm; i++) {
        unsigned offsets[MAX_GROUP];
        size_t no;
        DISTINCT(offsets, no, MAX_GROUP, offset, r->model == models[i]);
        for (size_t o = 0; o < no; o++)
            print_group(f, run, models[i], offsets[o]);
    }
    print_mismatches(f, run);
    for (size_t i = 0; i < bench_peer_library_count; i++)
        if (!bench_peer_libraries[i].built)
            fprintf(f, "not built: %s (%s)\n", bench_peer_libraries[i].name,
                    bench_peer_libraries[i].why_not);
}

void bench_print_csv(FILE *f, const struct bench_run *run)
{
    fprintf(f, "algorithm,implementation,kind,loop,size,offset,status,iterations,ns_best,"
               "ns_median,gbps_best,gbps_median,cycles_per_byte_best,rounds,"
               "vs_fastest_peer_median,vs_fastest_peer_q1,vs_fastest_peer_q3,vs_auto_median,"
               "vs_auto_q1,vs_auto_q3\n");
    for (size_t i = 0; i < run->count; i++) {
        const struct bench_result *r = &run->results[i];
        char offset[16] = ""; /* none: the mixed stream's offsets are random */
        if (!r->mixed)
            snprintf(offset, sizeof offset, "%u", r->offset);
        fprintf(f, "%s,%s,%s,%s,%zu,%s,%s,", crcforge_model_name(r->model), r->subject,
                bench_kind(r), r->latency ? "latency" : "throughput",
                r->size, offset, r->status == BENCH_OK ? "ok" : "mismatch");
        if (r->status != BENCH_OK) {
            fprintf(f, ",,,,,,,,,,,,\n");
            continue;
        }
        fprintf(f, "%llu,%.3f,%.3f,%.4f,%.4f,", (unsigned long long)r->iterations, r->ns_best,
                r->ns_median, bench_gbps(r->size, r->ns_best),
                bench_gbps(r->size, r->ns_median));
        if (r->cycles_best >= 0 && r->size > 0)
            fprintf(f, "%.4f", r->cycles_best / (double)r->size);
        fprintf(f, ",%u", r->rounds);
        const struct bench_paired *both[] = {&r->vs_peer, &r->vs_auto};
        for (size_t k = 0; k < 2; k++) {
            if (both[k]->median > 0)
                fprintf(f, ",%.4f,%.4f,%.4f", both[k]->median, both[k]->q1, both[k]->q3);
            else
                fprintf(f, ",,,");
        }
        fputc('\n', f);
    }
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* , "name": {"KEY": N, ...} of the library's "KEY=N,..." (keys and numbers only). */
static void json_parameters(FILE *f, const char *name, const char *text)
{
    fprintf(f, ", \"%s\": {", name);
    for (const char *s = text; *s != '\0';) {
        const size_t key = strcspn(s, "="), len = strcspn(s, ",");
        fprintf(f, "%s\"%.*s\": %.*s", s == text ? "" : ", ", (int)key, s,
                (int)(len - key - 1), s + key + 1);
        s += len + (s[len] == ',');
    }
    fprintf(f, "}");
}

void bench_print_json(FILE *f, const struct bench_run *run)
{
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(f, "{\n  \"tool\": \"crcforge bench\",\n  \"version\": \"%s\",\n  \"date\": \"%s\","
               "\n  \"cpu\": ",
            CRCFORGE_VERSION, date);
    json_string(f, run->cpu);
    fprintf(f, ",\n  \"features\": ");
    json_string(f, crcforge_cpu_features());
    struct bench_cpu_id id;
    bench_cpu_identify(&id);
    fprintf(f, ",\n  \"cpu_id\": {\"vendor\": ");
    json_string(f, id.vendor);
    fprintf(f, ", \"family\": %d, \"model\": %d, \"stepping\": %d}", id.family, id.model,
            id.stepping);
    fprintf(f, ",\n  \"tuning\": {\"family\": ");
    json_string(f, crcforge_tuning_family());
    fprintf(f, ", \"table\": ");
    json_string(f, crcforge_tuning_table());
    /* The parameters in use and the table's own, so that a table made from these figures
     * knows what they were timed under without the headers of the day. */
    json_parameters(f, "parameters", crcforge_tuning_parameters());
    json_parameters(f, "table_parameters", crcforge_tuning_table_parameters());
    fprintf(f, "}");
    /* The variables that change what is measured, as they were set. */
    static const char *const variables[] = {"CRCFORGE_TUNE", "CRCFORGE_IMPL", "CRCFORGE_CPU_MASK"};
    fprintf(f, ",\n  \"environment\": {");
    for (size_t i = 0, n = 0; i < sizeof variables / sizeof *variables; i++) {
        const char *v = getenv(variables[i]);
        if (v == NULL)
            continue;
        fprintf(f, "%s\"%s\": ", n++ ? ", " : "", variables[i]);
        json_string(f, v);
    }
    fprintf(f, "}");
    fprintf(f, ",\n  \"cycles\": ");
    if (run->cycles_note)
        json_string(f, run->cycles_note);
    else
        fprintf(f, "\"perf events PERF_COUNT_HW_CPU_CYCLES, user space\"");
    fprintf(f, ",\n  \"clock\": \"%s\"", run->cfg->wall_clock ? "wall" : "thread-cpu");
    fprintf(f, ",\n  \"mode\": \"%s\",\n  \"repeat\": %u,\n  \"min_sample_seconds\": %g,\n",
            run->keys ? "keys" : run->mixed ? "mixed" : run->latency ? "latency" : "throughput",
            run->cfg->repeat, run->cfg->min_sample_seconds);
    if (run->mixed) {
        fprintf(f, "  \"mixed\": ");
        json_string(f, run->mixed);
        fprintf(f, ",\n");
    }
    fprintf(f, "  \"peers\": [");
    for (size_t i = 0; i < bench_peer_library_count; i++) {
        const struct bench_peer_library *p = &bench_peer_libraries[i];
        fprintf(f, "%s\n    {\"library\": ", i ? "," : "");
        json_string(f, p->name);
        fprintf(f, ", \"built\": %s", p->built ? "true" : "false");
        if (p->built) {
            fprintf(f, ", \"version\": ");
            json_string(f, bench_peer_version(p->name));
        }
        char kernels[64];
        bench_peer_kernels(p->name, kernels, sizeof kernels);
        if (*kernels) {
            fprintf(f, ", \"kernels\": ");
            json_string(f, kernels);
        }
        if (!p->built) {
            fprintf(f, ", \"why_not\": ");
            json_string(f, p->why_not);
        }
        fputc('}', f);
    }
    fprintf(f, "\n  ],\n  \"models\": [");
    const crcforge_model *models[MAX_GROUP];
    size_t nm;
    DISTINCT(models, nm, MAX_GROUP, model, 1);
    for (size_t i = 0; i < nm; i++) {
        const crcforge_params *p = crcforge_model_params(models[i]);
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        json_string(f, crcforge_model_name(models[i]));
        fprintf(f, ", \"width\": %u, \"poly\": \"0x%llx\", \"init\": \"0x%llx\", "
                   "\"refin\": %s, \"refout\": %s, \"xorout\": \"0x%llx\"",
                p->width, (unsigned long long)p->poly, (unsigned long long)p->init,
                p->refin ? "true" : "false", p->refout ? "true" : "false",
                (unsigned long long)p->xorout);
        /* The paths the dispatcher runs it on, by length: a sweep's variant runs are judged
         * on the paths the table they ran under runs. */
        fprintf(f, ", \"chosen\": ");
        json_string(f, crcforge_impl_chosen(models[i]));
        fputc('}', f);
    }
    fprintf(f, "\n  ],\n  \"results\": [");
    for (size_t i = 0; i < run->count; i++) {
        const struct bench_result *r = &run->results[i];
        fprintf(f, "%s\n    {\"algorithm\": ", i ? "," : "");
        json_string(f, crcforge_model_name(r->model));
        fprintf(f, ", \"implementation\": ");
        json_string(f, r->subject);
        char offset[16] = "null"; /* the mixed stream's offsets are random */
        if (!r->mixed)
            snprintf(offset, sizeof offset, "%u", r->offset);
        fprintf(f, ", \"kind\": \"%s\", \"loop\": \"%s\", \"size\": %zu, \"offset\": %s, "
                   "\"status\": \"%s\"",
                bench_kind(r), r->latency ? "latency" : "throughput",
                r->size, offset, r->status == BENCH_OK ? "ok" : "mismatch");
        if (r->status != BENCH_OK) {
            fprintf(f, ", \"got\": \"%llx\", \"want\": \"%llx\"}", (unsigned long long)r->got,
                    (unsigned long long)r->want);
            continue;
        }
        fprintf(f, ", \"iterations\": %llu, \"ns_best\": %.3f, \"ns_median\": %.3f, "
                   "\"gbps_best\": %.4f, \"gbps_median\": %.4f, \"cycles_per_byte_best\": ",
                (unsigned long long)r->iterations, r->ns_best, r->ns_median,
                bench_gbps(r->size, r->ns_best), bench_gbps(r->size, r->ns_median));
        if (r->cycles_best >= 0 && r->size > 0)
            fprintf(f, "%.4f", r->cycles_best / (double)r->size);
        else
            fprintf(f, "null");
        fprintf(f, ", \"rounds_ns\": [");
        for (unsigned k = 0; k < r->rounds; k++)
            fprintf(f, "%s%.3f", k ? ", " : "", r->rounds_ns[k]);
        fprintf(f, "]");
        const struct bench_paired *both[] = {&r->vs_peer, &r->vs_auto};
        const char *const names[] = {"vs_fastest_peer", "vs_auto"};
        for (size_t k = 0; k < 2; k++) {
            fprintf(f, ", \"%s\": ", names[k]);
            if (both[k]->median > 0)
                fprintf(f, "{\"median\": %.4f, \"q1\": %.4f, \"q3\": %.4f}", both[k]->median,
                        both[k]->q1, both[k]->q3);
            else
                fprintf(f, "null");
        }
        fputc('}', f);
    }
    fprintf(f, "\n  ]\n}\n");
}

double bench_gbps(size_t size, double ns_per_call)
{
    return ns_per_call > 0 ? (double)size / ns_per_call : 0; /* bytes per ns = GB/s */
}
