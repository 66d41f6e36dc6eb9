"""python -m crcforge sum: the `crcforge sum` command of the C tool, for Python-only users.

Same contract (shared/DESIGN.md) and the same option spellings: one "VALUE  NAME" line per
input ("-" is stdin), -a ALGO, --format hex|base64, --part-size SIZE for the composite
checksum of a multipart upload, -c LISTFILE to verify, -j N threads for large files,
progress on stderr; exit status 0 good, 1 a checksum did not verify, 2 bad usage or an
input that gave no value, reported after the other inputs were processed.  Files are read
in fixed-size blocks (bounded memory).

Where the bytes of an input come from is hash_input(name, spec), which gives the CRC of
each part; how a value is printed and checked is checksum_text, well_formed_value and
same_value.

Beyond the C tool: inputs may be URLs that fsspec opens (s3://, gs://, memory://, ...),
hashed by ranges (crcforge.objects) on -j N threads or, with --scheduler ADDRESS, on a
running Dask cluster, each request within --timeout and each input within --deadline;
`verify FILE URL` compares a file with what an S3 object stores.
"""
import base64
import contextlib
import errno
import os
import re
import signal
import stat
import sys
import threading
import time
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
            return
        data = os.fsencode(text)
        while data:  # a terminal or pipe may take part of it only
            data = data[os.write(fd, data):]
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


def read_options(command, options, args, stop_at_operand=False):
    """args read as the C tool's getopt_long reads them: "--name=value", "--name value",
    unique prefixes of long names, "-j2", bundled letters ("-cj2"), "--" ending the
    options; options anywhere among the operands, unless POSIXLY_CORRECT is set or
    stop_at_operand is true (then the first operand ends them).  Yields (Option, value or
    None) in order, then (None, operand) for each operand; raises Trouble naming the
    first mistake when it is reached, as getopt does."""
    def trouble(message):
        return option_trouble(command, message)

    operands = []
    stop_at_operand = stop_at_operand or "POSIXLY_CORRECT" in os.environ
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
            yield option, value if option.value is not None else None
        else:
            for k, letter in enumerate(arg[1:], 2):
                option = next((o for o in options if o.short == letter), None)
                if option is None:
                    raise trouble(f"unknown option '-{letter}' (see {see_help(command)})")
                if option.value is None:
                    yield option, None
                    continue
                if k < len(arg):
                    yield option, arg[k:]
                elif i < len(args):
                    yield option, args[i]
                    i += 1
                else:
                    raise trouble(f"option '-{letter}' needs a value")
                break
    for operand in operands + args[i:]:
        yield None, operand


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


class Progress:
    """Progress of `sum` on stderr, for inputs that take more than about a second: bytes
    done, rate, and time left when the size is known.  On a terminal one line is rewritten
    in place and cleared at the end; elsewhere (forced with --progress) a line a second,
    and a last one with the total.  Written by a thread of its own, as the C tool does."""

    FIRST_AFTER = 1.0  # seconds: shorter inputs show nothing

    def __init__(self, tty):
        self.tty = tty
        self.wake = threading.Condition()
        self.quit = self.active = self.shown = False
        self.name, self.size, self.done, self.start, self.last_shown = "", 0, 0, 0.0, 0.0
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    @classmethod
    def open(cls, mode):
        """None (no progress) when mode is "off", or "auto" and stderr is no terminal."""
        tty = sys.stderr is not None and os.isatty(2)
        return None if mode == "off" or (mode == "auto" and not tty) else cls(tty)

    def begin(self, name, size):
        with self.wake:
            self.name, self.size, self.done = name, size, 0
            self.start = time.monotonic()
            self.active, self.shown = True, False
            self.wake.notify()

    def add(self, count):
        with self.wake:
            self.done += count

    def end(self):
        with self.wake:
            if self.shown and self.tty:
                to_stderr("\r\033[K")
            elif self.shown:  # a log keeps the total
                seconds = time.monotonic() - self.start
                self.print(f"{size_text(self.done)} in {seconds:.1f} s "
                           f"({size_text(self.done / seconds)}/s)", "\n")
            self.active = False

    def close(self):
        with self.wake:
            self.quit = True
            self.wake.notify()
        self.thread.join()

    def run(self):
        with self.wake:
            while not self.quit:
                now = time.monotonic()
                # A terminal's line is rewritten 4 times a second; a log gets a line a second.
                due = (now + 3600 if not self.active
                       else self.start + self.FIRST_AFTER if not self.shown
                       else self.last_shown + (0.25 if self.tty else 1.0))
                if self.active and now >= due:
                    self.show(now)
                else:
                    self.wake.wait(due - now)

    def show(self, now):
        rate = self.done / (now - self.start)
        what = f"{size_text(self.done)}, {size_text(rate)}/s"
        if self.size:
            left = duration_text((self.size - min(self.done, self.size)) / rate) if rate else "?"
            what = (f"{size_text(self.done)} of {size_text(self.size)} "
                    f"({100 * self.done / self.size:.0f}%), {size_text(rate)}/s, {left} left")
        self.print(what, "\033[K" if self.tty else "\n")
        self.shown, self.last_shown = True, now

    def print(self, what, end):
        """ "crcforge: NAME: WHAT", the name cut at its front when too long for the
        terminal (a wrapped line could not be rewritten with "\r")."""
        name, start = self.name, ""
        if self.tty:
            try:
                room = (os.get_terminal_size(2).columns or 80) - 1
            except OSError:
                room = 79
            fixed = len("crcforge: : ") + len(what)
            if fixed + len(name) > room:
                name = "..." + name[len(name) - max(room - fixed - 3, 0):]
            start = "\r"
        to_stderr(f"{start}crcforge: {name}: {what}{end}")


