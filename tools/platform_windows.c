/* SPDX-License-Identifier: MIT */
/* tools/platform.h on Windows: names are UTF-8 in the tool and UTF-16 to Windows, converted
 * here both ways; files are read through their handles (binary, 64-bit offsets); the
 * console is asked through its own API. */
#ifdef _WIN32

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "platform.h"

#ifndef ENABLE_VIRTUAL_TERMINAL_PROCESSING
#define ENABLE_VIRTUAL_TERMINAL_PROCESSING 0x0004
#endif

/* The longest path Windows takes with the \\?\ prefix, in UTF-16 units. */
#define LONGEST_PATH 32767
/* Paths from this length on get the prefix: below MAX_PATH (260) with room for the 12
 * characters of an 8.3 name that some calls add to a directory's path. */
#define PREFIX_FROM (MAX_PATH - 12)

/* UTF-8 and UTF-16, each way, as WTF-8: a lone surrogate (Windows allows them in names)
 * is written as its own three bytes and read back, so every name Windows has survives the
 * trip; anything else that is not UTF-8 is refused. */

/* The UTF-16 of text (NUL-terminated), malloc()ed; NULL with errno PLATFORM_EBADNAME
 * (not UTF-8) or ENOMEM.  extra: units to leave free before it (for a prefix). */
static wchar_t *to_utf16(const char *text, size_t extra, size_t *units)
{
    size_t len = strlen(text);
    wchar_t *out = malloc((extra + len + 1) * sizeof *out);
    if (out == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    const unsigned char *s = (const unsigned char *)text;
    size_t n = extra;
    for (size_t i = 0; i < len;) {
        unsigned c = s[i], need, min;
        uint32_t cp;
        if (c < 0x80) {
            cp = c, need = 0, min = 0;
        } else if (c >= 0xc2 && c < 0xe0) {
            cp = c & 0x1f, need = 1, min = 0x80;
        } else if (c >= 0xe0 && c < 0xf0) {
            cp = c & 0x0f, need = 2, min = 0x800;
        } else if (c >= 0xf0 && c < 0xf5) {
            cp = c & 0x07, need = 3, min = 0x10000;
        } else {
            goto bad;
        }
        if (len - i - 1 < need)
            goto bad;
        for (unsigned k = 1; k <= need; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                goto bad;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff)
            goto bad;
        i += need + 1;
        if (cp >= 0x10000) {
            out[n++] = (wchar_t)(0xd800 + ((cp - 0x10000) >> 10));
            out[n++] = (wchar_t)(0xdc00 + ((cp - 0x10000) & 0x3ff));
        } else {
            out[n++] = (wchar_t)cp; /* a surrogate alone: WTF-8 */
        }
    }
    out[n] = 0;
    if (units != NULL)
        *units = n;
    return out;
bad:
    free(out);
    errno = PLATFORM_EBADNAME;
    return NULL;
}

/* The UTF-8 (WTF-8) of the len units at w, malloc()ed and NUL-terminated; NULL. */
static char *to_utf8(const wchar_t *w, size_t len)
{
    char *out = malloc(3 * len + 1), *o = out;
    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < len; i++) {
        uint32_t cp = w[i];
        if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < len && w[i + 1] >= 0xdc00 &&
            w[i + 1] < 0xe000)
            cp = 0x10000 + ((cp - 0xd800) << 10) + (w[++i] - 0xdc00);
        if (cp < 0x80) {
            *o++ = (char)cp;
        } else if (cp < 0x800) {
            *o++ = (char)(0xc0 | cp >> 6);
            *o++ = (char)(0x80 | (cp & 0x3f));
        } else if (cp < 0x10000) {
            *o++ = (char)(0xe0 | cp >> 12);
            *o++ = (char)(0x80 | (cp >> 6 & 0x3f));
            *o++ = (char)(0x80 | (cp & 0x3f));
        } else {
            *o++ = (char)(0xf0 | cp >> 18);
            *o++ = (char)(0x80 | (cp >> 12 & 0x3f));
            *o++ = (char)(0x80 | (cp >> 6 & 0x3f));
            *o++ = (char)(0x80 | (cp & 0x3f));
        }
    }
    *o = '\0';
    return out;
}

