/* A program built against the installed crcforge, as a user would build it. */
#include <crcforge.h>
#include <stdio.h>

int main(void)
{
    uint32_t crc = crcforge_crc32c(0, "123456789", 9);
    printf("%08x\n", (unsigned)crc);
    return crc == 0xe3069283u ? 0 : 1; /* the catalogue's check value of CRC-32/ISCSI */
}