@contextlib.contextmanager
def shown(progress, name, size):
    """Progress of one input while the block reads it (nothing when progress is None)."""
    if progress:
        progress.begin(name, size)
    try:
        yield
    finally:
        if progress:
            progress.end()


def size_text(count):
    """"512 B", "1.5 KiB", "3.0 GiB"."""
    units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
    u = 0
    while count >= 1024 and u + 1 < len(units):
        count /= 1024
        u += 1
    return f"{count:.0f} {units[u]}" if u == 0 else f"{count:.1f} {units[u]}"


def duration_text(seconds):
    """"0:07", "1:02:03"."""
    s = int(seconds + 0.5) if seconds < 1e9 else 999999999
    return f"{s // 3600}:{s // 60 % 60:02}:{s % 60:02}" if s >= 3600 else f"{s // 60}:{s % 60:02}"


MAX_PARTS = objects.MAX_PARTS  # S3's limit on the parts of a multipart upload


class Spec(NamedTuple):
    """What `sum` computes of each input, and how it prints it."""
    model: object    # the algo argument of crcforge.new()
    width: int
    fmt: str         # "hex" or "base64"
    part_size: int   # 0: the CRC of the whole input; else the composite of such parts
    threads: int
    progress: Optional["Progress"] = None  # None: not shown
    executor: object = None  # a Dask cluster's (--scheduler): every input goes by ranges
    timeout: Optional[float] = None   # --timeout: of each request to S3
    deadline: Optional[float] = None  # --deadline: of each input read by ranges


class InputError(Exception):
    """An input that gave no value; the message says why."""


class EarlyEnd(Exception):
    """A range of a regular file ended before its size (args[0]: the offset)."""


class Stopped(Exception):
    """A range left unread because another one failed."""


def hash_input(name, spec):
    """Where the bytes of an input come from: the CRC of each part of the named input (one
    for the whole input without parts), read from a local file, FIFO or standard input
    ("-"), or by ranges (a URL, or any file with --scheduler); InputError when it gives no
    value."""
    is_stdin = name == "-"
    if objects.is_url(name) or (spec.executor is not None and not is_stdin):
        return hash_by_ranges(name, spec)
    try:
        if is_stdin and sys.stdin is None:  # started with standard input closed
            raise bad_fd()
        fd = 0 if is_stdin else os.open(name, os.O_RDONLY)
    except OSError as e:
        raise InputError(e.strerror) from None
    try:
        return hash_fd(name, fd, is_stdin, spec)
    finally:
        if not is_stdin:
            os.close(fd)


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


def hash_by_ranges(name, spec):
    """The part CRCs of a URL (or, with a Dask executor, of any input) by crcforge.objects:
    each range read and hashed by a task of spec.threads threads or of the cluster."""
    limits = dict(timeout=spec.timeout, deadline=spec.deadline)
    try:
        if spec.executor is None and spec.threads > 1:
            with ThreadPoolExecutor(spec.threads) as pool:
                return objects.part_crcs(name, spec.model, spec.part_size or None,
                                         executor=pool, **limits)[0]
        return objects.part_crcs(name, spec.model, spec.part_size or None,
                                 executor=spec.executor, **limits)[0]
    except Exception as e:  # an SDK's own errors too: reported, and the next input done
        raise InputError(reason_of(e, name)) from None


