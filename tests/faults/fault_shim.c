/* SPDX-License-Identifier: MIT */
/* Fault injection for the CLI tests: an LD_PRELOAD library that wraps read, readv, pread
 * and pread64 (what `crcforge` and Python's os and io modules call) and, for one file,
 * makes them fail, come up short, be interrupted, or change the file under the reader.
 *
 *   CRCFORGE_FAULT_FILE=PATH  the file whose reads are faulted (matched by device and
 *                             inode, so any name or descriptor of it counts)
 *   CRCFORGE_FAULT_FD=N       or: whatever descriptor N is (a pipe on standard input)
 *   CRCFORGE_FAULT=LIST       comma-separated, any of:
 *     eio@N      reading byte N fails with EIO (a read that starts before N stops at N;
 *                one after N succeeds, as past a bad sector)
 *     eof@N      the file seems to end at byte N (reads from N give 0)
 *     short      each read returns between 1 and the bytes asked for, drawn at random
 *     eintr      every other read fails with EINTR before reading anything
 *     shrink@N   when a read first reaches byte N, the file is cut to N bytes
 *     grow@N     ... 4096 bytes are appended to it
 *     modify@N   ... its first byte is flipped and its mtime moved 1 s on (same size)
 *     rate=N     reads are slowed to N bytes a second (each sleeps for what it asks)
 *   CRCFORGE_FAULT_LOG=PATH   each faulted read appends a line "CALL OFFSET COUNT" here,
 *                             so that a test can show the faults were reached
 * The offset of read and readv is the descriptor's position, or for a pipe the bytes read
 * from it so far. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define NO_OFFSET UINT64_MAX
#define MAX_FDS 4096

static struct {
    ssize_t (*read)(int, void *, size_t);
    ssize_t (*readv)(int, const struct iovec *, int);
    ssize_t (*pread)(int, void *, size_t, off_t);
    ssize_t (*pread64)(int, void *, size_t, off_t);
    const char *path, *log;
    int has_file, fd;
    dev_t dev;
    ino_t ino;
    uint64_t eio_at, eof_at, shrink_at, grow_at, modify_at;
    int is_short, eintr;
    double rate;
} cfg;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_uint calls;
static atomic_int shrunk, grown, modified;
static _Atomic uint64_t stream_pos[MAX_FDS]; /* bytes read from a pipe, per descriptor */

static uint64_t offset_arg(const char *item, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(item, name, n) != 0 || item[n] != '@')
        return NO_OFFSET;
    return strtoull(item + n + 1, NULL, 10);
}

static void setup(void)
{
    cfg.read = dlsym(RTLD_NEXT, "read");
    cfg.readv = dlsym(RTLD_NEXT, "readv");
    cfg.pread = dlsym(RTLD_NEXT, "pread");
    cfg.pread64 = dlsym(RTLD_NEXT, "pread64");
    cfg.eio_at = cfg.eof_at = cfg.shrink_at = cfg.grow_at = cfg.modify_at = NO_OFFSET;
    cfg.fd = -1;
    cfg.path = getenv("CRCFORGE_FAULT_FILE");
    cfg.log = getenv("CRCFORGE_FAULT_LOG");
    struct stat sb;
    if (cfg.path != NULL && stat(cfg.path, &sb) == 0) {
        cfg.has_file = 1;
        cfg.dev = sb.st_dev;
        cfg.ino = sb.st_ino;
    }
    if (getenv("CRCFORGE_FAULT_FD") != NULL)
        cfg.fd = atoi(getenv("CRCFORGE_FAULT_FD"));
    const char *list = getenv("CRCFORGE_FAULT");
    char *copy = strdup(list != NULL ? list : "");
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item != NULL;
         item = strtok_r(NULL, ",", &save)) {
        uint64_t at;
        if ((at = offset_arg(item, "eio")) != NO_OFFSET)
            cfg.eio_at = at;
        else if ((at = offset_arg(item, "eof")) != NO_OFFSET)
            cfg.eof_at = at;
        else if ((at = offset_arg(item, "shrink")) != NO_OFFSET)
            cfg.shrink_at = at;
        else if ((at = offset_arg(item, "grow")) != NO_OFFSET)
            cfg.grow_at = at;
        else if ((at = offset_arg(item, "modify")) != NO_OFFSET)
            cfg.modify_at = at;
        else if (strcmp(item, "short") == 0)
            cfg.is_short = 1;
        else if (strcmp(item, "eintr") == 0)
            cfg.eintr = 1;
        else if (strncmp(item, "rate=", 5) == 0)
            cfg.rate = atof(item + 5);
        else {
            fprintf(stderr, "fault_shim: unknown fault '%s'\n", item);
            abort();
        }
    }
    free(copy);
}

static int faulted(int fd)
{
    pthread_once(&once, setup);
    if (fd == cfg.fd)
        return 1;
    struct stat sb;
    return cfg.has_file && fstat(fd, &sb) == 0 && sb.st_dev == cfg.dev && sb.st_ino == cfg.ino;
}

