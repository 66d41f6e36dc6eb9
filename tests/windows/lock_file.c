/* SPDX-License-Identifier: MIT */
/* lock_file FILE READY STOP: holds FILE open with no sharing at all (as a program that
 * writes a file and lets no one read it does), creates READY once it holds it, and lets
 * go once STOP exists (or after 120 s).  For the locked-file case of cli_cases.sh. */
#include <stdio.h>
#include <windows.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fputs("usage: lock_file FILE READY STOP\n", stderr);
        return 2;
    }
    HANDLE h = CreateFileA(argv[1], GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
                           FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        fprintf(stderr, "lock_file: %s: cannot open (Windows error %lu)\n", argv[1],
                (unsigned long)GetLastError());
        return 1;
    }
    HANDLE ready = CreateFileA(argv[2], GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,
                               FILE_ATTRIBUTE_NORMAL, NULL);
    if (ready == INVALID_HANDLE_VALUE) {
        fprintf(stderr, "lock_file: %s: cannot create\n", argv[2]);
        return 1;
    }
    CloseHandle(ready);
    for (int i = 0; i < 1200 && GetFileAttributesA(argv[3]) == INVALID_FILE_ATTRIBUTES; i++)
        Sleep(100);
    CloseHandle(h);
    return 0;
}