/* The errno value, or one of platform.h's, that says what a Windows error says. */
static int error_of(DWORD e)
{
    switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_NET_NAME:
        return ENOENT;
    case ERROR_ACCESS_DENIED:
        return EACCES;
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
        return PLATFORM_ELOCKED;
    case ERROR_FILENAME_EXCED_RANGE:
        return ENAMETOOLONG;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
        return ENOMEM;
    case ERROR_DIRECTORY:
        return ENOTDIR;
    case ERROR_INVALID_HANDLE:
        return EBADF;
    default:
        return PLATFORM_ESYSTEM + (int)(e & 0xffff);
    }
}

static HANDLE handle_of(int fd)
{
    return fd < 0 ? INVALID_HANDLE_VALUE : (HANDLE)_get_osfhandle(fd);
}

/* The Windows command line split as the C runtime splits it for wmain (the rules of
 * "Parsing C command-line arguments"): the program's name up to a space, or between
 * quotes; then arguments between spaces and tabs, where quotes group and 2n backslashes
 * before a quote are n backslashes, 2n+1 are n and a quote, and "" in a quoted part is
 * a quote. */
static wchar_t **split_command_line(const wchar_t *line, int *argc)
{
    size_t len = wcslen(line), cap = len / 2 + 2;
    wchar_t **argv = calloc(cap, sizeof *argv);
    wchar_t *buf = malloc((len + cap) * sizeof *buf), *o = buf;
    if (argv == NULL || buf == NULL) {
        free(argv);
        free(buf);
        return NULL;
    }
    int n = 0;
    const wchar_t *p = line;
    argv[n++] = o;
    if (*p == L'"') {
        for (p++; *p != 0 && *p != L'"'; p++)
            *o++ = *p;
        p += *p == L'"';
    } else {
        for (; *p != 0 && *p != L' ' && *p != L'\t'; p++)
            *o++ = *p;
    }
    *o++ = 0;
    for (;;) {
        while (*p == L' ' || *p == L'\t')
            p++;
        if (*p == 0)
            break;
        argv[n++] = o;
        int quoted = 0;
        while (*p != 0 && (quoted || (*p != L' ' && *p != L'\t'))) {
            size_t slashes = 0;
            while (p[slashes] == L'\\')
                slashes++;
            if (p[slashes] != L'"') { /* backslashes not before a quote, or a character */
                size_t take = slashes > 0 ? slashes : 1;
                for (; take > 0; take--)
                    *o++ = *p++;
                continue;
            }
            for (size_t k = 0; k < slashes / 2; k++)
                *o++ = L'\\';
            p += slashes;
            if (slashes % 2 == 1) {
                *o++ = L'"';
                p++;
            } else if (quoted && p[1] == L'"') {
                *o++ = L'"';
                p += 2;
            } else {
                quoted = !quoted;
                p++;
            }
        }
        *o++ = 0;
    }
    argv[n] = NULL;
    *argc = n;
    return argv;
}

static UINT console_output_cp;

static void restore_console(void)
{
    SetConsoleOutputCP(console_output_cp);
}

