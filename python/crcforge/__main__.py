"""python -m crcforge sum: the `crcforge sum` command of the C tool, for Python-only users.

Same contract (shared/DESIGN.md): one "HEX  NAME" line per input ("-" is stdin), -a ALGO,
--format hex|base64, -c LISTFILE to verify, -j N threads for large files; exit status 0
good, 1 a checksum did not verify, 2 bad usage or an unreadable input, reported after
the other inputs were processed.  Files are read in fixed-size blocks (bounded memory).

Beyond the C tool: inputs may be URLs that fsspec opens (s3://, gs://, memory://, ...),
hashed by ranges (crcforge.objects) on -j N threads or, with --scheduler ADDRESS, on a
running Dask cluster; `verify FILE URL` compares a file with what an S3 object stores.
"""
import base64
import errno
import os
import re
import signal
import stat
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple, Optional

import crcforge
from crcforge import objects

READ_BUFFER = 256 * 1024  # memory stays bounded whatever the input size
WRITE_BUFFER = 64 * 1024
PARALLEL_MIN = 8 << 20    # below this, threads cost more than they save
MAX_THREADS = 64
EXIT_OK, EXIT_MISMATCH, EXIT_TROUBLE = 0, 1, 2
PARAM_KEYS = crcforge.Params._fields  # width, poly, init, refin, refout, xorout

class Trouble(Exception):
    """An error to report as "crcforge: MESSAGE" (exit status 2)."""


def to_stderr(text):
    """Writes to standard error as the C tool does: file names as their own bytes (os.fsencode
    gives back those that are not UTF-8), and a failure to write ignored."""
    if sys.stderr is None:  # started with standard error closed
        return
    try:
        sys.stderr.flush()
        fd = sys.stderr.fileno()
    except (OSError, ValueError):  # not a file (replaced, closed): as text, then
        fd = None
    try:
        if fd is None:
            sys.stderr.write(text)
        else:
            os.write(fd, os.fsencode(text))
    except (OSError, ValueError):
        pass


def error(message):
    to_stderr(f"crcforge: {message}\n")


def bad_fd():
    return OSError(errno.EBADF, os.strerror(errno.EBADF))


class Option(NamedTuple):
    """One option of a command: the table that both the parser and the help read."""
    name: str             # long name, without "--"
    short: Optional[str]  # its letter, or None
    value: Optional[str]  # the value's name in the help ("ALGO"), None for a flag
    help: str             # what it does; "\n" starts another line of it


HELP_OPTION = Option("help", "h", None, "show this help and exit")


def read_options(command, options, args, in_order=False):
    """args read as the C tool's getopt_long reads them: "--name=value", "--name value",
    unique prefixes of long names, "-j2", bundled letters ("-cj2"), "--" ending the
    options; options anywhere among the operands unless POSIXLY_CORRECT is set (then
    they end at the first operand), or with in_order the first operand and all after it
    are operands.  Returns ([(Option, value or None), ...], [operand, ...]); raises
    Trouble naming the mistake."""
    def trouble(message):
        return option_trouble(command, message)

    found, operands = [], []
    stop_at_operand = in_order or "POSIXLY_CORRECT" in os.environ
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            break
        if not arg.startswith("-") or arg == "-":
            if stop_at_operand:
                i -= 1
                break
            operands.append(arg)
        elif arg.startswith("--"):
            typed, eq, value = arg.partition("=")
            option = long_option(command, options, typed)
            if option.value is None and eq:
                raise trouble(f"option '--{option.name}' takes no value ('{arg}')")
            if option.value is not None and not eq:
                if i == len(args):
                    raise trouble(f"option '{typed}' needs a value")
                value, i = args[i], i + 1
            found.append((option, value if option.value is not None else None))
        else:
            for k, letter in enumerate(arg[1:], 2):
                option = next((o for o in options if o.short == letter), None)
                if option is None:
                    raise trouble(f"unknown option '-{letter}' (see {see_help(command)})")
                if option.value is None:
                    found.append((option, None))
                    continue
                if k < len(arg):
                    found.append((option, arg[k:]))
                elif i < len(args):
                    found.append((option, args[i]))
                    i += 1
                else:
                    raise trouble(f"option '-{letter}' needs a value")
                break
    return found, operands + args[i:]


