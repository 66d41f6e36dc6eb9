"""python -m crcforge: the crcforge command-line tool (contract: docs/DESIGN.md).

Everything local is the C tool's own code, compiled into the extension and run by
_crcforge.cli(): option parsing (getopt_long's rules, POSIXLY_CORRECT, the help), the
commands sum, list, cpu and keyslot, the hashing of files and standard input, every line
and message printed.  Only `bench` is left to the C program.

What only Python can do is Host's, called back by that engine:
- inputs that are URLs fsspec opens (s3://, gs://, memory://, ...), hashed by ranges by
  crcforge.objects on -j threads or, with --scheduler ADDRESS, on a running Dask cluster;
- `verify FILE URL`, which compares a file with what an S3 object stores.
The options only this tool has (--scheduler) are in the C option tables, among the
others, with keys from CLI_HOST_ONLY (tools/options.h): the engine parses them by the
same rules and hands each to Host.option; Host.start then acts on them, once the
command's options are all good.  A new Python-only option is one line in a C table and a
branch in Host.option.
"""
import os
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


class Host:
    """What python -m crcforge adds to the C tool's engine (the hooks of tools/cli.h).
    Each method returns None for "nothing to say", or the message that fails the input or
    the command; the engine prints it."""

    program = "python -m crcforge"

    def __init__(self):
        self.address = None  # --scheduler
        self.client = None   # its Dask client, once connected
        self.executor = None

    def option(self, command, name, value):
        """An option of this tool only, as the C parser read it."""
        if name == "scheduler":
            self.address = value
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
        """The CRC of every part of a URL (one part when part_size is 0), each range read
        and hashed by a task of its own; None for a local name, which the engine reads."""
        if not objects.is_url(name):
            return None
        try:
            if self.executor is None and threads > 1:
                with ThreadPoolExecutor(threads) as pool:
                    return objects.part_crcs(name, algo, part_size or None, executor=pool)[0]
            return objects.part_crcs(name, algo, part_size or None, executor=self.executor)[0]
        except Exception as e:  # an SDK's own errors too: reported, and the next input done
            return reason_of(e, name)

    def verify(self, path, url, threads):
        """objects.verify_upload's Verification, or (operand, reason) when path or url
        could not be read."""
        try:
            stored = objects.stored_checksum(url)
        except Exception as e:  # the SDK's own errors too
            return url, reason_of(e, url)
        pool = ThreadPoolExecutor(threads) if self.executor is None and threads > 1 else None
        try:
            return objects.verify_upload(path, url, executor=self.executor or pool,
                                         stored=stored)
        except Exception as e:
            return path, reason_of(e, path)
        finally:
            if pool is not None:
                pool.shutdown()

    def close(self):
        if self.client is not None:
            self.client.close()


def main(argv):
    """Runs the command line argv (without the program's name); the exit status."""
    host = Host()
    try:
        return _crcforge.cli(argv, host)
    finally:
        host.close()


if __name__ == "__main__":
    if hasattr(signal, "SIGPIPE"):  # a reader that goes away ends us quietly, as C tools
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        status = main(sys.argv[1:])
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
