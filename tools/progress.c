/* SPDX-License-Identifier: MIT */
/* Progress lines on the run's error stream, written by a thread of their own so that the
 * readers only add to a counter. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "platform.h"
#include "progress.h"

#define FIRST_AFTER 1.0 /* seconds: shorter inputs show nothing */

struct progress {
    int tty;
    const char *erase; /* what clears the rest of the terminal's line, or NULL */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int quit;
    /* The input under way; guarded by lock, but for done. */
    const char *name;
    uint64_t size;
    _Atomic uint64_t done;
    double start, last_shown;
    int active, shown;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "512 B", "1.5 KiB", "3.0 GiB". */
static void format_bytes(char *out, size_t n, double bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    unsigned u = 0;
    while (bytes >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        bytes /= 1024;
        u++;
    }
    snprintf(out, n, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
}

/* "0:07", "1:02:03". */
static void format_duration(char *out, size_t n, double seconds)
{
    unsigned long s = seconds < 1e9 ? (unsigned long)(seconds + 0.5) : 999999999ul;
    if (s >= 3600)
        snprintf(out, n, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(out, n, "%lu:%02lu", s / 60, s % 60);
}

/* The columns of the terminal on stderr (80 if it does not say), so that a line never
 * wraps: "\r" could then rewrite its last row only. */
static size_t columns(void)
{
    unsigned n = platform_columns(cli_err_fd());
    return n > 0 ? n : 80;
}

/* Spaces over the rest of the terminal's line from column `at` (where the terminal has
 * no escape for it). */
static void blank_to_end(size_t at)
{
    for (size_t room = columns() - 1; at < room; at++)
        cli_putc(cli_err(), ' ');
}

/* "crcforge: NAME: " and what follows it, the name cut at its front when it is too long
 * for the terminal; erase: clear the rest of the terminal's line after it. */
static void print_line(const struct progress *p, const char *what, int erase, const char *end)
{
    const char *name = p->name;
    size_t room = columns() - 1, fixed = strlen("crcforge: : ") + strlen(what);
    int n;
    if (p->tty && fixed + strlen(name) > room) {
        size_t keep = room > fixed + 3 ? room - fixed - 3 : 0;
        n = cli_printf(cli_err(), "\rcrcforge: ...%s: %s", name + strlen(name) - keep, what);
    } else {
        n = cli_printf(cli_err(), "%scrcforge: %s: %s", p->tty ? "\r" : "", name, what);
    }
    if (erase && p->erase != NULL)
        cli_puts(cli_err(), p->erase);
    else if (erase)
        blank_to_end(n > 0 ? (size_t)n - 1 : 0);
    cli_puts(cli_err(), end);
    cli_flush(cli_err());
}

/* "1.2 GiB of 5.0 GiB (24%), 850.0 MiB/s, 0:05 left", or without a size "1.2 GiB,
 * 850.0 MiB/s". */
static void show(struct progress *p, double t)
{
    double done = (double)atomic_load_explicit(&p->done, memory_order_relaxed);
    double rate = done / (t - p->start);
    char bytes[32], total[32], speed[32], left[32] = "?", what[160];
    format_bytes(bytes, sizeof bytes, done);
    format_bytes(speed, sizeof speed, rate);
    if (p->size > 0) {
        format_bytes(total, sizeof total, (double)p->size);
        double remaining = (double)p->size > done ? (double)p->size - done : 0;
        if (rate > 0)
            format_duration(left, sizeof left, remaining / rate);
        snprintf(what, sizeof what, "%s of %s (%.0f%%), %s/s, %s left", bytes, total,
                 100 * done / (double)p->size, speed, left);
    } else {
        snprintf(what, sizeof what, "%s, %s/s", bytes, speed);
    }
    print_line(p, what, p->tty, p->tty ? "" : "\n");
    p->shown = 1;
    p->last_shown = t;
}

static void *progress_run(void *arg)
{
    struct progress *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->quit) {
        double t = now();
        /* A terminal's line is rewritten 4 times a second; a log gets a line a second. */
        double next = !p->active ? t + 3600
                      : !p->shown ? p->start + FIRST_AFTER
                                  : p->last_shown + (p->tty ? 0.25 : 1.0);
        if (p->active && t >= next) {
            show(p, t);
            continue;
        }
        struct timespec until;
        clock_gettime(PLATFORM_COND_CLOCK, &until);
        double wait = next - t;
        until.tv_sec += (time_t)wait;
        until.tv_nsec += (long)((wait - (double)(time_t)wait) * 1e9);
        if (until.tv_nsec >= 1000000000) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&p->wake, &p->lock, &until);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

struct progress *progress_open(enum progress_mode mode)
{
    if (mode == PROGRESS_OFF || (mode == PROGRESS_AUTO && !platform_is_terminal(cli_err_fd())))
        return NULL;
    struct progress *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL; /* progress is a courtesy: the values are computed without it */
    p->tty = platform_is_terminal(cli_err_fd());
    p->erase = p->tty ? platform_erase_to_end(cli_err_fd()) : NULL;
    platform_cond_init(&p->wake);
    pthread_mutex_init(&p->lock, NULL);
    if (pthread_create(&p->thread, NULL, progress_run, p) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
    return p;
}

void progress_begin(struct progress *p, const char *name, uint64_t size)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    p->name = name;
    p->size = size;
    atomic_store(&p->done, 0);
    p->start = now();
    p->active = 1;
    p->shown = 0;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
}

void progress_add(struct progress *p, uint64_t bytes)
{
    if (p != NULL)
        atomic_fetch_add_explicit(&p->done, bytes, memory_order_relaxed);
}

void progress_end(struct progress *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    if (p->shown && p->tty) {
        cli_putc(cli_err(), '\r');
        if (p->erase != NULL) {
            cli_puts(cli_err(), p->erase);
        } else {
            blank_to_end(0);
            cli_putc(cli_err(), '\r');
        }
        cli_flush(cli_err());
    } else if (p->shown) { /* a log keeps the total */
        double seconds = now() - p->start;
        char bytes[32], speed[32], what[128];
        double done = (double)atomic_load(&p->done);
        format_bytes(bytes, sizeof bytes, done);
        format_bytes(speed, sizeof speed, done / seconds);
        snprintf(what, sizeof what, "%s in %.1f s (%s/s)", bytes, seconds, speed);
        print_line(p, what, 0, "\n");
    }
    p->active = 0;
    pthread_mutex_unlock(&p->lock);
}

void progress_close(struct progress *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    p->quit = 1;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p);
}
