/* SPDX-License-Identifier: MIT */
/* What the tool does differently on POSIX systems (tools/platform_posix.c) and on Windows
 * (tools/platform_windows.c): files opened by their UTF-8 names and read at 64-bit
 * offsets, the kind, size and time of an open file, the terminal, the texts of errors, and
 * the program beside the tool.  Everything else in tools/ is the same code on both.
 *
 * Descriptors are the C runtime's (int); sizes and offsets are 64-bit everywhere (off_t is
 * 32-bit on Windows).  Errors are errno values, with the few below beyond them, and every
 * one has a text (platform_error_text). */
#ifndef CRCFORGE_PLATFORM_H
#define CRCFORGE_PLATFORM_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/* Errors beyond errno's (Windows only; POSIX has none of them). */
enum {
    PLATFORM_ELOCKED = 0x7ff00001,  /* held by another process that shares no reading */
    PLATFORM_EBADNAME = 0x7ff00002, /* the name is not UTF-8, so names no Windows file */
    PLATFORM_ESYSTEM = 0x7ff10000,  /* + a Windows error code no errno value says */
};

/* The clock the timed waits of a platform_cond_init condition variable go by: the
 * monotonic one where a condition variable can be given it; the wall clock on macOS (no
 * pthread_condattr_setclock) and Windows (winpthreads takes the attribute but measures
 * every deadline against the system time). */
#if defined(_WIN32) || defined(__APPLE__)
#define PLATFORM_COND_CLOCK CLOCK_REALTIME
#else
#define PLATFORM_COND_CLOCK CLOCK_MONOTONIC
#endif

/* pthread_cond_init, its timed waits going by PLATFORM_COND_CLOCK: 0, or an error. */
int platform_cond_init(pthread_cond_t *cond);

/* The start of the program: standard streams in binary mode, the console writing UTF-8
 * (restored at exit), and *argc, *argv the command line in UTF-8 (on Windows its own
 * UTF-16 one converted; elsewhere they stay as they are).  0, or -1 after saying why. */
int platform_start(int *argc, char ***argv);

/* open(2) for reading: the descriptor, or -1 with errno.  On Windows the name is UTF-8,
 * any length (a long one is given the \\?\ prefix), read in binary mode; a directory
 * opens (platform_stat then says so). */
int platform_open(const char *name);
int platform_close(int fd);
/* read(2), and a read at an offset that moves no file position shared with another
 * thread's reads (pread(2)): the bytes read, 0 at the end, -1 with errno. */
ssize_t platform_read(int fd, void *buf, size_t len);
ssize_t platform_pread(int fd, void *buf, size_t len, uint64_t offset);

enum platform_kind { PLATFORM_REGULAR, PLATFORM_DIRECTORY, PLATFORM_OTHER };

struct platform_stat {
    enum platform_kind kind;
    uint64_t size;      /* of a regular file */
    int64_t mtime_sec;  /* the last modification, as finely as the system keeps it */
    long mtime_nsec;
};

/* fstat(2): 0, or -1 with errno. */
int platform_stat(int fd, struct platform_stat *out);
/* Where a regular file's descriptor stands (lseek(fd, 0, SEEK_CUR)); -1 when unknown. */
int64_t platform_position(int fd);

/* Whether fd is a terminal (a console, on Windows), and its width in columns (0 when it
 * does not say). */
int platform_is_terminal(int fd);
unsigned platform_columns(int fd);
/* The escape that clears a terminal's line from the cursor on (ANSI's "\033[K"), or NULL
 * where the terminal has none: the line is then overwritten with spaces. */
const char *platform_erase_to_end(int fd);

/* strerror, and the errors above. */
const char *platform_error_text(int err);

/* The directory of the running program: 0, or -1 with errno. */
int platform_program_dir(char *out, size_t cap);
/* The program called path with argv (argv[0] its name), in place of this one: on POSIX
 * it replaces the process; on Windows its exit status is this one's.  Returns only
 * when it could not be run (-1 with errno), or with the status on Windows. */
int platform_run_instead(const char *path, char **argv);
/* The file name of a program beside the tool: "crcforge-bench", or "crcforge-bench.exe". */
#ifdef _WIN32
#define PLATFORM_EXE_SUFFIX ".exe"
#else
#define PLATFORM_EXE_SUFFIX ""
#endif
/* Whether path is a program that can be run. */
int platform_is_program(const char *path);

#endif /* CRCFORGE_PLATFORM_H */