int platform_start(int *argc, char ***argv)
{
    /* The C runtime's argv is in the ANSI code page: the UTF-16 command line is read. */
    _setmode(0, _O_BINARY);
    _setmode(1, _O_BINARY); /* "\n" is written as it is: lists have LF line ends */
    _setmode(2, _O_BINARY);
    DWORD mode;
    if (GetConsoleMode(GetStdHandle(STD_OUTPUT_HANDLE), &mode) ||
        GetConsoleMode(GetStdHandle(STD_ERROR_HANDLE), &mode)) {
        console_output_cp = GetConsoleOutputCP();
        if (console_output_cp != CP_UTF8 && SetConsoleOutputCP(CP_UTF8))
            atexit(restore_console);
    }
    int n;
    wchar_t **wide = split_command_line(GetCommandLineW(), &n);
    char **out = wide != NULL ? calloc((size_t)n + 1, sizeof *out) : NULL;
    for (int i = 0; out != NULL && i < n; i++) {
        if ((out[i] = to_utf8(wide[i], wcslen(wide[i]))) == NULL)
            out = NULL; /* the process ends: nothing to free */
    }
    if (wide != NULL) {
        free(wide[0]);
        free(wide);
    }
    if (out == NULL) {
        fputs("crcforge: the command line: out of memory\n", stderr);
        return -1;
    }
    *argc = n;
    *argv = out;
    return 0;
}

int platform_cond_init(pthread_cond_t *cond)
{
    return pthread_cond_init(cond, NULL);
}

/* The name to give Windows: UTF-16, and with the \\?\ prefix (\\?\UNC\ for \\server\share)
 * when it is long, which lifts MAX_PATH; the prefix turns off Windows' own reading of the
 * name, so the name is made whole first (GetFullPathNameW: '/' to '\', ".", ".."). */
static wchar_t *windows_name(const char *name)
{
    size_t units;
    wchar_t *w = to_utf16(name, 0, &units);
    if (w == NULL || units < PREFIX_FROM || wcsncmp(w, L"\\\\?\\", 4) == 0 ||
        wcsncmp(w, L"\\\\.\\", 4) == 0)
        return w;
    wchar_t *full = malloc((LONGEST_PATH + 8) * sizeof *full);
    DWORD n = full != NULL ? GetFullPathNameW(w, LONGEST_PATH, full + 8, NULL) : 0;
    free(w);
    if (n == 0 || n >= LONGEST_PATH) {
        errno = full == NULL ? ENOMEM : n == 0 ? error_of(GetLastError()) : ENAMETOOLONG;
        free(full);
        return NULL;
    }
    wchar_t *path = full + 8;
    if (wcsncmp(path, L"\\\\", 2) == 0) { /* \\server\share\x: \\?\UNC\server\share\x */
        path -= 6;
        memcpy(path, L"\\\\?\\UNC", 7 * sizeof *path);
    } else {
        path -= 4;
        memcpy(path, L"\\\\?\\", 4 * sizeof *path);
    }
    memmove(full, path, (wcslen(path) + 1) * sizeof *full);
    return full;
}

int platform_open(const char *name)
{
    wchar_t *w = windows_name(name);
    if (w == NULL)
        return -1;
    /* Others may read, write or delete it meanwhile, as on POSIX; the change is then seen
     * by the size and time checks.  BACKUP_SEMANTICS opens a directory, so that it is named
     * as one rather than as "access denied". */
    HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           NULL, OPEN_EXISTING,
                           FILE_ATTRIBUTE_NORMAL | FILE_FLAG_BACKUP_SEMANTICS, NULL);
    DWORD e = GetLastError();
    free(w);
    if (h == INVALID_HANDLE_VALUE) {
        errno = error_of(e);
        return -1;
    }
    int fd = _open_osfhandle((intptr_t)h, _O_RDONLY | _O_BINARY);
    if (fd < 0) {
        CloseHandle(h);
        errno = EMFILE;
    }
    return fd;
}

int platform_close(int fd)
{
    return _close(fd);
}

