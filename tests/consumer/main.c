/* SPDX-License-Identifier: MIT */
/*
 * A program built against the installed crcforge, as a user would build it: the stable
 * header alone, compiled as C and as C++ (tests/stages/15-install.sh).  The values it
 * expects are the catalogue's check values and the key slots the Redis documentation
 * gives for CLUSTER KEYSLOT.
 */
#include <crcforge.h>
#include <stdio.h>

static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "consumer: wrong %s\n", what);
        failures++;
    }
}

int main(void)
{
    unsigned runtime = crcforge_version();
    expect(runtime / 10000 == CRCFORGE_VERSION_MAJOR && runtime >= CRCFORGE_VERSION_NUMBER,
           "library version (crcforge_version)");

    uint32_t crc = crcforge_crc32c(0, "1234", 4);
    expect(crcforge_crc32c(crc, "56789", 5) == 0xe3069283u, "CRC-32C (crcforge_crc32c)");
    expect(crcforge_crc32c_inline(0, "123456789", 9) == 0xe3069283u,
           "CRC-32C (crcforge_crc32c_inline)");

    const crcforge_model *m = crcforge_model_find("crc64-nvme");
    expect(m != NULL, "lookup of crc64-nvme");
    if (m != NULL) {
        crcforge_state s;
        crcforge_init(&s, m);
        crcforge_update(&s, "12345", 5);
        crcforge_update(&s, "6789", 4);
        expect(crcforge_final(&s) == 0xae8b14860a799888u, "CRC-64/NVME (streaming)");
        expect(crcforge_combine(m, crcforge_checksum(m, "1234", 4),
                                crcforge_checksum(m, "56789", 5), 5) == 0xae8b14860a799888u,
               "CRC-64/NVME (combine)");
    }
    expect(crcforge_keyslot("somekey", 7) == 11058, "key slot of somekey");
    expect(crcforge_keyslot("foo{hash_tag}", 13) == 2515, "key slot of foo{hash_tag}");

    printf("consumer %s (crcforge %s, library %u; CRC-32C inline path %s)\n",
           failures ? "FAILED" : "OK", CRCFORGE_VERSION, runtime,
           CRCFORGE_HAVE_CRC32C_INLINE ? "inlined" : "a call");
    return failures != 0;
}
