/* SPDX-License-Identifier: MIT */
/*
 * First use from many threads at once: tables, combine powers and the dispatch choice
 * are built lazily and published with compare-and-swap; every thread must still get the
 * reference value (run under the sanitizer stage too).
 */
#include <pthread.h>
#include <string.h>

#include "barrier.h"
#include "check.h"
#include "internal.h"

#define THREADS 8

static crcforge_model *shared_model;
static uint8_t data[5000];
static uint64_t results[THREADS][2];
static uint64_t crc_head, crc_tail; /* reference CRCs of data[0..100) and data[100..) */
static pthread_barrier_t start;

static void *worker(void *arg)
{
    size_t id = (size_t)arg;
    pthread_barrier_wait(&start);
    results[id][0] = crcforge_checksum(shared_model, data, sizeof data);
    results[id][1] = crcforge_combine(shared_model, crc_head, crc_tail, sizeof data - 100);
    return NULL;
}

int main(void)
{
    check_begin("test_threads");
    rnd_fill(data, sizeof data);
    for (int round = 0; round < 50; round++) {
        crcforge_params p = {1 + (unsigned)rnd_below(64), 0, 0, (int)rnd_below(2),
                             (int)rnd_below(2), 0};
        uint64_t mask = crc_width_mask(p.width);
        p.poly = (rnd64() & mask) | 1;
        p.init = rnd64() & mask;
        p.xorout = rnd64() & mask;
        shared_model = crcforge_model_new(&p, NULL);
        crc_head = crc_reference(&p, data, 100);
        crc_tail = crc_reference(&p, data + 100, sizeof data - 100);
        pthread_barrier_init(&start, NULL, THREADS);
        pthread_t tids[THREADS];
        for (size_t i = 0; i < THREADS; i++)
            pthread_create(&tids[i], NULL, worker, (void *)i);
        for (size_t i = 0; i < THREADS; i++)
            pthread_join(tids[i], NULL);
        pthread_barrier_destroy(&start);
        uint64_t want = crc_reference(&p, data, sizeof data);
        for (size_t i = 0; i < THREADS; i++) {
            CHECK(results[i][0] == want, "round %d thread %zu: checksum", round, i);
            CHECK(results[i][1] == want, "round %d thread %zu: combine", round, i);
        }
        crcforge_model_free(shared_model);
    }
    return check_end();
}