/* One ReadFile of at most 1 GiB (its count is 32-bit), at offset when at is not NULL. */
static ssize_t read_handle(int fd, void *buf, size_t len, OVERLAPPED *at)
{
    HANDLE h = handle_of(fd);
    if (h == INVALID_HANDLE_VALUE) {
        errno = EBADF;
        return -1;
    }
    DWORD got = 0, want = len > (1u << 30) ? 1u << 30 : (DWORD)len;
    if (ReadFile(h, buf, want, &got, at))
        return (ssize_t)got;
    DWORD e = GetLastError();
    if (e == ERROR_HANDLE_EOF || e == ERROR_BROKEN_PIPE) /* past the end; a pipe closed */
        return 0;
    errno = error_of(e);
    return -1;
}

ssize_t platform_read(int fd, void *buf, size_t len)
{
    return read_handle(fd, buf, len, NULL);
}

ssize_t platform_pread(int fd, void *buf, size_t len, uint64_t offset)
{
    OVERLAPPED at;
    memset(&at, 0, sizeof at);
    at.Offset = (DWORD)offset;
    at.OffsetHigh = (DWORD)(offset >> 32);
    return read_handle(fd, buf, len, &at);
}

int platform_stat(int fd, struct platform_stat *out)
{
    HANDLE h = handle_of(fd);
    memset(out, 0, sizeof *out);
    out->kind = PLATFORM_OTHER;
    if (h == INVALID_HANDLE_VALUE) { /* a standard stream the process was not given */
        errno = EBADF;
        return -1;
    }
    DWORD type = GetFileType(h);
    if (type == FILE_TYPE_UNKNOWN && GetLastError() != NO_ERROR) {
        errno = error_of(GetLastError());
        return -1;
    }
    if (type != FILE_TYPE_DISK)
        return 0; /* a pipe or a console: read to its end */
    /* The Ex calls, not GetFileInformationByHandle: Wine refuses that one for a standard
     * input redirected from a file. */
    FILE_STANDARD_INFO standard;
    FILE_BASIC_INFO basic;
    if (!GetFileInformationByHandleEx(h, FileStandardInfo, &standard, sizeof standard) ||
        !GetFileInformationByHandleEx(h, FileBasicInfo, &basic, sizeof basic)) {
        errno = error_of(GetLastError());
        return -1;
    }
    out->kind = standard.Directory ? PLATFORM_DIRECTORY : PLATFORM_REGULAR;
    out->size = standard.EndOfFile.QuadPart > 0 ? (uint64_t)standard.EndOfFile.QuadPart : 0;
    /* 100 ns units since 1601. */
    uint64_t t = (uint64_t)basic.LastWriteTime.QuadPart;
    out->mtime_sec = (int64_t)(t / 10000000);
    out->mtime_nsec = (long)(t % 10000000) * 100;
    return 0;
}

int64_t platform_position(int fd)
{
    LARGE_INTEGER zero = {.QuadPart = 0}, at;
    return SetFilePointerEx(handle_of(fd), zero, &at, FILE_CURRENT) ? at.QuadPart : -1;
}

int platform_is_terminal(int fd)
{
    DWORD mode;
    return GetConsoleMode(handle_of(fd), &mode) != 0; /* _isatty is true of NUL too */
}

unsigned platform_columns(int fd)
{
    CONSOLE_SCREEN_BUFFER_INFO info;
    if (!GetConsoleScreenBufferInfo(handle_of(fd), &info))
        return 0;
    return (unsigned)(info.srWindow.Right - info.srWindow.Left + 1);
}

const char *platform_erase_to_end(int fd)
{
    HANDLE h = handle_of(fd);
    DWORD mode;
    if (!GetConsoleMode(h, &mode))
        return NULL;
    if (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING ||
        SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING))
        return "\033[K";
    return NULL; /* a console before Windows 10 prints escapes as they are */
}