def long_option(command, options, typed):
    """The option a "--name" names: its own name, or the one name it begins."""
    name = typed[2:]
    exact = [o for o in options if o.name == name]
    begun = exact or [o for o in options if o.name.startswith(name)]
    if len(begun) == 1:
        return begun[0]
    if begun:
        raise option_trouble(command, f"option '{typed}' is ambiguous (it begins: "
                             + " ".join(f"--{o.name}" for o in begun) + ")")
    raise option_trouble(command, f"unknown option '{typed}' (see {see_help(command)})")


def option_trouble(command, message):
    """Trouble naming the command ("sum: ..."), or none before a command."""
    return Trouble(f"{command}: {message}" if command else message)


def see_help(command):
    return " ".join(["python -m crcforge", *([command] if command else []), "--help"])


def help_text(synopsis, about, options, notes=""):
    """A command's help, laid out as the C tool lays out its own."""
    lines = [("usage: " if k == 0 else "       ") + f"python -m crcforge {line}"
             for k, line in enumerate(synopsis)]
    lines += [about, "", "options:"]
    for o in options:
        left = f"  -{o.short}, --{o.name}" if o.short else f"      --{o.name}"
        if o.value is not None:
            left += f"={o.value}"
        text = o.help.split("\n")
        if len(left) >= 25:
            lines.append(left)
            left = ""
        lines.append(f"{left:<26}{text[0]}")
        lines += [" " * 26 + t for t in text[1:]]
    return "\n".join(lines) + "\n" + (f"\n{notes}" if notes else "")


class Output:
    """Standard output as the C tool's stdio has it: buffered, and a failure to write is
    reported once, at the end ("crcforge: standard output: REASON", exit status 2), after
    the other inputs were processed.  Written to the file descriptor directly, so that
    no unwritable data is left in sys.stdout for the interpreter to trip on at exit."""

    def __init__(self):
        self.pending = bytearray()
        self.failure = None
        self.fd = None  # started with standard output closed (`>&-`): EBADF on writing
        if sys.stdout is not None:
            sys.stdout.flush()
            self.fd = sys.stdout.fileno()

    def write(self, data):
        if self.failure is None:
            self.pending += data
            if len(self.pending) >= WRITE_BUFFER:
                self.flush()

    def flush(self):
        """Writes what is pending; False (once reported) if standard output failed."""
        try:
            while self.pending and self.failure is None:
                if self.fd is None:
                    raise bad_fd()
                del self.pending[:os.write(self.fd, self.pending)]
        except OSError as e:
            self.failure = e
            self.pending.clear()
        return self.failure is None

    def close(self):
        """The exit status the output adds: EXIT_TROUBLE after reporting a failure."""
        if self.flush():
            return EXIT_OK
        error(f"standard output: {self.failure.strerror}")
        return EXIT_TROUBLE


# What C's strtoull(text, &end, 0) reads -- hexadecimal after 0x, octal after a 0,
# decimal otherwise -- from a digit on: no space or sign before it, nothing after it.
NUMBER = re.compile(r"0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*")


def parse_number(text):
    if NUMBER.fullmatch(text) is None:
        raise ValueError(text)
    base = 16 if text[:2] in ("0x", "0X") else 8 if text[0] == "0" else 10
    value = int(text, base)
    if value >= 1 << 64:
        raise ValueError(text)
    return value


def parse_bool(text):
    if text in ("true", "1"):
        return True
    if text in ("false", "0"):
        return False
    raise ValueError(text)


