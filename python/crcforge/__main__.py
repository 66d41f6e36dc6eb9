# SPDX-License-Identifier: MIT
"""python -m crcforge, and the `crcforge` command pip installs: the crcforge command-line
tool (contract: docs/DESIGN.md).

Everything local is the C tool's own code, compiled into the extension and run by
_crcforge.cli(): option parsing (getopt_long's rules, POSIXLY_CORRECT, the help), the
commands sum, list, cpu and keyslot, the hashing of files and standard input, every line
and message printed.  Only `bench` is left to the C program.

What only Python can do is Host's, called back by that engine:
- inputs that are URLs fsspec opens (s3://, gs://, memory://, ...), hashed by ranges by
  crcforge.objects on -j threads or, with --scheduler ADDRESS, on a running Dask cluster,
  each request within --timeout seconds and each URL within --deadline;
- `verify FILE URL`, which compares a file with what an S3 or GCS object stores.
The options only this tool has (--scheduler, --timeout, --deadline) are in the C option
tables, among the others, with keys from CLI_HOST_ONLY (tools/options.h): the engine
parses them by the same rules and hands each to Host.option; Host.start then acts on them,
once the command's options are all good.  A new Python-only option is one line in a C
table and a branch in Host.option.
"""
import os
import re
import signal
import sys
from concurrent.futures import ThreadPoolExecutor

from crcforge import _crcforge, objects


def reason_of(e, name):
    """What to say of an input that could not be read: an errno's text as the C tool says
    it, else what the filesystem or the SDK said (without the name, said before it)."""
    if isinstance(e, OSError) and e.strerror and e.errno is not None:
        return e.strerror
    text = str(e).strip()
    if text.startswith(name):
        text = text[len(name):].lstrip(" :")
    bare = text.strip("'\"")
    if isinstance(e, FileNotFoundError) and (not bare or name.endswith("/" + bare)):
        return "No such file or object"  # s3fs names only the key
    return text or type(e).__name__


def parse_seconds(option, text):
    """--timeout and --deadline: ASCII digits with maybe a fraction, then the range
    crcforge.objects takes for timeout= and deadline= (its own check, so that the two
    cannot differ)."""
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", text):
        raise ValueError(f"--{option}: '{text}' is not seconds as digits with an optional "
                         f"fraction (such as 1.5)")
    return objects._check_seconds(f"--{option}", float(text), f"'{text}'")


class Host:
    """What python -m crcforge adds to the C tool's engine (the hooks of tools/cli.h).
    Each method returns None for "nothing to say", or the message that fails the input or
    the command; the engine prints it."""

    program = "python -m crcforge"

    def __init__(self):
        self.address = None  # --scheduler
        self.client = None   # its Dask client, once connected
        self.executor = None
        self.timeout = None   # --timeout: of each request to S3 or GCS (None: the default)
        self.deadline = None  # --deadline: seconds for each URL of sum, for all of verify

    def option(self, command, name, value):
        """An option of this tool only, as the C parser read it."""
        if name == "scheduler":
            self.address = value
        elif name in ("timeout", "deadline"):
            try:
                setattr(self, name, parse_seconds(name, value))
            except ValueError as e:
                return str(e)
        return None

    def start(self, command):
        """The command's options are good: connect to the Dask scheduler, if one was named."""
        if self.address is None or self.client is not None:
            return None
        try:
            import distributed
        except ImportError:
            return "--scheduler needs Dask (pip install 'crcforge[dask]')"
        try:
            self.client = distributed.Client(self.address)  # Dask's connect timeout
        except Exception as e:
            return f"--scheduler {self.address}: {reason_of(e, self.address)}"
        self.executor = self.client.get_executor()
        return None

    def remote(self, name, algo, part_size, threads):
        """The CRC and the size of every part of a URL (one part when part_size is 0), each
        range read once and hashed by a task of its own (algo a list: each part's CRC a tuple,
        a value an algorithm); None for a local name, which the engine reads."""
        if not objects.is_url(name):
            return None
        limits = dict(timeout=self.timeout, deadline=self.deadline)  # each URL its own deadline
        try:
            if self.executor is None and threads > 1:
                with ThreadPoolExecutor(threads) as pool:
                    return objects.part_crcs(name, algo, part_size or None, executor=pool,
                                             **limits)
            return objects.part_crcs(name, algo, part_size or None, executor=self.executor,
                                     **limits)
        except Exception as e:  # an SDK's own errors too: reported, and the next input done
            return reason_of(e, name)

    def verify(self, path, url, threads):
        """objects.verify_upload's Verification, or (operand, reason) when path or url
        could not be read."""
        # One deadline for both calls.
        limits = dict(timeout=self.timeout, deadline=objects._deadline(self.deadline))
        try:
            stored = objects.stored_checksum(url, **limits)
        except Exception as e:  # the SDK's own errors too
            return url, reason_of(e, url)
        pool = ThreadPoolExecutor(threads) if self.executor is None and threads > 1 else None
        try:
            return objects.verify_upload(path, url, executor=self.executor or pool,
                                         stored=stored, **limits)
        except Exception as e:
            return path, reason_of(e, path)
        finally:
            if pool is not None:
                pool.shutdown()

    def close(self):
        if self.client is not None:
            self.client.close()


def main(argv, program=Host.program):
    """Runs the command line argv (without the program's name); the exit status.  program
    is the name usage lines and messages give the tool."""
    host = Host()
    host.program = program
    try:
        return _crcforge.cli(argv, host)
    finally:
        host.close()


def run_program(program):
    """Runs sys.argv as the program called so and exits as a C tool does: quietly when the
    reader of its output goes away, by SIGINT on Ctrl-C, with the command's exit status."""
    if hasattr(signal, "SIGPIPE"):  # a reader that goes away ends us quietly, as C tools
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        status = main(sys.argv[1:], program)
    except KeyboardInterrupt:  # Ctrl-C: end as the C tool does, by the signal
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
        raise
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError:  # reported by the engine; the interpreter would report it again at exit
        os._exit(status)
    sys.exit(status)


def console():
    """The `crcforge` command pip installs (pyproject.toml's [project.scripts]): this tool,
    under the C tool's name."""
    run_program("crcforge")


if __name__ == "__main__":
    run_program(Host.program)