const char *platform_error_text(int err)
{
    static _Thread_local char text[256];
    if (err == PLATFORM_ELOCKED)
        return "in use by another process that does not share it (locked)";
    if (err == PLATFORM_EBADNAME)
        return "not a valid UTF-8 name (Windows file names are Unicode)";
    if (err < PLATFORM_ESYSTEM || err > PLATFORM_ESYSTEM + 0xffff)
        return strerror(err);
    DWORD code = (DWORD)(err - PLATFORM_ESYSTEM);
    DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
                             code, MAKELANGID(LANG_ENGLISH, SUBLANG_ENGLISH_US), text,
                             sizeof text, NULL);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == '.' ||
                     text[n - 1] == ' '))
        n--;
    if (n == 0)
        snprintf(text, sizeof text, "Windows error %lu", (unsigned long)code);
    else
        snprintf(text + n, sizeof text - n, " (Windows error %lu)", (unsigned long)code);
    return text;
}

int platform_program_dir(char *out, size_t cap)
{
    wchar_t *w = malloc((LONGEST_PATH + 1) * sizeof *w);
    DWORD n = w != NULL ? GetModuleFileNameW(NULL, w, LONGEST_PATH + 1) : 0;
    char *utf8 = n > 0 && n <= LONGEST_PATH ? to_utf8(w, n) : NULL;
    free(w);
    char *slash = utf8 != NULL ? strrchr(utf8, '\\') : NULL;
    if (slash == NULL || (size_t)(slash - utf8) >= cap) {
        free(utf8);
        errno = slash == NULL ? ENOENT : ENAMETOOLONG;
        return -1;
    }
    *slash = '\0';
    memcpy(out, utf8, (size_t)(slash - utf8) + 1);
    free(utf8);
    return 0;
}

/* text appended to the command line at o as one argument that split_command_line (and
 * the C runtime) reads back as it is; the new end. */
static wchar_t *quote_argument(wchar_t *o, const wchar_t *text)
{
    *o++ = L'"';
    for (const wchar_t *p = text;; p++) {
        size_t slashes = 0;
        while (p[slashes] == L'\\')
            slashes++;
        /* Backslashes before a quote, or before the closing quote, are doubled. */
        size_t copies = p[slashes] == L'"' || p[slashes] == 0 ? 2 * slashes : slashes;
        for (size_t k = 0; k < copies; k++)
            *o++ = L'\\';
        p += slashes;
        if (*p == 0)
            break;
        if (*p == L'"')
            *o++ = L'\\';
        *o++ = *p;
    }
    *o++ = L'"';
    return o;
}

int platform_run_instead(const char *path, char **argv)
{
    wchar_t *program = windows_name(path);
    size_t room = 0;
    for (char **a = argv; *a != NULL; a++)
        room += 2 * strlen(*a) + 3;
    wchar_t *line = malloc((room + 1) * sizeof *line), *o = line;
    int ok = program != NULL && line != NULL;
    for (char **a = argv; ok && *a != NULL; a++) {
        wchar_t *w = to_utf16(*a, 0, NULL);
        if (w == NULL) {
            ok = 0;
            break;
        }
        if (o != line)
            *o++ = L' ';
        o = quote_argument(o, w);
        free(w);
    }
    if (!ok) {
        free(program);
        free(line);
        return -1;
    }
    *o = 0;
    STARTUPINFOW si;
    PROCESS_INFORMATION pi;
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    BOOL started = CreateProcessW(program, line, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi);
    DWORD e = GetLastError();
    free(program);
    free(line);
    if (!started) {
        errno = error_of(e);
        return -1;
    }
    DWORD status = 1;
    WaitForSingleObject(pi.hProcess, INFINITE);
    GetExitCodeProcess(pi.hProcess, &status);
    CloseHandle(pi.hProcess);
    CloseHandle(pi.hThread);
    return (int)status;
}

int platform_is_program(const char *path)
{
    wchar_t *w = windows_name(path);
    DWORD attributes = w != NULL ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;
    free(w);
    return attributes != INVALID_FILE_ATTRIBUTES && !(attributes & FILE_ATTRIBUTE_DIRECTORY);
}

#endif /* _WIN32 */
