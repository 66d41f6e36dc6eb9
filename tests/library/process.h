/* SPDX-License-Identifier: MIT */
/*
 * Child processes for the tests that run each scenario in a fresh process.  Windows has no
 * fork: there process_run_self starts this program again with CreateProcess, and
 * setenv/unsetenv and the wait-status macros are given as the tests use them elsewhere, a
 * status being the child's exit code (a crash's is its exception code, never 0).
 */
#ifndef CRCFORGE_PROCESS_H
#define CRCFORGE_PROCESS_H

#if defined(_WIN32)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

static inline int setenv(const char *name, const char *value, int overwrite)
{
    if (!overwrite && getenv(name) != NULL)
        return 0;
    return _putenv_s(name, value) == 0 ? 0 : -1;
}

static inline int unsetenv(const char *name)
{
    return _putenv_s(name, "") == 0 ? 0 : -1; /* an empty value removes the variable */
}

#define WIFEXITED(status) 1
#define WEXITSTATUS(status) (status)
#define WIFSIGNALED(status) 0
#define WTERMSIG(status) 0

/* Appends arg to the command line cmd (of capacity cap, *len used) quoted so that the C
 * runtime's parser gives it back unchanged: backslashes count only before a quote, where
 * they are doubled, and the quote itself is escaped.  0, or -1 when cmd is full. */
static inline int process_quote_arg(char *cmd, size_t cap, size_t *len, const char *arg)
{
    size_t n = *len;
#define PROCESS_PUT(c)          \
    do {                        \
        if (n + 1 >= cap)       \
            return -1;          \
        cmd[n++] = (char)(c);   \
    } while (0)
    if (n > 0)
        PROCESS_PUT(' ');
    PROCESS_PUT('"');
    for (const char *p = arg;; p++) {
        size_t slashes = 0;
        while (*p == '\\')
            p++, slashes++;
        if (*p == '\0' || *p == '"') {
            /* doubled before the closing quote or an escaped one */
            for (size_t i = 0; i < 2 * slashes; i++)
                PROCESS_PUT('\\');
            if (*p == '\0')
                break;
            PROCESS_PUT('\\');
            PROCESS_PUT('"');
        } else {
            for (size_t i = 0; i < slashes; i++)
                PROCESS_PUT('\\');
            PROCESS_PUT(*p);
        }
    }
    PROCESS_PUT('"');
#undef PROCESS_PUT
    cmd[n] = '\0';
    *len = n;
    return 0;
}

/* Runs this program again with the arguments args (after its name; NULL-terminated) and,
 * for the child only, the environment changed by env (NULL-terminated, or NULL): each
 * "NAME=VALUE" set, each "NAME" removed.  Returns the child's exit code, or -1 (with a
 * message) when it could not be run. */
static inline int process_run_self(const char *const *args, const char *const *env)
{
    char self[MAX_PATH * 4], cmd[8192];
    DWORD self_len = GetModuleFileNameA(NULL, self, sizeof self);
    if (self_len == 0 || self_len >= sizeof self) {
        fprintf(stderr, "GetModuleFileName failed (error %lu)\n", GetLastError());
        return -1;
    }
    size_t len = 0;
    cmd[0] = '\0';
    if (process_quote_arg(cmd, sizeof cmd, &len, self) != 0)
        return -1;
    for (size_t i = 0; args[i] != NULL; i++)
        if (process_quote_arg(cmd, sizeof cmd, &len, args[i]) != 0) {
            fprintf(stderr, "command line too long\n");
            return -1;
        }

    /* The child inherits this process's environment: changed for CreateProcess, then
     * put back as it was. */
    enum { MAX_ENV = 8 };
    char names[MAX_ENV][64], *saved[MAX_ENV];
    size_t changed = 0;
    for (size_t i = 0; env != NULL && env[i] != NULL && changed < MAX_ENV; i++, changed++) {
        const char *eq = strchr(env[i], '=');
        size_t name_len = eq ? (size_t)(eq - env[i]) : strlen(env[i]);
        if (name_len >= sizeof names[0])
            name_len = sizeof names[0] - 1;
        memcpy(names[i], env[i], name_len);
        names[i][name_len] = '\0';
        const char *old = getenv(names[i]);
        saved[i] = old ? _strdup(old) : NULL;
        if (eq)
            _putenv_s(names[i], eq + 1);
        else
            _putenv_s(names[i], "");
    }

    fflush(NULL);
    STARTUPINFOA si;
    PROCESS_INFORMATION pi;
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    /* Wine 8 on a loaded machine once refused a start with ERROR_INTERNAL_ERROR, the child
     * never run: such a start is tried twice more before the scenario fails. */
    BOOL started;
    DWORD error;
    for (int attempt = 0;; attempt++) {
        started = CreateProcessA(self, cmd, NULL, NULL, TRUE, 0, NULL, NULL, &si, &pi);
        error = GetLastError();
        if (started || error != ERROR_INTERNAL_ERROR || attempt == 2)
            break;
        Sleep(200);
    }

    for (size_t i = 0; i < changed; i++) {
        _putenv_s(names[i], saved[i] ? saved[i] : "");
        free(saved[i]);
    }
    if (!started) {
        fprintf(stderr, "CreateProcess %s failed (error %lu)\n", self, error);
        return -1;
    }
    DWORD code = (DWORD)-1;
    WaitForSingleObject(pi.hProcess, INFINITE);
    GetExitCodeProcess(pi.hProcess, &code);
    CloseHandle(pi.hProcess);
    CloseHandle(pi.hThread);
    return (int)code;
}
#else
#include <sys/wait.h>
#include <unistd.h>
#endif

#endif /* CRCFORGE_PROCESS_H */