def custom_params(algo):
    """"width=16,poly=0x1021,init=0,refin=false,refout=false,xorout=0" -> crcforge.Params"""
    values = {}
    for item in algo.split(","):
        if not item:
            raise Trouble(f"algorithm '{algo}': empty item (a comma too many)")
        key, eq, value = item.partition("=")
        if not eq:
            raise Trouble(f"algorithm '{algo}': '{item}' is not key=value")
        if key in values:  # not "the last one wins"
            raise Trouble(f"algorithm '{algo}': {key} given twice")
        if key not in PARAM_KEYS:
            raise Trouble(f"algorithm '{algo}': unknown parameter '{key}' (expected width, "
                          "poly, init, refin, refout, xorout)")
        if key in values:
            raise Trouble(f"algorithm '{algo}': {key} given twice")
        try:
            values[key] = parse_bool(value) if key in ("refin", "refout") else parse_number(value)
        except ValueError:
            raise Trouble(f"algorithm '{algo}': bad value '{value}' for {key}") from None
    for key in PARAM_KEYS:
        if key not in values:
            raise Trouble(f"algorithm '{algo}': parameter {key} is missing")
    return crcforge.Params(**values)


def model_of(algo):
    """The `algo` argument for crcforge.new(), checked once up front."""
    model = custom_params(algo) if "=" in algo else algo
    try:
        width = crcforge.new(model).width
    except ValueError as e:
        if "=" not in algo:
            raise Trouble(f"unknown algorithm '{algo}' (see `crcforge list`)") from None
        reason = str(e).removeprefix("custom model: ")
        raise Trouble(f"algorithm '{algo}': {reason}") from None
    return model, width


def crc_of_range(fd, model, offset=0, length=None):
    """CRC of `length` bytes of fd from `offset`, read with pread (so that threads can share
    fd); with length None, of what read() gives until the end (pipes, terminals too)."""
    h = crcforge.new(model)
    buf = bytearray(READ_BUFFER)
    view = memoryview(buf)
    while length != 0:
        if length is None:
            block = view[:os.readv(fd, [buf])]  # (EINTR is retried by Python)
            if not block:
                break
        else:
            block = os.pread(fd, min(READ_BUFFER, length), offset)
            if not block:
                raise OSError(errno.EIO, os.strerror(errno.EIO))  # the file shrank under us
            offset += len(block)
            length -= len(block)
        h.update(block)
    return h.value


def crc_parallel(fd, model, size, threads):
    """Hashes `threads` ranges at once (the CRC runs without the GIL) and joins them."""
    step = size // threads
    ranges = [(i * step, size - i * step if i == threads - 1 else step) for i in range(threads)]
    with ThreadPoolExecutor(threads) as pool:
        crcs = list(pool.map(lambda r: crc_of_range(fd, model, *r), ranges))
    total = crcs[0]
    for crc, (_, length) in zip(crcs[1:], ranges[1:]):
        total = crcforge.combine(model, total, crc, length)
    return total


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


def crc_of_object(name, model, threads, executor):
    """CRC of a URL (or, with a Dask executor, any input) hashed by ranges with
    crcforge.objects; None after reporting why it could not be read or changed."""
    try:
        if executor is None and threads > 1:
            with ThreadPoolExecutor(threads) as pool:
                return objects.file_checksum(name, model, executor=pool)
        return objects.file_checksum(name, model, executor=executor)
    except Exception as e:  # an SDK's own errors too: reported, and the next input done
        error(f"{name}: {reason_of(e, name)}")
        return None


def crc_of_input(name, model, threads, executor=None):
    """CRC of a named input ("-" is stdin); None after reporting why it could not be read.
    URLs, and every input but stdin when a Dask executor is given, go by ranges."""
    is_stdin = name == "-"
    if objects.is_url(name) or (executor is not None and not is_stdin):
        return crc_of_object(name, model, threads, executor)
    try:
        if is_stdin and sys.stdin is None:  # started with standard input closed
            raise bad_fd()
        fd = 0 if is_stdin else os.open(name, os.O_RDONLY)
    except OSError as e:
        error(f"{name}: {e.strerror}")
        return None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if threads > 1 and not is_stdin and stat.S_ISREG(st.st_mode) and st.st_size >= PARALLEL_MIN:
            return crc_parallel(fd, model, st.st_size, threads)
        return crc_of_range(fd, model)
    except OSError as e:
        error(f"{name}: {e.strerror}")
        return None
    finally:
        if not is_stdin:
            os.close(fd)


