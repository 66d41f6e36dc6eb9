/*
 * The ABI's fixed facts, through the shared library a program loads, with the stable
 * header alone: the version macros against crcforge_version() and the project's version
 * (CMake's, CRCFORGE_PROJECT_VERSION), and crcforge_state's size, alignment and copying.
 */
#include <stdalign.h>
#include <string.h>

#include "check.h"
#include "crcforge.h"

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
    return check_end();
}
