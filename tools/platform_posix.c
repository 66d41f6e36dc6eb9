/* SPDX-License-Identifier: MIT */
/* tools/platform.h on POSIX systems: the system calls as they are. */
#ifndef _WIN32

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "platform.h"

int platform_start(int *argc, char ***argv)
{
    (void)argc;
    (void)argv; /* names are bytes: passed on as they are */
    return 0;
}

int platform_cond_init(pthread_cond_t *cond)
{
#ifdef __APPLE__
    return pthread_cond_init(cond, NULL);
#else
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, PLATFORM_COND_CLOCK);
    int rc = pthread_cond_init(cond, &attr);
    pthread_condattr_destroy(&attr);
    return rc;
#endif
}

int platform_open(const char *name)
{
    return open(name, O_RDONLY);
}

int platform_close(int fd)
{
    return close(fd);
}

ssize_t platform_read(int fd, void *buf, size_t len)
{
    return read(fd, buf, len);
}

ssize_t platform_pread(int fd, void *buf, size_t len, uint64_t offset)
{
    if (offset > (uint64_t)INT64_MAX) {
        errno = EINVAL;
        return -1;
    }
    return pread(fd, buf, len, (off_t)offset);
}

int platform_stat(int fd, struct platform_stat *out)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return -1;
    out->kind = S_ISREG(st.st_mode)   ? PLATFORM_REGULAR
                : S_ISDIR(st.st_mode) ? PLATFORM_DIRECTORY
                                      : PLATFORM_OTHER;
    out->size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
#ifdef __APPLE__
    out->mtime_sec = st.st_mtimespec.tv_sec;
    out->mtime_nsec = st.st_mtimespec.tv_nsec;
#else
    out->mtime_sec = st.st_mtim.tv_sec;
    out->mtime_nsec = st.st_mtim.tv_nsec;
#endif
    return 0;
}

int64_t platform_position(int fd)
{
    return lseek(fd, 0, SEEK_CUR);
}

int platform_is_terminal(int fd)
{
    return fd >= 0 && isatty(fd);
}

unsigned platform_columns(int fd)
{
    struct winsize ws;
    return fd >= 0 && ioctl(fd, TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
}

const char *platform_erase_to_end(int fd)
{
    (void)fd;
    return "\033[K";
}

const char *platform_error_text(int err)
{
    return strerror(err);
}

/* From /proc/self/exe (Linux). */
int platform_program_dir(char *out, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", out, cap - 1);
    if (n < 0)
        return -1;
    if ((size_t)n >= cap - 1) {
        errno = ENAMETOOLONG;
        return -1;
    }
    out[n] = '\0';
    char *slash = strrchr(out, '/');
    if (slash == NULL) {
        errno = ENOENT;
        return -1;
    }
    *slash = '\0';
    return 0;
}

int platform_run_instead(const char *path, char **argv)
{
    execv(path, argv);
    return -1;
}

int platform_is_program(const char *path)
{
    return access(path, X_OK) == 0;
}

#endif /* !_WIN32 */