def format_value(value, width, fmt):
    if fmt == "base64":
        return base64.b64encode(value.to_bytes((width + 7) // 8, "big")).decode()
    return f"{value:0{(width + 3) // 4}x}"


def well_formed_value(value, width, fmt):
    """Whether value (bytes) is a value as format_value prints it for this width: exactly
    ceil(width/4) hex digits (either case), or the base64 of its bytes."""
    shape = format_value(0, width, fmt).encode()
    if len(value) != len(shape):
        return False
    if fmt == "hex":
        return all(c in b"0123456789abcdefABCDEF" for c in value)
    alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    return all(c == ord("=") if s == ord("=") else c in alphabet for c, s in zip(value, shape))


def verify_list(listname, model, width, fmt, threads, out, executor=None):
    try:
        if listname != "-":
            listfile = open(listname, "rb")
        elif sys.stdin is None:  # started with standard input closed
            raise bad_fd()
        else:
            listfile = sys.stdin.buffer
    except OSError as e:
        error(f"{listname}: {e.strerror}")
        return EXIT_TROUBLE
    status = EXIT_OK
    checked = 0
    with listfile:
        lineno = 0
        while True:
            try:
                raw = listfile.readline()
            except OSError as e:  # as C's ferror(): the lines before were checked
                error(f"{listname}: {e.strerror}")
                return EXIT_TROUBLE
            if not raw:
                break
            lineno += 1
            # A list written with CRLF line endings: the \r is not part of the name.
            line = raw.removesuffix(b"\n").removesuffix(b"\r")
            if not line:
                continue
            expected, sep, name = line.partition(b"  ")
            if (not sep or not name or b"\0" in line
                    or not well_formed_value(expected, width, fmt)):
                shape = format_value(0, width, fmt)
                what = "hex digits" if fmt == "hex" else "base64 characters"
                error(f"{listname}:{lineno}: improperly formatted line "
                      f'(expected "VALUE  NAME", VALUE {len(shape)} {what})')
                status = EXIT_TROUBLE
                continue
            checked += 1
            name = os.fsdecode(name)
            value = crc_of_input(name, model, threads, executor)
            if value is None:
                status = EXIT_TROUBLE
                continue
            actual = format_value(value, width, fmt)
            expected = os.fsdecode(expected)
            ok = actual == expected if fmt == "base64" else actual.lower() == expected.lower()
            out.write(os.fsencode(name) + (b": OK\n" if ok else b": FAILED\n"))
            if not ok and status == EXIT_OK:
                status = EXIT_MISMATCH
    if checked == 0:  # nothing verified is not a success: the wrong or an empty file
        error(f"{listname}: no checksum lines found")
        status = EXIT_TROUBLE
    return status


SUM_OPTIONS = (
    Option("algorithm", "a", "ALGO",
           "a catalogue name or alias, case-insensitive (default crc32c),\n"
           "or width=..,poly=..,init=..,refin=..,refout=..,xorout=.."),
    Option("check", "c", None, 'verify the "VALUE  NAME" lines of LISTFILE'),
    Option("jobs", "j", "N", "hash a large file with N threads (1 to 64), joined with combine"),
    Option("format", None, "FORMAT",
           "hex (default), or base64: the value's big-endian bytes,\n"
           "as S3 and GCS checksum headers carry them"),
    Option("scheduler", None, "ADDRESS",
           "hash the ranges of every input on the Dask cluster\n"
           "whose scheduler is at ADDRESS (tcp://HOST:PORT); its\n"
           "workers open the inputs themselves, with their own\n"
           "credentials and endpoint"),
    HELP_OPTION,
)
URL_NOTES = (
    "A FILE may be a URL that fsspec opens (s3://, gs://, memory://, ...; credentials\n"
    "and endpoint as the SDK finds them, e.g. AWS_ENDPOINT_URL): each range of it is read\n"
    "and hashed by a task of its own (-j threads, or the --scheduler's workers).\n")
SUM_HELP = help_text(
    ["sum [-a ALGO] [-j N] [--format hex|base64] [--scheduler ADDRESS] [FILE|URL...]",
     "sum -c [-a ALGO] [--format hex|base64] LISTFILE"],
    'CRC of each input ("-" or none: standard input), or with -c verify them',
    SUM_OPTIONS,
    URL_NOTES + "\n"
    "Exit status: 0 good, 1 a checksum did not verify, 2 bad usage or an input that\n"
    "could not be read (the other inputs are still processed).\n")


def parse_count(text, high):
    """A count in ASCII decimal digits only, from 1 to high; None if it is not one."""
    if not text or not all("0" <= c <= "9" for c in text) or not 1 <= int(text) <= high:
        return None
    return int(text)


def parse_sum_options(args):
    """The options of `sum` (a dict), and its operands; None for the options after --help."""
    opts = {"algo": "crc32c", "verify": False, "threads": 1, "format": "hex", "scheduler": None}
    found, operands = read_options("sum", SUM_OPTIONS, args)
    for option, value in found:
        if option.name == "help":
            return None, []
        if option.name == "check":
            opts["verify"] = True
        elif option.name == "algorithm":
            opts["algo"] = value
        elif option.name == "jobs":
            opts["threads"] = parse_count(value, MAX_THREADS)
            if opts["threads"] is None:
                raise Trouble(f"-j: '{value}' is not a thread count from 1 to {MAX_THREADS}")
        elif option.name == "format":
            if value not in ("hex", "base64"):
                raise Trouble(f"--format: '{value}' is not hex or base64")
            opts["format"] = value
        elif option.name == "scheduler":
            opts["scheduler"] = value
    return opts, operands


class DaskExecutor:
    """The executor of a running Dask scheduler (--scheduler), closed on leaving."""

    def __init__(self, address):
        self.address = address
        self.client = None

    def __enter__(self):
        if self.address is None:
            return None
        try:
            import distributed
        except ImportError:
            raise Trouble("--scheduler needs Dask (pip install 'crcforge[dask]')") from None
        try:
            self.client = distributed.Client(self.address)  # Dask's connect timeout
        except Exception as e:
            raise Trouble(f"--scheduler {self.address}: {reason_of(e, self.address)}") from None
        return self.client.get_executor()

    def __exit__(self, *exc):
        if self.client is not None:
            self.client.close()


def cmd_sum(args, out):
    opts, names = parse_sum_options(args)
    if opts is None:
        out.write(SUM_HELP.encode())
        return EXIT_OK
    model, width = model_of(opts["algo"])
    if opts["verify"] and len(names) != 1:
        raise Trouble("sum -c takes exactly one LISTFILE")
    with DaskExecutor(opts["scheduler"]) as executor:
        if opts["verify"]:
            return verify_list(names[0], model, width, opts["format"], opts["threads"], out,
                               executor)
        status = EXIT_OK
        for name in names or ["-"]:
            value = crc_of_input(name, model, opts["threads"], executor)
            if value is None:
                status = EXIT_TROUBLE
                continue
            out.write(format_value(value, width, opts["format"]).encode() + b"  "
                      + os.fsencode(name) + b"\n")
    return status


VERIFY_OPTIONS = (
    Option("jobs", "j", "N", "hash the file's ranges with N threads (1 to 64)"),
    Option("scheduler", None, "ADDRESS", "hash them on the Dask cluster at ADDRESS"),
    HELP_OPTION,
)
VERIFY_HELP = help_text(
    ["verify [-j N] [--scheduler ADDRESS] FILE URL"],
    "Whether FILE holds what the S3 object URL stores: reads the object's checksum,\n"
    "its type (FULL_OBJECT or COMPOSITE) and its part sizes, computes the same value\n"
    "from FILE, prints \"FILE: OK\" or \"FILE: FAILED\" with both values.",
    VERIFY_OPTIONS,
    "Exit status: 0 OK, 1 FAILED, 2 bad usage, or FILE or URL could not be read.\n")


def cmd_verify(args, out):
    found, operands = read_options("verify", VERIFY_OPTIONS, args)
    threads, address = 1, None
    for option, value in found:
        if option.name == "help":
            out.write(VERIFY_HELP.encode())
            return EXIT_OK
        if option.name == "jobs":
            threads = parse_count(value, MAX_THREADS)
            if threads is None:
                raise Trouble(f"-j: '{value}' is not a thread count from 1 to {MAX_THREADS}")
        else:
            address = value
    if len(operands) != 2:
        raise Trouble(f"verify takes a FILE and a URL (see {see_help('verify')})")
    path, url = operands
    try:
        stored = objects.stored_checksum(url)
    except Exception as e:  # the SDK's own errors too
        error(f"{url}: {reason_of(e, url)}")
        return EXIT_TROUBLE
    with DaskExecutor(address) as executor:
        pool = ThreadPoolExecutor(threads) if executor is None and threads > 1 else None
        try:
            result = objects.verify_upload(path, url, executor=executor or pool, stored=stored)
        except Exception as e:
            error(f"{path}: {reason_of(e, path)}")
            return EXIT_TROUBLE
        finally:
            if pool is not None:
                pool.shutdown()
    parts = len(result.part_sizes)
    detail = (f"{result.algorithm} {result.checksum_type}"
              + (f", {parts} part{'s' if parts != 1 else ''}" if parts else "")
              + f": stored {result.stored}, computed {result.computed}")
    if result.file_size != result.object_size:
        detail += f"; {result.file_size} bytes, the object {result.object_size}"
    out.write(os.fsencode(path) + (b": OK (" if result.ok else b": FAILED (")
              + detail.encode() + b")\n")
    return EXIT_OK if result.ok else EXIT_MISMATCH


MAIN_OPTIONS = (HELP_OPTION, Option("version", None, None, "print the version and exit"))
USAGE = """\
usage: python -m crcforge COMMAND [OPTION]... [ARG]...
  sum       CRC of each input ("-" or none: standard input), or with -c verify them
  verify    whether a file holds what an S3 object stores (its stored checksum)

""" + "\n".join(line.replace("usage: ", "  ").replace("       ", "  ", 1)
                for line in SUM_HELP.splitlines()[:2] + VERIFY_HELP.splitlines()[:1]) + """

`python -m crcforge sum --help` and `verify --help` describe their options.  The other
commands (list, cpu, keyslot, bench) are in the C tool; from Python see crcforge.models(), keyslot(), ...
"""


def main(argv):
    if hasattr(signal, "SIGPIPE"):  # a reader that goes away ends us quietly, as C tools
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    out = Output()
    try:
        found, operands = read_options("", MAIN_OPTIONS, argv, in_order=True)
        if found:
            out.write((USAGE if found[0][0].name == "help"
                       else f"crcforge {crcforge.__version__}\n").encode())
            return out.close()
        if not operands:
            to_stderr(USAGE)
            return EXIT_TROUBLE
        impl = os.environ.get("CRCFORGE_IMPL", "")
        if impl:  # a bad CRCFORGE_IMPL is a usage error, as in the C tool
            try:
                crcforge.force_implementation(impl)
            except ValueError as e:
                raise Trouble(f"CRCFORGE_IMPL={impl}: {str(e).partition(': ')[2]}") from None
        commands = {"sum": cmd_sum, "verify": cmd_verify}
        if operands[0] not in commands:
            raise Trouble(f"unknown command '{operands[0]}' (python -m crcforge has sum "
                          "and verify)")
        status = commands[operands[0]](operands[1:], out)
    except Trouble as e:
        error(str(e))
        status = EXIT_TROUBLE
    return max(status, out.close())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
