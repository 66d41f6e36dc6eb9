/* SPDX-License-Identifier: MIT */
/*
 * pthread barriers for the threaded tests.  macOS has none (they are an optional part of
 * POSIX): there, a barrier of one mutex and one condition variable under the same names.
 */
#ifndef CRCFORGE_TEST_BARRIER_H
#define CRCFORGE_TEST_BARRIER_H

#include <pthread.h>

#if defined(__APPLE__)
#include <errno.h>

#define PTHREAD_BARRIER_SERIAL_THREAD (-1)
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t all_in;
    unsigned count, waiting, round; /* round: which filling the waiters wait out */
} pthread_barrier_t;
typedef void pthread_barrierattr_t;

static inline int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *attr,
                                       unsigned count)
{
    (void)attr;
    if (count == 0)
        return EINVAL;
    b->count = count;
    b->waiting = 0;
    b->round = 0;
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->all_in, NULL);
    return 0;
}

static inline int pthread_barrier_wait(pthread_barrier_t *b)
{
    pthread_mutex_lock(&b->lock);
    unsigned round = b->round;
    int last = ++b->waiting == b->count;
    if (last) {
        b->waiting = 0;
        b->round++;
        pthread_cond_broadcast(&b->all_in);
    } else {
        while (round == b->round)
            pthread_cond_wait(&b->all_in, &b->lock);
    }
    pthread_mutex_unlock(&b->lock);
    return last ? PTHREAD_BARRIER_SERIAL_THREAD : 0;
}

static inline int pthread_barrier_destroy(pthread_barrier_t *b)
{
    pthread_cond_destroy(&b->all_in);
    pthread_mutex_destroy(&b->lock);
    return 0;
}
#endif

#endif /* CRCFORGE_TEST_BARRIER_H */