static void log_call(const char *call, uint64_t off, size_t count)
{
    if (cfg.log == NULL)
        return;
    char line[96];
    int n = snprintf(line, sizeof line, "%s %llu %zu\n", call, (unsigned long long)off, count);
    int fd = open(cfg.log, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd >= 0) {
        if (write(fd, line, (size_t)n) < 0) { /* nothing to be done in a test shim */
        }
        close(fd);
    }
}

/* The changes made to the file under the reader, once each, when a read reaches them. */
static void change_file(uint64_t off, size_t count)
{
    uint64_t end = off + count;
    if (cfg.shrink_at != NO_OFFSET && end > cfg.shrink_at && !atomic_exchange(&shrunk, 1) &&
        truncate(cfg.path, (off_t)cfg.shrink_at) != 0)
        abort();
    if (cfg.grow_at != NO_OFFSET && end > cfg.grow_at && !atomic_exchange(&grown, 1)) {
        static const char more[4096];
        int fd = open(cfg.path, O_WRONLY | O_APPEND);
        if (fd < 0 || write(fd, more, sizeof more) != (ssize_t)sizeof more)
            abort();
        close(fd);
    }
    if (cfg.modify_at != NO_OFFSET && end > cfg.modify_at && !atomic_exchange(&modified, 1)) {
        int fd = open(cfg.path, O_RDWR);
        unsigned char first;
        struct stat sb;
        if (fd < 0 || cfg.pread(fd, &first, 1, 0) != 1 || fstat(fd, &sb) != 0)
            abort();
        first ^= 0xff;
        struct timespec times[2] = {sb.st_atim, sb.st_mtim};
        times[1].tv_sec += 1; /* moved whatever the clock's granularity */
        if (pwrite(fd, &first, 1, 0) != 1 || futimens(fd, times) != 0)
            abort();
        close(fd);
    }
}

/* How much of a read of count bytes at off may be done, or -1 with errno for a fault
 * now; 0 for the end the file seems to have. */
static ssize_t allowed(const char *call, uint64_t off, size_t count)
{
    log_call(call, off, count);
    if (cfg.rate > 0) {
        double seconds = (double)count / cfg.rate;
        struct timespec pause = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
        nanosleep(&pause, NULL);
    }
    unsigned n = atomic_fetch_add(&calls, 1);
    if (cfg.eintr && n % 2 == 0) {
        errno = EINTR;
        return -1;
    }
    if (off != NO_OFFSET) {
        change_file(off, count);
        if (cfg.eof_at != NO_OFFSET && off + count > cfg.eof_at)
            count = off >= cfg.eof_at ? 0 : (size_t)(cfg.eof_at - off);
        if (cfg.eio_at != NO_OFFSET && off <= cfg.eio_at && off + count > cfg.eio_at) {
            if (off == cfg.eio_at) {
                errno = EIO;
                return -1;
            }
            count = (size_t)(cfg.eio_at - off);
        }
    }
    if (cfg.is_short && count > 1)
        count = 1 + (size_t)((n * 2654435761u) % count);
    return (ssize_t)count;
}

/* Where a read or readv of fd starts: its position, or the bytes read from a pipe. */
static uint64_t position(int fd)
{
    off_t pos = lseek(fd, 0, SEEK_CUR);
    if (pos >= 0)
        return (uint64_t)pos;
    return fd >= 0 && fd < MAX_FDS ? atomic_load(&stream_pos[fd]) : NO_OFFSET;
}

static ssize_t counted(int fd, ssize_t got)
{
    if (got > 0 && fd >= 0 && fd < MAX_FDS && lseek(fd, 0, SEEK_CUR) < 0)
        atomic_fetch_add(&stream_pos[fd], (uint64_t)got);
    return got;
}

ssize_t read(int fd, void *buf, size_t count)
{
    if (!faulted(fd))
        return cfg.read(fd, buf, count);
    ssize_t ok = allowed("read", position(fd), count);
    return ok <= 0 ? ok : counted(fd, cfg.read(fd, buf, (size_t)ok));
}

ssize_t readv(int fd, const struct iovec *iov, int iovcnt)
{
    if (!faulted(fd) || iovcnt < 1)
        return cfg.readv(fd, iov, iovcnt);
    /* Into the first buffer only: a short read, as readv may give. */
    ssize_t ok = allowed("readv", position(fd), iov[0].iov_len);
    return ok <= 0 ? ok : counted(fd, cfg.read(fd, iov[0].iov_base, (size_t)ok));
}

ssize_t pread(int fd, void *buf, size_t count, off_t off)
{
    if (!faulted(fd))
        return cfg.pread(fd, buf, count, off);
    ssize_t ok = allowed("pread", (uint64_t)off, count);
    return ok <= 0 ? ok : cfg.pread(fd, buf, (size_t)ok, off);
}

ssize_t pread64(int fd, void *buf, size_t count, off_t off)
{
    if (!faulted(fd))
        return cfg.pread64(fd, buf, count, off);
    ssize_t ok = allowed("pread64", (uint64_t)off, count);
    return ok <= 0 ? ok : cfg.pread64(fd, buf, (size_t)ok, off);
}
