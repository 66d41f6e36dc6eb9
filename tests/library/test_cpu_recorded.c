/* SPDX-License-Identifier: MIT */
/*
 * macOS's feature decisions (src/cpu_arm.c, src/cpu_x86.c), whatever the host, on sets of
 * the hw.optional lines `sysctl hw.optional` prints: arm64 ones recorded on Macs
 * (recorded_sysctl.h), x86-64 ones written from the keys macOS documents; each fed through
 * a lookup in place of sysctlbyname, where a name absent from the set does not exist.
 *  - arm64: the features taken (CRC32, PMULL, SHA3) from Apple M1 and M4 Pro answers, from
 *    the M1's as older releases give them (no FEAT_ names: no PMULL key, so no PMULL),
 *    from sets with keys at 0 or only the newer CRC32 name, and from none;
 *  - x86-64: AVX-512 state taken from hw.optional.avx512f alone, never from XCR0, which
 *    macOS fills in lazily: Intel Macs with and without AVX-512, an older macOS without
 *    the key, and an OS that keeps no YMM state.
 * Where the ARM paths are compiled in and this CPU has every feature (aarch64; qemu's
 * `-cpu max` in tests/stages/40-cross.sh), the dispatcher runs under each ARM set as a
 * mask: every path chosen needs only the set's features; CRC-32C and CRC-32 leave the
 * portable engine exactly when the set has CRC32 or PMULL, CRC-64/NVME when it has PMULL.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cpu.h"
#include "cpu_apple.h"
#include "dispatch.h"
#include "internal.h"
#include "registry.h"
#include "recorded_sysctl.h"

/* A recorded set: "name: value" lines. */
static int recorded_lookup(void *ctx, const char *name, int64_t *value)
{
    const char *text = ctx;
    size_t len = strlen(name);
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        if (end == NULL)
            end = line + strlen(line);
        if ((size_t)(end - line) > len + 1 && strncmp(line, name, len) == 0 &&
            line[len] == ':') {
            long long v;
            if (sscanf(line + len + 1, " %lld", &v) != 1)
                return 0;
            *value = v;
            return 1;
        }
        line = *end ? end + 1 : end;
    }
    return 0;
}

static const char *arm_names(uint32_t f, char *out, size_t n)
{
    snprintf(out, n, "%s%s%s%s", f & CRC_CPU_KNOWN ? "known" : "unknown",
             f & CRC_CPU_ARM_CRC32 ? " crc32" : "", f & CRC_CPU_ARM_PMULL ? " pmull" : "",
             f & CRC_CPU_ARM_SHA3 ? " sha3" : "");
    return out;
}

enum { ALL_ARM = CRC_CPU_ARM_CRC32 | CRC_CPU_ARM_PMULL | CRC_CPU_ARM_SHA3 };

static const struct {
    const char *machine, *answers;
    uint32_t want; /* beside CRC_CPU_KNOWN */
} arm_sets[] = {
    {"Apple M1", sysctl_apple_m1, ALL_ARM},
    {"Apple M4 Pro", sysctl_apple_m4_pro, ALL_ARM},
    /* No PMULL key, so no PMULL (nor fold paths) on older releases. */
    {"Apple M1, older macOS", sysctl_apple_m1_older_macos, CRC_CPU_ARM_CRC32},
    /* The architecture's name for CRC32, which later releases add. */
    {"FEAT_CRC32 alone", "hw.optional.arm.FEAT_CRC32: 1\n", CRC_CPU_ARM_CRC32},
    /* Keys present at 0 mean no; any value but 0 means yes. */
    {"keys at 0",
     "hw.optional.armv8_crc32: 0\nhw.optional.arm.FEAT_CRC32: 0\n"
     "hw.optional.arm.FEAT_PMULL: 2\nhw.optional.arm.FEAT_SHA3: 0\n",
     CRC_CPU_ARM_PMULL},
    {"no keys", "", 0},
};

/* The x86-64 sets are in the same form, from the keys macOS documents. */
static const struct {
    const char *machine, *answers;
    int os_ymm, want;
} x86_sets[] = {
    /* An Ice Lake MacBook Air: XCR0 without AVX-512 state until the thread's first AVX-512
     * instruction. */
    {"Ice Lake MacBook Air",
     "hw.optional.sse4_2: 1\nhw.optional.avx1_0: 1\nhw.optional.avx2_0: 1\n"
     "hw.optional.avx512f: 1\nhw.optional.avx512cd: 1\nhw.optional.avx512dq: 1\n"
     "hw.optional.avx512bw: 1\nhw.optional.avx512vl: 1\nhw.optional.avx512ifma: 1\n"
     "hw.optional.avx512vbmi: 1\n",
     1, 1},
    /* A Coffee Lake MacBook Pro. */
    {"Coffee Lake MacBook Pro",
     "hw.optional.sse4_2: 1\nhw.optional.avx1_0: 1\nhw.optional.avx2_0: 1\n"
     "hw.optional.avx512f: 0\nhw.optional.avx512cd: 0\nhw.optional.avx512bw: 0\n"
     "hw.optional.avx512vl: 0\n",
     1, 0},
    /* A macOS without the key. */
    {"no avx512f key", "hw.optional.sse4_2: 1\nhw.optional.avx1_0: 1\n", 1, 0},
    /* YMM state not kept (AVX turned off): no AVX-512 whatever the key says. */
    {"no YMM state", "hw.optional.avx512f: 1\n", 0, 0},
};

