/* The engine of the crcforge command-line tool: the commands, their option tables and all
 * they print, run for a host -- the `crcforge` program (main.c), or the Python extension
 * behind `python -m crcforge` (python/ext/cli.c), which adds what only Python can do
 * through the hooks below.  The contract is in docs/DESIGN.md. */
#ifndef CRCFORGE_CLI_H
#define CRCFORGE_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "crcforge_dispatch.h"
#include "options.h"

/* Exit codes of the contract. */
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
    /* An input the host reads itself (a URL): 0 when it is not one (the engine reads it),
     * 1 with the CRC of each part in crcs[0..*count) (at most max), -1 with *reason. */
    int (*remote)(void *ctx, const char *name, const struct hash_spec *spec, uint64_t *crcs,
                  unsigned long max, unsigned long *count, char **reason);
    /* verify: whether FILE holds what the object at URL stores. */
    void (*verify)(void *ctx, const char *file, const char *url, unsigned threads,
                   struct cli_verification *out);
};

struct cli_host {
    const char *program; /* in usage lines and hints: "crcforge", "python -m crcforge" */
    FILE *out, *err;     /* standard output and standard error of the commands */
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
FILE *cli_out(void);
FILE *cli_err(void);
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

/* ALGO: a catalogue name or alias, or the parameters "width=16,poly=0x1021,init=0,
 * refin=false,refout=false,xorout=0".  NULL after printing the reason; a model from
 * parameters is freed by cli_release_model. */
const crcforge_model *cli_model(const char *algo);
void cli_release_model(const crcforge_model *m);

/* The engine's commands, each with its option table and help (tools/cmd_*.c); verify is
 * a host command.  bench (cmd_bench.c) is the C tool's own, handed in as an extra. */
extern const struct cli_command cli_sum, cli_list, cli_cpu, cli_keyslot, cli_verify, cli_bench;

#endif /* CRCFORGE_CLI_H */
