#include "internal.h"
#define ALIASES(...) ((const char *const[]){__VA_ARGS__, NULL})
#define NO_ALIASES ((const char *const[]){NULL})
#define MODEL(name_, aliases_, width_, poly_, init_, refin_, refout_, xorout_, check_, residue_) \
    { .name = name_, .aliases = aliases_, .p = { width_, poly_, init_, refin_, refout_, xorout_ }, \
      .check = check_, .residue = residue_ }
struct crcforge_model crc_catalogue[] = {
 MODEL("CRC-16/XMODEM", ALIASES("crc16-xmodem"), 16, 0x1021, 0, 0,0,0, 0x31c3, 0),
 MODEL("CRC-32/ISCSI", ALIASES("crc32c","CRC-32C"), 32, 0x1edc6f41, 0xffffffff, 1,1,0xffffffff, 0xe3069283, 0xb798b438),
 MODEL("CRC-32/ISO-HDLC", ALIASES("crc32"), 32, 0x04c11db7, 0xffffffff, 1,1,0xffffffff, 0xcbf43926, 0xdebb20e3),
 MODEL("CRC-64/NVME", ALIASES("crc64-nvme"), 64, 0xad93d23594c93659ULL, ~0ULL, 1,1,~0ULL, 0xae8b14860a799888ULL, 0xf310303b2b6f6e42ULL),
 MODEL("CRC-64/XZ", ALIASES("crc64-xz"), 64, 0x42f0e1eba9ea3693ULL, ~0ULL, 1,1,~0ULL, 0x995dc9bbdf1939faULL, 0x49958c9abd7d353fULL),
 MODEL("CRC-5/USB", NO_ALIASES, 5, 0x05, 0x1f, 1,1,0x1f, 0x19, 0x06),
 MODEL("CRC-24/OPENPGP", NO_ALIASES, 24, 0x864cfb, 0xb704ce, 0,0,0, 0x21cf02, 0),
 MODEL("CRC-64/ECMA-182", NO_ALIASES, 64, 0x42f0e1eba9ea3693ULL, 0, 0,0,0, 0x6c40df5f0b497347ULL, 0),
 MODEL("CRC-12/UMTS", NO_ALIASES, 12, 0x80f, 0, 0,1,0, 0xdaf, 0),
};
const size_t crc_catalogue_count = sizeof crc_catalogue / sizeof crc_catalogue[0];
struct crcforge_model *const crc_model_crc32c = &crc_catalogue[1];
struct crcforge_model *const crc_model_crc32 = &crc_catalogue[2];
struct crcforge_model *const crc_model_crc64_nvme = &crc_catalogue[3];
struct crcforge_model *const crc_model_crc64_xz = &crc_catalogue[4];
struct crcforge_model *const crc_model_crc16_xmodem = &crc_catalogue[0];
