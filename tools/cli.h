/* SPDX-License-Identifier: MIT */
/* The engine of the crcforge command-line tool: the commands, their option tables and all
 * they print, run for a host -- the `crcforge` program (main.c), or the Python extension
 * behind `python -m crcforge` (python/ext/cli.c), which adds what only Python can do
 * through the hooks below.  The contract is in docs/DESIGN.md. */
#ifndef CRCFORGE_CLI_H
#define CRCFORGE_CLI_H

#include <stdint.h>

#include "crcforge_dispatch.h"
#include "options.h"
#include "stream.h"

/* python -m crcforge's --timeout, the same in `sum` and `verify` (the default and the
 * attempts are crcforge.objects' DEFAULT_TIMEOUT and REQUEST_ATTEMPTS). */
#define CLI_TIMEOUT_OPTION(key)                                                            \
    {"timeout", (key), required_argument, "SECONDS",                                      \
     "the connect and read timeout of each request to S3 or\n"                             \
     "GCS (default 20; each request tried 3 times)"}

/* Exit codes of the contract: sha256sum's 1 for a checksum that did not verify and for
 * an input of sum that gave no value; 2 for bad usage and what stops a command. */
enum { EXIT_OK = 0, EXIT_MISMATCH = 1, EXIT_TROUBLE = 2 };

struct hash_spec;

/* What `python -m crcforge verify FILE URL` found (the host fills it; the engine prints it
 * and frees the strings with free()). */
struct cli_verification {
    const char *failed;  /* NULL, or the operand (FILE or URL) that could not be read */
    char *reason;        /* why, when failed */
    int ok;
    char *algorithm;     /* S3's name: CRC32, CRC32C, CRC64NVME */
    char *checksum_type; /* FULL_OBJECT or COMPOSITE */
    char *stored, *computed;
    unsigned long parts; /* the part sizes used (COMPOSITE), 0 for FULL_OBJECT */
    uint64_t file_size, object_size;
};

/* What a host adds, each hook NULL where it adds nothing (the C tool has none).  Messages
 * a hook returns are malloc()ed and freed by the engine.  Hooks run on the run's own
 * thread only. */
struct cli_hooks {
    void *ctx;
    /* Nonzero once the run must stop (Ctrl-C): asked between reads, at most every few
     * milliseconds, and at once when a read or open was interrupted by a signal. */
    int (*interrupted)(void *ctx);
    /* The options and commands marked `host` in the tables exist only where this is set:
     * each host option as parsed, in order; NULL, or what is wrong with it. */
    char *(*option)(void *ctx, const char *command, const char *name, const char *value);
    /* Once the command's options are good, before its first input: NULL, or what stops
     * it (reported, exit status 2). */
    char *(*start)(void *ctx, const char *command);
    /* An input the host reads itself (a URL), hashed in one read with every algorithm of
     * spec: 0 when it is not one (the engine reads it), 1 with the CRC of part i under
     * algorithm a in crcs[i * spec->nalgos + a] (at most max parts, *count of them) and the
     * bytes read in *size, -1 with *reason. */
    int (*remote)(void *ctx, const char *name, const struct hash_spec *spec, uint64_t *crcs,
                  unsigned long max, unsigned long *count, uint64_t *size, char **reason);
    /* verify: whether FILE holds what the object at URL stores. */
    void (*verify)(void *ctx, const char *file, const char *url, unsigned threads,
                   struct cli_verification *out);
};

struct cli_host {
    const char *program; /* in usage lines and hints: "crcforge", "python -m crcforge" */
    struct cli_stream *out, *err; /* standard output and standard error of the commands */
    int in;              /* standard input's descriptor; -1: there is none (EBADF) */
    int err_fd;          /* the descriptor behind err, asked whether it is a terminal; or -1 */
    const struct cli_command *const *extra; /* commands beyond the engine's own (bench) */
    size_t nextra;
    const struct cli_hooks *hooks; /* NULL: none */
};

/* Runs the command line argv[1..argc) (argv[0] is not read) for host; the exit status.
 * One run at a time in a process: getopt and the run's state below are global. */
int cli_run(const struct cli_host *host, int argc, char **argv);

/* The run's host: where everything is written, standard input, the program's name, and
 * whether the host options and commands exist (cli_hooks.option). */
struct cli_stream *cli_out(void);
struct cli_stream *cli_err(void);
int cli_stdin(void);
int cli_err_fd(void);
const char *cli_program(void);
int cli_extended(void);
const struct cli_hooks *cli_hooks(void);

/* Prints "crcforge: " and the message to the error stream (nothing once stopped). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cli_error of a host's message, which is then freed; -1 if there was one, else 0. */
int cli_host_message(char *message);
/* The host's start hook, if it has one: 0, or -1 after its message. */
int cli_host_start(const char *command);

/* Whether the run must stop (Ctrl-C in python -m crcforge): asks the host now and then
 * (at_once: now, after EINTR) from the run's thread; from any thread, says whether it
 * was asked to.  Once stopped, nothing more is printed and every loop ends. */
int cli_interrupted(int at_once);
int cli_stopped(void);
/* Stops the run from a hook (the host has failed in a way no message tells). */
void cli_stop(void);

/* ALGO: a catalogue name or alias, the parameters "width=16,poly=0x1021,init=0,
 * refin=false,refout=false,xorout=0", or a catalogue line as `crcforge list` prints it
 * (name="CRC-32/ISCSI" width=32 ... check=0xe3069283 residue=0xb798b438 aliases="..."),
 * whose every key must be the model's.  NULL after printing the reason; a model from
 * parameters is freed by cli_release_model. */
const crcforge_model *cli_model(const char *algo);
void cli_release_model(const crcforge_model *m);

/* An algorithm of sum: a CRC model, or POSIX cksum's (posix-cksum): CRC-32/CKSUM of the
 * data followed by its length as the fewest little-endian bytes, the value `cksum`
 * prints. */
struct cli_algo {
    const crcforge_model *model; /* CRC-32/CKSUM for posix-cksum */
    int posix_cksum;
};

/* ALGO as -a takes it (cli_model's, or posix-cksum): 0, or -1 with the reason in
 * why[0..n) (cli_algorithm prints it).  Released with cli_algo_release. */
int cli_algo_parse(const char *text, struct cli_algo *out, char *why, size_t n);
int cli_algorithm(const char *text, struct cli_algo *out);
void cli_algo_release(struct cli_algo *a);
/* Whether two algorithms compute the same values (the same parameters). */
int cli_algo_equal(const struct cli_algo *a, const struct cli_algo *b);

/* Room for an algorithm's name, with its NUL. */
#define ALGO_NAME_SIZE 160
/* The name of a tagged line, which -a reads back: S3's CRC32C, CRC32 and CRC64NVME, the
 * catalogue name of another model, POSIX-CKSUM, or a custom model's six parameters. */
void cli_algo_name(const struct cli_algo *a, char *out);

/* The engine's commands, each with its option table and help (tools/cmd_*.c); verify is
 * a host command.  bench (cmd_bench.c) is the C tool's own, handed in as an extra. */
extern const struct cli_command cli_sum, cli_list, cli_cpu, cli_keyslot, cli_verify, cli_bench;

#endif /* CRCFORGE_CLI_H */
