/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer differential target: every path against the bitwise reference.
 *
 * Input: [mask][model: kind, catalogue index or width, poly, init, xorout, flags]
 *        [three split points][data...]
 * For the model drawn from the input (one of the fixed algorithms' or any catalogue
 * model's width, poly and bit order with any init/refout/xorout, or all six parameters
 * at random) and the CPU features kept by the mask, each path that
 * serves the model and can run is forced in turn, one-shot and streamed over the split
 * points; then the dispatched path; then combine at each split point.  Any difference
 * from the reference aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "internal.h"

static const uint32_t masks[] = {
    ~(uint32_t)0,
    0,
    CRC_CPU_SSE42,
    CRC_CPU_SSE41 | CRC_CPU_SSE42 | CRC_CPU_PCLMUL,
    CRC_CPU_SSE41 | CRC_CPU_SSE42 | CRC_CPU_PCLMUL | CRC_CPU_AVX2 | CRC_CPU_VPCLMUL,
};

struct input {
    const uint8_t *p;
    size_t n;
};

static uint64_t take(struct input *in, size_t bytes)
{
    uint64_t v = 0;
    for (size_t i = 0; i < bytes && in->n > 0; i++, in->p++, in->n--)
        v |= (uint64_t)in->p[0] << (8 * i);
    return v;
}

static void fail(const char *what, const char *impl, const crcforge_params *p, size_t n)
{
    fprintf(stderr, "MISMATCH %s (%s): width %u poly %#llx init %#llx refin %d refout %d "
                    "xorout %#llx, %zu bytes\n",
            what, impl, p->width, (unsigned long long)p->poly, (unsigned long long)p->init,
            p->refin, p->refout, (unsigned long long)p->xorout, n);
    abort();
}

static crcforge_params draw_model(struct input *in)
{
    struct crcforge_model *const fixed[] = {crc_model_crc32c, crc_model_crc32,
                                            crc_model_crc64_nvme, crc_model_crc64_xz,
                                            crc_model_crc16_xmodem};
    crcforge_params p;
    unsigned kind = (unsigned)take(in, 1);
    unsigned pick = (unsigned)take(in, 1);
    uint64_t poly = take(in, 8), init = take(in, 8), xorout = take(in, 8);
    unsigned flags = (unsigned)take(in, 1);
    if (kind % 4 == 1) { /* a catalogue model's register arithmetic, any init/refout/xorout */
        p = crc_catalogue[pick % crc_catalogue_count].p;
    } else if (kind % 4 >= 2) { /* the fixed algorithms, which have the dedicated paths */
        p = fixed[pick % (sizeof fixed / sizeof fixed[0])]->p;
    } else {
        p.width = pick % 64 + 1;
        p.poly = poly & crc_width_mask(p.width);
        p.refin = flags & 1;
    }
    p.init = init & crc_width_mask(p.width);
    p.xorout = xorout & crc_width_mask(p.width);
    p.refout = (flags >> 1) & 1;
    return p;
}

static uint64_t streamed(crcforge_state *s, const uint8_t *data, const size_t *cuts, size_t n)
{
    size_t done = 0;
    for (int i = 0; i < 3; i++) {
        crcforge_update(s, data + done, cuts[i] - done);
        done = cuts[i];
    }
    crcforge_update(s, data + done, n - done);
    return crcforge_final(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
    struct input in = {bytes, size};
    crc_cpu_set_mask(masks[take(&in, 1) % (sizeof masks / sizeof masks[0])]);
    crcforge_impl_force(NULL, NULL);
    crcforge_params p = draw_model(&in);
    size_t cuts[3];
    for (int i = 0; i < 3; i++)
        cuts[i] = (size_t)take(&in, 2);
    const uint8_t *data = in.p;
    const size_t n = in.n;
    for (int i = 0; i < 3; i++)
        cuts[i] = n ? cuts[i] % (n + 1) : 0;
    /* sorted, so that the pieces are consecutive */
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (cuts[j] < cuts[i]) {
                size_t t = cuts[i];
                cuts[i] = cuts[j];
                cuts[j] = t;
            }

    crcforge_model *m = crcforge_model_new(&p, NULL);
    if (m == NULL)
        abort(); /* draw_model only builds valid parameters */
    const uint64_t want = crc_reference(&p, data, n);

    for (size_t k = 0; k < crcforge_impl_count(); k++) {
        const char *impl = crcforge_impl_name(k);
        crcforge_state s;
        int usable = crcforge_impl_runnable(impl) && crcforge_impl_supports(impl, m);
        if (crcforge_init_impl(&s, m, impl, NULL) != (usable ? 0 : -1))
            fail("crcforge_init_impl accepted an unusable path or refused a usable one", impl,
                 &p, n);
        if (!usable)
            continue;
        crcforge_update(&s, data, n);
        if (crcforge_final(&s) != want)
            fail("one-shot", impl, &p, n);
        crcforge_init_impl(&s, m, impl, NULL);
        if (streamed(&s, data, cuts, n) != want)
            fail("streamed over the split points", impl, &p, n);
    }

    crcforge_state s;
    crcforge_init(&s, m);
    if (crcforge_checksum(m, data, n) != want || streamed(&s, data, cuts, n) != want)
        fail("dispatched", crcforge_impl_chosen(m), &p, n);
    for (int i = 0; i < 3; i++) {
        uint64_t a = crc_reference(&p, data, cuts[i]);
        uint64_t b = crc_reference(&p, data + cuts[i], n - cuts[i]);
        if (crcforge_combine(m, a, b, n - cuts[i]) != want)
            fail("combine", crc_cpu_has(CRC_CPU_PCLMUL) ? "carry-less" : "bitwise", &p, n);
    }
    crcforge_model_free(m);
    return 0;
}