def hash_fd(name, fd, is_stdin, spec):
    """hash_input's work on the open input: a regular file is checked against what fstat
    says of it before and after the reads."""
    try:
        before = os.fstat(fd)
    except OSError as e:
        raise InputError(e.strerror) from None
    if stat.S_ISDIR(before.st_mode):
        raise InputError(os.strerror(errno.EISDIR))
    if not stat.S_ISREG(before.st_mode):  # a pipe, FIFO, terminal: no size to check
        with shown(spec.progress, name, 0):
            crcs, _, too_many = hash_stream(fd, spec, MAX_PARTS if spec.part_size else 1)
        if too_many:
            raise InputError(too_many_parts(spec))
        return crcs
    # A regular file has a size to check the reads against, and can be read by ranges:
    # from where standard input stands, when it is one.
    base = min(os.lseek(fd, 0, os.SEEK_CUR), before.st_size) if is_stdin else 0
    size = before.st_size - base
    nparts = max(1, -(-size // spec.part_size)) if spec.part_size else 1
    if nparts > MAX_PARTS:
        raise InputError(f"{nparts} parts of {spec.part_size} bytes, more than S3's limit of "
                         f"{MAX_PARTS} parts")
    early = None
    too_many = False
    with shown(spec.progress, name, size):
        if spec.threads > 1 and size >= PARALLEL_MIN:
            total = size
            try:
                crcs = hash_parallel(fd, base, size, spec, nparts)
            except EarlyEnd as e:
                early = e.args[0]
        else:
            crcs, total, too_many = hash_stream(fd, spec, nparts)
    # The bytes read are those of one moment only if nothing moved meanwhile.
    try:
        after = os.fstat(fd)
    except OSError:
        after = before
    if after.st_size != before.st_size:
        raise InputError(f"changed while it was read ({before.st_size} bytes at the start, "
                         f"{after.st_size} at the end)")
    if after.st_mtime_ns != before.st_mtime_ns:
        raise InputError("changed while it was read (modified: its mtime moved)")
    if early is None and total < size:
        early = total
    if early is not None:
        raise InputError(f"ended early, at byte {early} of {size}")
    if too_many:
        raise InputError(too_many_parts(spec))
    if total != size:
        raise InputError(f"changed while it was read ({total} bytes read of {size})")
    return crcs


def too_many_parts(spec):
    return (f"more than {MAX_PARTS} parts of {spec.part_size} bytes (S3's limit is "
            f"{MAX_PARTS} parts)")


def hash_stream(fd, spec, max_parts):
    """Reads fd to its end in parts of spec.part_size bytes (one part when 0): the CRC of
    each (at least one: an empty input is one empty part), the bytes read, and whether the
    input went on past max_parts parts.  (Python retries a read that a signal
    interrupted.)"""
    crcs = []
    h = crcforge.new(spec.model)
    in_part = total = 0
    buf = bytearray(READ_BUFFER)
    view = memoryview(buf)
    while True:
        try:
            got = os.readv(fd, [buf])
        except OSError as e:
            raise InputError(f"{e.strerror} (reading byte {total})") from None
        if not got:
            break
        if spec.progress:
            spec.progress.add(got)
        off = 0
        while off < got:
            take = got - off
            if spec.part_size:
                if in_part == 0 and len(crcs) == max_parts:
                    return crcs, total, True
                take = min(take, spec.part_size - in_part)
            h.update(view[off:off + take])
            off += take
            in_part += take
            if in_part == spec.part_size:
                crcs.append(h.value)
                h = crcforge.new(spec.model)
                in_part = 0
        total += got
    if in_part or not crcs:
        crcs.append(h.value)
    return crcs, total, False


def hash_parallel(fd, base, size, spec, nparts):
    """The size bytes from base cut into spec.threads ranges hashed at once (the CRC runs
    without the GIL), each range cut again where a part ends; the pieces of each part are
    joined in order with combine."""
    threads = spec.threads
    part_size = spec.part_size or size
    step = size // threads
    work, pos = [], 0
    for t in range(threads):
        end = size if t == threads - 1 else step * (t + 1)
        pieces = []
        while pos < end:
            part = pos // part_size
            stop = min(end, (part + 1) * part_size)
            pieces.append((part, base + pos, stop - pos))
            pos = stop
        work.append(pieces)
    failed = threading.Event()  # set by the first range that fails: the others stop

    def hash_pieces(pieces):
        try:
            return [crc_of_range(fd, spec.model, off, length, failed, spec.progress)
                    for _, off, length in pieces]
        except BaseException:
            failed.set()
            raise

    with ThreadPoolExecutor(threads) as pool:
        futures = [pool.submit(hash_pieces, pieces) for pieces in work]
    faults = [f.exception() for f in futures]
    fault = next((e for e in faults if e is not None and not isinstance(e, Stopped)), None)
    if fault is not None:
        raise fault
    crcs = [None] * nparts
    for pieces, future in zip(work, futures):
        for (part, _, length), crc in zip(pieces, future.result()):
            crcs[part] = crc if crcs[part] is None else crcforge.combine(spec.model, crcs[part],
                                                                         crc, length)
    return crcs


def crc_of_range(fd, model, offset, length, failed, progress):
    """CRC of length bytes of fd from offset, read with pread (so that threads can share
    fd)."""
    h = crcforge.new(model)
    while length:
        if failed.is_set():
            raise Stopped()
        try:
            block = os.pread(fd, min(READ_BUFFER, length), offset)
        except OSError as e:
            raise InputError(f"{e.strerror} (reading byte {offset})") from None
        if not block:
            raise EarlyEnd(offset)
        h.update(block)
        offset += len(block)
        length -= len(block)
        if progress:
            progress.add(len(block))
    return h.value


def composite(crcs, spec):
    """The CRC of the parts' CRCs, each as its ceil(width/8) big-endian bytes."""
    return objects.composite_crc(spec.model, crcs)


def format_value(value, width, fmt):
    if fmt == "base64":
        return base64.b64encode(value.to_bytes((width + 7) // 8, "big")).decode()
    return f"{value:0{(width + 3) // 4}x}"


def checksum_text(crcs, spec):
    """How a value is printed: the CRC of the whole input (crcs holds one), or with parts
    the composite of their CRCs, then "-" and their count."""
    if spec.part_size:
        return f"{format_value(composite(crcs, spec), spec.width, spec.fmt)}-{len(crcs)}"
    return format_value(crcs[0], spec.width, spec.fmt)


def checksum_of_input(name, spec):
    """The value `sum` prints for an input; InputError when it gives none."""
    return checksum_text(hash_input(name, spec), spec)


def well_formed_value(text, spec):
    """Whether text (bytes) is a value as checksum_text prints it: exactly ceil(width/4) hex
    digits (either case) or the base64 of its bytes; with parts, then "-" and a count of
    parts (digits, no leading zero)."""
    shape = format_value(0, spec.width, spec.fmt).encode()
    value, dash, count = text[:len(shape)], text[len(shape):len(shape) + 1], text[len(shape) + 1:]
    if spec.part_size:
        if (dash != b"-" or not 1 <= len(count) <= 5 or count[:1] == b"0"
                or not all(c in b"0123456789" for c in count)):
            return False
    elif len(text) != len(shape):
        return False
    if len(value) != len(shape):
        return False
    if spec.fmt == "hex":
        return all(c in b"0123456789abcdefABCDEF" for c in value)
    alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    return all(c == ord("=") if s == ord("=") else c in alphabet for c, s in zip(value, shape))


def same_value(expected, actual, spec):
    """Whether a listed value (well formed) is the one computed: hex in either case."""
    return actual == expected if spec.fmt == "base64" else actual.lower() == expected.lower()


def verify_list(listname, spec, out):
    """Checks each "VALUE  NAME" line of the list; returns the exit status."""
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
            if not sep or not name or b"\0" in line or not well_formed_value(expected, spec):
                shape = format_value(0, spec.width, spec.fmt)
                what = "hex digits" if spec.fmt == "hex" else "base64 characters"
                parts = " then -PARTS" if spec.part_size else ""
                error(f"{listname}:{lineno}: improperly formatted line "
                      f'(expected "VALUE  NAME", VALUE {len(shape)} {what}{parts})')
                status = EXIT_TROUBLE
                continue
            checked += 1
            name = os.fsdecode(name)
            try:
                actual = checksum_of_input(name, spec)
            except InputError as e:
                error(f"{name}: {e}")
                status = EXIT_TROUBLE
                continue
            ok = same_value(os.fsdecode(expected), actual, spec)
            out.write(os.fsencode(name) + (b": OK\n" if ok else b": FAILED\n"))
            if not ok and status == EXIT_OK:
                status = EXIT_MISMATCH
    if checked == 0:  # nothing verified is not a success: the wrong or an empty file
        error(f"{listname}: no checksum lines found")
        status = EXIT_TROUBLE
    return status


# Python's only: what bounds the reading of a URL.
LIMIT_OPTIONS = (
    Option("timeout", None, "SECONDS",
           "the connect and read timeout of each request to S3\n"
           f"(default {objects.DEFAULT_TIMEOUT:g}; each tried {objects.REQUEST_ATTEMPTS} times)"),
    Option("deadline", None, "SECONDS",
           "give up on an input read by ranges (a URL) that takes\n"
           "longer than SECONDS (default: no deadline)"),
)

SUM_OPTIONS = (
    Option("algorithm", "a", "ALGO",
           "a catalogue name or alias, case-insensitive (default crc32c),\n"
           "or width=..,poly=..,init=..,refin=..,refout=..,xorout=.."),
    Option("check", "c", None, 'verify the "VALUE  NAME" lines of LISTFILE'),
    Option("jobs", "j", "N", "hash a large file with N threads (1 to 64), joined with combine"),
    Option("format", None, "FORMAT",
           "hex (default), or base64: the value's big-endian bytes,\n"
           "as S3 and GCS checksum headers carry them"),
    Option("part-size", None, "SIZE",
           "the composite checksum S3 reports for a multipart upload in\n"
           "parts of SIZE bytes: the CRC of the parts' CRCs, then -PARTS;\n"
           "SIZE in bytes or with K, M, G, T, KB.., KiB.. (powers of 1024);\n"
           "at most 10000 parts"),
    Option("progress", None, None,
           "show the progress of inputs that take more than a second on\n"
           "stderr (the default when stderr is a terminal)"),
    Option("no-progress", None, None, "never show it"),
    Option("scheduler", None, "ADDRESS",
           "hash the ranges of every input on the Dask cluster\n"
           "whose scheduler is at ADDRESS (tcp://HOST:PORT); its\n"
           "workers open the inputs themselves, with their own\n"
           "credentials and endpoint"),
    *LIMIT_OPTIONS,
    HELP_OPTION,
)
SUM_HELP = help_text(
    ["sum [-a ALGO] [-j N] [--format hex|base64] [--part-size SIZE] [--scheduler ADDRESS]"
     " [--timeout SECONDS] [--deadline SECONDS] [FILE|URL...]",
     "sum -c [-a ALGO] [--format hex|base64] [--part-size SIZE] LISTFILE"],
    'CRC of each input ("-" or none: standard input), or with -c verify them',
    SUM_OPTIONS,
    "A FILE may be a URL that fsspec opens (s3://, gs://, memory://, ...; credentials\n"
    "and endpoint as the SDK finds them, e.g. AWS_ENDPOINT_URL): each range of it is read\n"
    "and hashed by a task of its own (-j threads, or the --scheduler's workers); a\n"
    "request that times out in every attempt, or an input past its --deadline, is an\n"
    "input that could not be read.\n"
    "\n"
    "Exit status: 0 good, 1 a checksum did not verify, 2 bad usage or an input that\n"
    "could not be read (the other inputs are still processed).\n")


def parse_count(text, low, high):
    """A count in ASCII decimal digits only, from low to high; None if it is not one."""
    if not text or not all("0" <= c <= "9" for c in text) or not low <= int(text) <= high:
        return None
    return int(text)


def parse_seconds(option, text):
    """--timeout and --deadline: seconds > 0, in ASCII digits with maybe a fraction."""
    if re.fullmatch(r"[0-9]+(\.[0-9]+)?", text) and float(text) > 0:
        return float(text)
    raise Trouble(f"--{option}: '{text}' is not a number of seconds > 0")


def parse_sum_options(args):
    """The Spec's fields and the other options of `sum` (a dict), and its operands; None
    for the options after --help."""
    opts = {"algo": "crc32c", "verify": False, "threads": 1, "fmt": "hex", "part_size": 0,
            "progress": "auto", "scheduler": None, "timeout": None, "deadline": None}
    names = []
    for option, value in read_options("sum", SUM_OPTIONS, args):
        if option is None:
            names.append(value)
        elif option.name == "help":
            return None, []
        elif option.name == "check":
            opts["verify"] = True
        elif option.name in ("progress", "no-progress"):
            opts["progress"] = "on" if option.name == "progress" else "off"
        elif option.name == "algorithm":
            opts["algo"] = value
        elif option.name == "jobs":
            opts["threads"] = parse_count(value, 1, MAX_THREADS)
            if opts["threads"] is None:
                raise Trouble(f"-j: '{value}' is not a thread count from 1 to {MAX_THREADS}")
        elif option.name == "format":
            if value not in ("hex", "base64"):
                raise Trouble(f"--format: '{value}' is not hex or base64")
            opts["fmt"] = value
        elif option.name == "part-size":
            opts["part_size"] = crcforge._crcforge._parse_size(value)  # the C tool's rule
            if not opts["part_size"]:
                raise Trouble(f"--part-size: '{value}' is not a size of at least 1 byte "
                              "(bytes, or with K, M, G, T, KB.., KiB..; at most "
                              f"{MAX_PARTS} parts an input)")
        elif option.name == "scheduler":
            opts["scheduler"] = value
        elif option.name in ("timeout", "deadline"):
            opts[option.name] = parse_seconds(option.name, value)
    return opts, names


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
        spec = Spec(model, width, opts["fmt"], opts["part_size"], opts["threads"],
                    Progress.open(opts["progress"]), executor, opts["timeout"], opts["deadline"])
        try:
            return (verify_list(names[0], spec, out) if opts["verify"]
                    else sum_inputs(names, spec, out))
        finally:
            if spec.progress:
                spec.progress.close()


def sum_inputs(names, spec, out):
    """One "VALUE  NAME" line per input; returns the exit status."""
    status = EXIT_OK
    for name in names or ["-"]:
        try:
            value = checksum_of_input(name, spec)
        except InputError as e:
            error(f"{name}: {e}")
            status = EXIT_TROUBLE
            continue
        out.write(value.encode() + b"  " + os.fsencode(name) + b"\n")
    return status


VERIFY_OPTIONS = (
    Option("jobs", "j", "N", "hash the file's ranges with N threads (1 to 64)"),
    Option("scheduler", None, "ADDRESS", "hash them on the Dask cluster at ADDRESS"),
    LIMIT_OPTIONS[0],
    Option("deadline", None, "SECONDS",
           "give up when reading the object's checksum and FILE\n"
           "takes longer than SECONDS (default: no deadline)"),
    HELP_OPTION,
)
VERIFY_HELP = help_text(
    ["verify [-j N] [--scheduler ADDRESS] [--timeout SECONDS] [--deadline SECONDS] FILE URL"],
    "Whether FILE holds what the S3 object URL stores: reads the object's checksum,\n"
    "its type (FULL_OBJECT or COMPOSITE) and its part sizes, computes the same value\n"
    "from FILE, prints \"FILE: OK\" or \"FILE: FAILED\" with both values.",
    VERIFY_OPTIONS,
    "Exit status: 0 OK, 1 FAILED, 2 bad usage, or FILE or URL could not be read.\n")


def cmd_verify(args, out):
    threads, address, operands = 1, None, []
    limits = {"timeout": None, "deadline": None}
    for option, value in read_options("verify", VERIFY_OPTIONS, args):
        if option is None:
            operands.append(value)
        elif option.name == "help":
            out.write(VERIFY_HELP.encode())
            return EXIT_OK
        elif option.name == "jobs":
            threads = parse_count(value, 1, MAX_THREADS)
            if threads is None:
                raise Trouble(f"-j: '{value}' is not a thread count from 1 to {MAX_THREADS}")
        elif option.name in limits:
            limits[option.name] = parse_seconds(option.name, value)
        else:
            address = value
    if len(operands) != 2:
        raise Trouble(f"verify takes a FILE and a URL (see {see_help('verify')})")
    path, url = operands
    limits["deadline"] = objects._deadline(limits["deadline"])  # one for both calls
    try:
        stored = objects.stored_checksum(url, **limits)
    except Exception as e:  # the SDK's own errors too
        error(f"{url}: {reason_of(e, url)}")
        return EXIT_TROUBLE
    with DaskExecutor(address) as executor:
        pool = ThreadPoolExecutor(threads) if executor is None and threads > 1 else None
        try:
            result = objects.verify_upload(path, url, executor=executor or pool, stored=stored,
                                           **limits)
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
        operands = []
        for option, value in read_options("", MAIN_OPTIONS, argv, stop_at_operand=True):
            if option is None:
                operands.append(value)
            else:
                out.write((USAGE if option.name == "help"
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
