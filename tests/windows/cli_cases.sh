#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The command-line tool on Windows: BUILD_DIR/crcforge.exe (a MinGW-w64 build) run under
# Wine (wine64, WINEDEBUG=-all, in the WINEPREFIX the caller exports), each value checked
# against an independent reference -- the catalogue's check values, python3's zlib.crc32
# and binascii.crc_hqx -- and each output compared byte for byte: every command (list
# with each model's check value, keyslot, cpu, bench's hand-over), binary reading of files
# and standard input, UTF-8 file names, a path with backslashes, a sparse 5 GiB file
# (-j 1, -j 2, parts, standard input), -j 2, sum -c of a list with CRLF line ends, the
# progress line on a console, and bad input (a directory, a missing file, a name that is
# not UTF-8, a path over 260 characters, a file another process holds locked): each
# named, the status as on Linux, the other inputs still done.  About 90 s.
# Exits non-zero after naming every case that failed.
#
# Usage: tests/windows/cli_cases.sh BUILD_DIR
# Needs wine64, python3, script (util-linux) and a MinGW-w64 C compiler (MINGW_CC,
# default x86_64-w64-mingw32-gcc) for the program that holds a file locked.
set -uo pipefail

if [ $# -ne 1 ]; then
  echo "usage: tests/windows/cli_cases.sh BUILD_DIR" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$1/crcforge.exe" ]; then
  echo "cli_cases.sh: no crcforge.exe in $1" >&2
  exit 2
fi
exe=$(realpath "$1/crcforge.exe")
wine=$(command -v wine64 || echo /usr/lib/wine/wine64) # Debian keeps it off PATH
cc=${MINGW_CC:-x86_64-w64-mingw32-gcc}
for tool in "$wine" python3 script "$cc"; do
  if ! command -v "$tool" >/dev/null; then
    echo "cli_cases.sh: $tool not found" >&2
    exit 2
  fi
done
export WINEDEBUG=-all
# A Wine server started by a run would keep that run's output open after it ended (a
# caller reading a pipe would wait on it): one is started here first, with nothing open,
# and kept for a while after the last run (one already running is used as it is).
"$(command -v wineserver || echo /usr/lib/wine/wineserver)" -p60 </dev/null >/dev/null 2>&1

work=$(mktemp -d "${TMPDIR:-/tmp}/crcforge-windows-cli.XXXXXX")
locker=
cleanup() {
  touch "$work/stop" 2>/dev/null
  [ -z "$locker" ] || wait "$locker" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 2

failures=()
# The tool under Wine in $work: stdout in ./out, stderr in ./err, the status in $rc.
run() { "$wine" "$exe" "$@" >out 2>err; rc=$?; }
# The same with standard input from a file.
run_from() { local input=$1; shift; "$wine" "$exe" "$@" <"$input" >out 2>err; rc=$?; }

# expect CASE STATUS STDOUT [STDERR_PART...]: the last run's status, its stdout exactly
# (bytes), and stderr holding each part (empty when no part is given).
expect() {
  local name=$1 want_rc=$2 want_out=$3 ok=1 part
  shift 3
  if [ "$rc" != "$want_rc" ]; then
    echo "  exit status $rc, expected $want_rc" >&2
    ok=0
  fi
  if ! printf '%s' "$want_out" | cmp -s - out; then
    echo "  stdout was:" >&2
    od -c out | head -n 12 >&2
    echo "  expected:" >&2
    printf '%s' "$want_out" | od -c | head -n 12 >&2
    ok=0
  fi
  for part in "$@"; do
    if ! grep -qF -- "$part" err; then
      echo "  stderr lacks: $part" >&2
      ok=0
    fi
  done
  if [ $# -eq 0 ] && [ -s err ]; then
    ok=0
  fi
  if [ $ok = 1 ]; then
    echo "ok: $name"
  else
    sed 's/^/  stderr: /' err >&2
    echo "FAILED: $name" >&2
    failures+=("$name")
  fi
}

# CRC-32 (zlib's) of a file, in hex.
zlib_crc32() {
  python3 -c 'import sys, zlib; print("%08x" % zlib.crc32(open(sys.argv[1], "rb").read()))' "$1"
}

# --- The catalogue's check values (the CRCs of "123456789").
printf 123456789 >nine.txt
run sum -a crc32c -a crc32 -a crc64-nvme nine.txt
expect "check values of three models" 0 $'CRC32C (nine.txt) = e3069283\nCRC32 (nine.txt) = cbf43926\nCRC64NVME (nine.txt) = ae8b14860a799888\n'

# --- Every catalogue model that `list` prints: sum of "123456789" by each (16 a run, in
# tagged lines in -a order) is the check value the catalogue gives it.
run list
cp out models.txt
list_rc=$rc
python3 - models.txt >check.args <<'EOF'
import re, sys
models = re.findall(r'^name="([^"]+)" .* check=0x([0-9a-f]+) ', open(sys.argv[1]).read(), re.M)
for i in range(0, len(models), 16):
    print(" ".join("%s=%s" % m for m in models[i:i + 16]))
EOF
models=0
wrong=()
while read -r -a batch; do
  args=()
  for m in "${batch[@]}"; do
    args+=(-a "${m%=*}")
  done
  run sum --tag "${args[@]}" nine.txt
  models=$((models + ${#batch[@]}))
  if ! python3 - out "${batch[@]}" <<'EOF'
import sys
values = [l.rsplit(" = ", 1)[-1] for l in open(sys.argv[1]).read().splitlines()]
want = [m.rsplit("=", 1)[1] for m in sys.argv[2:]]
sys.exit(0 if values == want else 1)
EOF
  then
    wrong+=("${batch[*]} (status $rc: $(cat out err))")
  fi
done <check.args
if [ "$list_rc" = 0 ] && [ "$models" -ge 100 ] && [ ${#wrong[@]} -eq 0 ]; then
  echo "ok: list, and sum of each of its $models models gives its check value"
else
  printf '  %s\n' "${wrong[@]}" >&2
  echo "FAILED: list (status $list_rc, $models models)" >&2
  failures+=("list and every model's check value")
fi

# --- keyslot: Redis's rule, against binascii.crc_hqx (CRC-16/XMODEM) mod 16384; the keys
# of a file are its lines as raw bytes (a CRLF line's key ends in CR).
printf 'somekey\r\nuser:{42}:cart\n{}x\n' >keys.txt
want=$(python3 - keys.txt somekey naïve <<'EOF'
import binascii, os, sys
def slot(key):
    start = key.find(b"{")
    if start >= 0:
        end = key.find(b"}", start + 1)
        if end > start + 1:
            key = key[start + 1:end]
    return binascii.crc_hqx(key, 0) % 16384
keys = [os.fsencode(a) for a in sys.argv[2:]] + open(sys.argv[1], "rb").read().split(b"\n")[:-1]
print("\n".join(str(slot(k)) for k in keys))
EOF
)
run keyslot somekey naïve --file keys.txt
expect "keyslot of UTF-8 arguments and of a file's CRLF and LF lines" 0 "$want"$'\n'
run cpu
if [ "$rc" = 0 ] && grep -q '^features: ' out && grep -q '^CRC-32/ISCSI ' out; then
  echo "ok: cpu"
else
  echo "FAILED: cpu (status $rc): $(cat out err)" >&2
  failures+=("cpu")
fi

# --- bench runs crcforge-bench from beside the tool, its arguments as they were given
# (split from the UTF-16 command line, quoted again for the child) and its exit status
# the tool's: a stand-in that prints its arguments.
if "$cc" -O2 -o echo_args.exe "$here/echo_args.c" 2>cc.err; then
  mkdir beside
  cp "$exe" beside/crcforge.exe
  cp echo_args.exe beside/crcforge-bench.exe
  "$wine" beside/crcforge.exe bench 'a b' 'q"uote' 'back\' 'x\\"y' '' >out 2>err
  rc=$?
  expect "bench hands its arguments on as given" 7 $'[bench]\n[a b]\n[q"uote]\n[back\\]\n[x\\\\"y]\n[]\n'
else
  cat cc.err >&2
  echo "FAILED: bench ($cc could not build echo_args.c)" >&2
  failures+=("bench")
fi

# --- Binary reading: CR LF, a lone CR, Ctrl-Z (0x1a: end of file in text mode) and NUL
# are data; a file, standard input from a file and from a pipe.
printf 'a\r\nb\x1a\r\n\x00c\rd\n\x1a\r' >binary.bin
head -c 3000000 /dev/urandom >>binary.bin
want=$(zlib_crc32 binary.bin)
run sum -a crc32 binary.bin
expect "a file with CR LF and Ctrl-Z bytes, read in binary" 0 "$want  binary.bin"$'\n'
run_from binary.bin sum -a crc32
expect "standard input from a file, in binary" 0 "$want  -"$'\n'
cat binary.bin | "$wine" "$exe" sum -a crc32 >out 2>err
rc=$?
expect "standard input from a pipe, in binary" 0 "$want  -"$'\n'

# --- A UTF-8 name (NFC, two scripts) and one with spaces: opened and printed in UTF-8.
name='naïve-ファイル.bin'
printf 'x\r\ny' >"$name"
utf8_crc=$(zlib_crc32 "$name")
run sum -a crc32 "$name"
expect "a UTF-8 file name, printed in UTF-8" 0 "$utf8_crc  $name"$'\n'
printf 'two' >'two words.bin'
run sum -a crc32 'two words.bin' nine.txt
expect "a name with a space" 0 "$(zlib_crc32 'two words.bin')  two words.bin"$'\ncbf43926  nine.txt\n'

# --- A Windows path with backslashes: written escaped, as sha256sum writes a backslash,
# and read back by sum -c, which prints it as it is (Debian's sha256sum -c does).
win_path="Z:$(printf '%s' "$work" | tr / '\\')\\nine.txt"
run sum "$win_path"
expect "a path with backslashes, written escaped" 0 "\\e3069283  ${win_path//\\/\\\\}"$'\n'
cp out backslash.list
run sum -c backslash.list
expect "a path with backslashes, read back by sum -c" 0 "$win_path: OK"$'\n'

# --- sum -c with CRLF line ends (untagged and tagged lines): read, and LF written.
printf 'cbf43926  nine.txt\r\nCRC32C (nine.txt) = e3069283\r\n%s  %s\r\n' "$utf8_crc" "$name" >crlf.list
run sum -c -a crc32 crlf.list
expect "sum -c of a CRLF list" 0 "nine.txt: OK"$'\n'"nine.txt: OK"$'\n'"$name: OK"$'\n'
printf 'cbf43927  nine.txt\r\ncbf43926  nine.txt\r\n' >crlf-bad.list
run sum -c -a crc32 crlf-bad.list
expect "sum -c of a CRLF list with a mismatch" 1 $'nine.txt: FAILED\nnine.txt: OK\n' \
  "WARNING: 1 computed checksum did NOT match"

# --- -j 2 and parts on real data (40 MiB: above the size where threads start).
head -c 41943040 /dev/urandom >random.bin
read -r whole parts < <(python3 - random.bin $((8 << 20)) <<'EOF'
import sys, zlib
data = open(sys.argv[1], "rb").read()
size = int(sys.argv[2])
crcs = [zlib.crc32(data[i:i + size]) for i in range(0, len(data), size)]
print("%08x" % zlib.crc32(data),
      "%08x-%d" % (zlib.crc32(b"".join(c.to_bytes(4, "big") for c in crcs)), len(crcs)))
EOF
)
run sum -a crc32 -j 2 random.bin
expect "-j 2 on 40 MiB" 0 "$whole  random.bin"$'\n'
run sum -a crc32 -j 2 --part-size 8MiB random.bin
expect "-j 2 with 8 MiB parts (S3's composite)" 0 "$parts  random.bin"$'\n'

# --- A sparse 5 GiB file, its last bytes not zero: offsets past 4 GiB.  The reference is
# zlib over the same bytes (about 10 s), whole and in 1 GiB parts.
truncate -s 5G big.bin
printf 123456789 | dd of=big.bin bs=1 seek=$(((5 << 30) - 20)) conv=notrunc status=none
read -r whole parts < <(python3 - <<'EOF'
import zlib
size, part = 5 << 30, 1 << 30
tail = b"123456789" + bytes(11)
zeros = bytes(64 << 20)
crcs = []
whole = 0
for start in range(0, size, part):
    c, left = 0, part
    while left > 0:
        chunk = zeros if start + part < size or left > len(zeros) else zeros[:-len(tail)] + tail
        c = zlib.crc32(chunk, c)
        whole = zlib.crc32(chunk, whole)
        left -= len(chunk)
    crcs.append(c)
print("%08x" % whole, "%08x-%d" % (zlib.crc32(b"".join(c.to_bytes(4, "big") for c in crcs)),
                                   len(crcs)))
EOF
)
run sum -a crc32 -j 1 big.bin
expect "a sparse 5 GiB file, -j 1" 0 "$whole  big.bin"$'\n'
run sum -a crc32 -j 2 big.bin
expect "a sparse 5 GiB file, -j 2" 0 "$whole  big.bin"$'\n'
run sum -a crc32 -j 2 --part-size 1GiB big.bin
expect "a sparse 5 GiB file in 1 GiB parts" 0 "$parts  big.bin"$'\n'
run_from big.bin sum -a crc32 -j 2
expect "a sparse 5 GiB file as standard input, -j 2" 0 "$whole  -"$'\n'

# --- The progress line on a console (script gives Wine a terminal, so a console): the
# line is shown, rewritten in place, and the value follows it.  The input is a pipe that
# pauses 3 s halfway, so the line is due (after a second) however fast the machine reads.
cat >paced.py <<'EOF'
import sys, time
half = bytes(range(256)) * 32768  # 8 MiB
sys.stdout.buffer.write(half)
sys.stdout.flush()
time.sleep(3)
sys.stdout.buffer.write(half)
EOF
paced=$(python3 -c 'import zlib; print("%08x" % zlib.crc32(bytes(range(256)) * 65536))')
script -qec "python3 paced.py | $(printf '%q ' "$wine" "$exe") sum -a crc32 -j 1" /dev/null >tty.out 2>&1
rc=$?
if python3 - "$paced" <<'EOF'
import re, sys
raw = open("tty.out", "rb").read()
# Wine's console may draw a blank as "cursor forward" rather than a space.
raw = re.sub(rb"\x1b\[([0-9]*)C", lambda m: b" " * int(m.group(1) or 1), raw)
text = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", raw).decode()
lines = re.findall(r"crcforge: -: [0-9.]+ [KM]iB, [0-9.]+ [KMG]iB/s", text)
sys.exit(0 if lines and ("%s  -" % sys.argv[1]) in text else 1)
EOF
then
  echo "ok: the progress line on a console"
else
  echo "  the console showed: $(tr -d '\033' <tty.out | head -c 400)" >&2
  echo "FAILED: the progress line on a console (status $rc)" >&2
  failures+=("the progress line on a console")
fi

# --- Bad input: each named, exit 1 as on Linux, the other inputs still done.
mkdir adir
run sum adir nine.txt
expect "a directory" 1 $'e3069283  nine.txt\n' "crcforge: adir: Is a directory"
run sum missing.bin nine.txt
expect "a missing file" 1 $'e3069283  nine.txt\n' "crcforge: missing.bin: No such file or directory"

# A name that is not UTF-8 cannot come through Wine's command line (it converts the
# bytes), but a list can hold one.
printf 'e3069283  bad\xffname.bin\ne3069283  nine.txt\n' >badname.list
run sum -c badname.list
expect "a name that is not UTF-8, in a list" 1 $'bad\xffname.bin: FAILED open or read\nnine.txt: OK\n' \
  $'crcforge: bad\xffname.bin: not a valid UTF-8 name' "WARNING: 1 listed file could not be read"

# A path of over 260 characters, relative and absolute (drive Z: is /), and in a list.
long=long
for i in 1 2 3 4 5 6 7 8 9 10; do
  long=$long/directory-with-a-long-name-$i
done
mkdir -p "$long"
printf 123456789 >"$long/f.txt"
run sum "$long/f.txt" "Z:$work/$long/f.txt" nine.txt
expect "a path of ${#long} characters" 0 "e3069283  $long/f.txt"$'\n'"e3069283  Z:$work/$long/f.txt"$'\n'$'e3069283  nine.txt\n'
printf 'e3069283  %s/f.txt\n' "$long" >long.list
run sum -c long.list
expect "a long path in a list" 0 "$long/f.txt: OK"$'\n'
run sum "$long/missing.txt" nine.txt
expect "a long path that does not exist" 1 $'e3069283  nine.txt\n' \
  "crcforge: $long/missing.txt: No such file or directory"

# A file another process holds open with no sharing.
if "$cc" -O2 -o lock_file.exe "$here/lock_file.c" 2>cc.err; then
  printf 123456789 >locked.bin
  "$wine" ./lock_file.exe locked.bin ready stop &
  locker=$!
  for _ in $(seq 300); do
    [ -e ready ] && break
    sleep 0.1
  done
  run sum locked.bin nine.txt
  expect "a locked file" 1 $'e3069283  nine.txt\n' \
    "crcforge: locked.bin: in use by another process that does not share it (locked)"
  printf 'e3069283  locked.bin\ne3069283  nine.txt\n' >locked.list
  run sum -c locked.list
  expect "a locked file in a list" 1 $'locked.bin: FAILED open or read\nnine.txt: OK\n' \
    "crcforge: locked.bin: in use by another process" "WARNING: 1 listed file could not be read"
  touch stop
  wait "$locker"
  locker=
  run sum locked.bin
  expect "the file once let go" 0 $'e3069283  locked.bin\n'
else
  cat cc.err >&2
  echo "FAILED: a locked file ($cc could not build lock_file.c)" >&2
  failures+=("a locked file")
fi

if [ ${#failures[@]} -gt 0 ]; then
  echo "cli_cases.sh: ${#failures[@]} case(s) failed:" >&2
  printf '  %s\n' "${failures[@]}" >&2
  exit 1
fi
echo "cli_cases.sh: every case passed"
