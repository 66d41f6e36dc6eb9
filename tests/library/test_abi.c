/* SPDX-License-Identifier: MIT */
/*
 * The ABI's fixed facts, through the shared library a program loads, with the stable
 * header alone: the version macros against crcforge_version() and the project's version
 * (CMake's, CRCFORGE_PROJECT_VERSION), and crcforge_state's size, alignment and copying.
 * On Windows also: the functions come from the DLL named with the major version
 * (CRCFORGE_DLL_NAME), whose version resource holds the header's version.
 */
#include <stdalign.h>
#include <string.h>

#include "check.h"
#include "crcforge.h"
#if defined(_WIN32)
#include <windows.h>

static void check_dll(void)
{
    HMODULE dll = GetModuleHandleA(CRCFORGE_DLL_NAME), from = NULL;
    CHECK(dll != NULL, "%s is not loaded", CRCFORGE_DLL_NAME);
    GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                           GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                       (LPCSTR)(void *)crcforge_version, &from);
    CHECK(dll != NULL && from == dll, "crcforge_version is not %s's", CRCFORGE_DLL_NAME);
    if (dll == NULL)
        return;
    char path[MAX_PATH * 4];
    DWORD len = GetModuleFileNameA(dll, path, sizeof path);
    DWORD ignored, size = len ? GetFileVersionInfoSizeA(path, &ignored) : 0;
    CHECK(size > 0, "%s: no version resource", CRCFORGE_DLL_NAME);
    if (size == 0)
        return;
    void *info = malloc(size);
    VS_FIXEDFILEINFO *fixed = NULL;
    char *text = NULL;
    UINT fixed_len = 0, text_len = 0;
    if (info != NULL && GetFileVersionInfoA(path, 0, size, info)) {
        VerQueryValueA(info, "\\", (void **)&fixed, &fixed_len);
        VerQueryValueA(info, "\\StringFileInfo\\040904B0\\FileVersion", (void **)&text,
                       &text_len);
    }
    CHECK(fixed != NULL &&
              fixed->dwFileVersionMS ==
                  ((DWORD)CRCFORGE_VERSION_MAJOR << 16 | CRCFORGE_VERSION_MINOR) &&
              fixed->dwFileVersionLS == (DWORD)CRCFORGE_VERSION_PATCH << 16,
          "the version resource's file version is not %s", CRCFORGE_VERSION);
    CHECK(text != NULL && strcmp(text, CRCFORGE_VERSION) == 0,
          "the version resource's FileVersion text %s, not %s", text ? text : "(none)",
          CRCFORGE_VERSION);
    free(info);
}
#endif

int main(void)
{
    check_begin("test_abi");
    char parts[32];
    snprintf(parts, sizeof parts, "%d.%d.%d", CRCFORGE_VERSION_MAJOR, CRCFORGE_VERSION_MINOR,
             CRCFORGE_VERSION_PATCH);
    CHECK(strcmp(CRCFORGE_VERSION, parts) == 0, "CRCFORGE_VERSION %s, the numbers %s",
          CRCFORGE_VERSION, parts);
    CHECK(strcmp(CRCFORGE_VERSION, CRCFORGE_PROJECT_VERSION) == 0,
          "CRCFORGE_VERSION %s, the CMake project's %s", CRCFORGE_VERSION,
          CRCFORGE_PROJECT_VERSION);
    /* The number's encoding holds only minor and patch versions below 100. */
    CHECK(CRCFORGE_VERSION_MINOR < 100 && CRCFORGE_VERSION_PATCH < 100, "minor/patch %d.%d",
          CRCFORGE_VERSION_MINOR, CRCFORGE_VERSION_PATCH);
    CHECK(crcforge_version() == CRCFORGE_VERSION_NUMBER,
          "crcforge_version() %u, the header's CRCFORGE_VERSION_NUMBER %d", crcforge_version(),
          CRCFORGE_VERSION_NUMBER);

    CHECK(sizeof(crcforge_state) == 32, "sizeof(crcforge_state) %zu, documented 32",
          sizeof(crcforge_state));
    CHECK(alignof(crcforge_state) == alignof(uint64_t), "alignof(crcforge_state) %zu",
          (size_t)alignof(crcforge_state));

    /* A copy of a state continues the same stream on its own: both give the catalogue's
     * check value of CRC-32/ISCSI for "123456789". */
    const crcforge_model *m = crcforge_model_find("crc32c");
    CHECK(m != NULL, "crc32c not found");
    if (m != NULL) {
        crcforge_state s, copy;
        crcforge_init(&s, m);
        crcforge_update(&s, "1234", 4);
        copy = s;
        crcforge_update(&copy, "56789", 5);
        CHECK(crcforge_final(&s) == crcforge_checksum(m, "1234", 4), "the original moved");
        crcforge_update(&s, "56", 2);
        crcforge_update(&s, "789", 3);
        CHECK(crcforge_final(&copy) == 0xe3069283u, "copy: %llx",
              (unsigned long long)crcforge_final(&copy));
        CHECK(crcforge_final(&s) == 0xe3069283u, "original: %llx",
              (unsigned long long)crcforge_final(&s));
    }
#if defined(_WIN32)
    check_dll();
#endif
    return check_end();
}
