/* Shared pieces of the crcforge command-line tool. */
#ifndef CRCFORGE_CLI_H
#define CRCFORGE_CLI_H

#include "crcforge.h"
#include "numbers.h"
#include "options.h"

/* Exit codes of the contract (shared/DESIGN.md). */
enum { EXIT_OK = 0, EXIT_MISMATCH = 1, EXIT_TROUBLE = 2 };

/* Prints "crcforge: " and the message to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ALGO: a catalogue name or alias, or the parameters "width=16,poly=0x1021,init=0,
 * refin=false,refout=false,xorout=0".  NULL after printing the reason; a model from
 * parameters is freed by cli_release_model. */
const crcforge_model *cli_model(const char *algo);
void cli_release_model(const crcforge_model *m);

/* The commands, each with its option table and help (tools/cmd_*.c). */
extern const struct cli_command cli_sum, cli_list, cli_cpu, cli_keyslot, cli_bench;

#endif /* CRCFORGE_CLI_H */