/* The names of a dispatcher's choice ("PATH" or "PATH<BELOW,...,PATH") each need only
 * features in `have`. */
static void check_choice(const char *set, const char *model, const char *chosen, uint32_t have,
                         int want_portable)
{
    char names[256];
    snprintf(names, sizeof names, "%s", chosen);
    int portable_only = 1;
    for (char *name = strtok(names, ","); name != NULL; name = strtok(NULL, ",")) {
        name[strcspn(name, "<")] = '\0';
        const struct crc_impl *impl = crc_impl_lookup(name);
        CHECK(impl != NULL, "%s: %s: unknown path %s", set, model, name);
        if (impl == NULL)
            continue;
        CHECK((impl->features & ~(have | CRC_CPU_GUARANTEED)) == 0,
              "%s: %s: %s needs features the set lacks", set, model, name);
        portable_only &= strcmp(name, "portable") == 0;
    }
    CHECK(portable_only == want_portable, "%s: %s: chose %s", set, model, chosen);
    printf("  %s: %s\n", model, chosen);
}

/* Whether every ARM feature's paths are compiled in and this CPU runs them all. */
static int arm_paths_runnable(void)
{
#if defined(__aarch64__)
    crc_cpu_set_mask(~(uint32_t)0);
    return (crc_cpu_features() & ALL_ARM) == ALL_ARM;
#else
    return 0;
#endif
}

int main(void)
{
    check_begin("test_cpu_recorded");
    char got[64], want[64];
    const int dispatch = arm_paths_runnable();
    for (size_t i = 0; i < sizeof arm_sets / sizeof arm_sets[0]; i++) {
        const uint32_t f = crc_cpu_apple_arm(recorded_lookup, (void *)arm_sets[i].answers);
        const uint32_t w = CRC_CPU_KNOWN | arm_sets[i].want;
        CHECK(f == w, "arm64 %s: features '%s', want '%s'", arm_sets[i].machine,
              arm_names(f, got, sizeof got), arm_names(w, want, sizeof want));
        printf("arm64 %s: %s\n", arm_sets[i].machine, arm_names(f, got, sizeof got));
        if (!dispatch)
            continue;
        if ((CRC_CPU_GUARANTEED & ALL_ARM & ~f) != 0) {
            SKIP("arm64 %s: this build's flags guarantee features the set lacks",
                 arm_sets[i].machine);
            continue;
        }
        crc_cpu_set_mask(f);
        crcforge_impl_force(NULL, NULL); /* re-resolve under the recorded features */
        CHECK((crc_cpu_features() & ALL_ARM) == (f & ALL_ARM), "arm64 %s: mask in use",
              arm_sets[i].machine);
        check_choice(arm_sets[i].machine, "CRC-32C", crcforge_impl_chosen(crc_model_crc32c), f,
                     !(f & (CRC_CPU_ARM_CRC32 | CRC_CPU_ARM_PMULL)));
        check_choice(arm_sets[i].machine, "CRC-32", crcforge_impl_chosen(crc_model_crc32), f,
                     !(f & (CRC_CPU_ARM_CRC32 | CRC_CPU_ARM_PMULL)));
        check_choice(arm_sets[i].machine, "CRC-64/NVME",
                     crcforge_impl_chosen(crc_model_crc64_nvme), f, !(f & CRC_CPU_ARM_PMULL));
    }
    if (!dispatch)
        printf("(the ARM paths are not all runnable here: the dispatcher is not run under the"
               " arm64 sets)\n");
    crc_cpu_set_mask(~(uint32_t)0);
    crcforge_impl_force(NULL, NULL);

    for (size_t i = 0; i < sizeof x86_sets / sizeof x86_sets[0]; i++) {
        const int got_state = crc_cpu_apple_avx512_state(x86_sets[i].os_ymm, recorded_lookup,
                                                         (void *)x86_sets[i].answers);
        CHECK(got_state == x86_sets[i].want, "x86-64 %s: AVX-512 state %s, want %s",
              x86_sets[i].machine, got_state ? "kept" : "not kept",
              x86_sets[i].want ? "kept" : "not kept");
        printf("x86-64 %s: AVX-512 %s\n", x86_sets[i].machine, got_state ? "taken" : "not taken");
    }

    /* The lookup itself: a name is matched whole, never as the prefix of a longer one. */
    int64_t v = -1;
    /* The core's identity: hw.cpufamily is an int32 key, so M2's 0xda33d83d reads negative. */
    struct crc_cpu_id id;
    crc_cpu_apple_identify(&id, recorded_lookup, (void *)"hw.cpufamily: -634136515\n");
    CHECK(strcmp(id.vendor, "Apple") == 0 && id.family == 0xda33d83du,
          "identify: vendor '%s', family %#x, want Apple 0xda33d83d", id.vendor, id.family);
    crc_cpu_apple_identify(&id, recorded_lookup, (void *)"");
    CHECK(strcmp(id.vendor, "Apple") == 0 && id.family == 0,
          "identify without hw.cpufamily: vendor '%s', family %#x", id.vendor, id.family);
    CHECK(!recorded_lookup((void *)"hw.optional.avx512fx: 1\n", "hw.optional.avx512f", &v),
          "a longer name is not the name");
    CHECK(recorded_lookup((void *)"hw.optional.avx512f: 7", "hw.optional.avx512f", &v) && v == 7,
          "the last line without a newline");
    return check_end();
}
