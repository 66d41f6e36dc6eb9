/* SPDX-License-Identifier: MIT */
/*
 * Shared pieces of the crcforge Python extension: reading the caller's bytes, turning an
 * `algo` argument into a model, and the size above which the GIL is released.
 */
#ifndef CRCFORGE_PY_EXT_H
#define CRCFORGE_PY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "crcforge_dispatch.h"

/* Bytes to hash.  Exact `bytes` are read in place (no buffer export: the cheapest path for
 * the small inputs where per-call cost dominates); anything else goes through the buffer
 * protocol and must be C-contiguous. */
typedef struct {
    const void *buf;
    Py_ssize_t len;
    Py_buffer view;
    int has_view;
} crcpy_data;

int crcpy_data_slow(PyObject *obj, crcpy_data *d, const char *fname);

static inline int crcpy_data_get(PyObject *obj, crcpy_data *d, const char *fname)
{
    if (PyBytes_CheckExact(obj)) {
        d->buf = PyBytes_AS_STRING(obj);
        d->len = PyBytes_GET_SIZE(obj);
        d->has_view = 0;
        return 0;
    }
    return crcpy_data_slow(obj, d, fname);
}

static inline void crcpy_data_release(crcpy_data *d)
{
    if (d->has_view)
        PyBuffer_Release(&d->view);
}

/* Inputs of at least this many bytes are hashed with the GIL released (measured: see
 * python/bench/gil.py and the README). */
extern Py_ssize_t crcpy_gil_threshold;

/* A model for an `algo` argument: a catalogue name or alias (str), or an object or mapping
 * with the six parameters (width, poly, init, refin, refout, xorout).  On success *owner
 * is a new reference that keeps a custom model alive (NULL for catalogue models); on
 * failure returns NULL with ValueError/TypeError set. */
const crcforge_model *crcpy_model(PyObject *algo, PyObject **owner);
/* Forgets cached custom models (their dispatch was resolved before a force). */
void crcpy_model_cache_clear(void);
int crcpy_models_init(PyObject *module);

/* The CRC object type (hash.c). */
extern PyTypeObject crcpy_hash_type;
PyObject *crcpy_new(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames);

/* The arguments of a METH_FASTCALL | METH_KEYWORDS function taking at most n, called
 * names[0..n-1], by position or keyword: slots[k] is argument k (borrowed) or NULL if not
 * given.  -1 with TypeError set when one is unknown, given twice, or among the first
 * `required` and missing. */
int crcpy_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
               const char *const *names, int n, int required, PyObject **slots);

/* Unsigned value of `obj` that fits in `width` bits, for crc arguments; -1 with ValueError
 * or TypeError set, naming `fname` and `what`. */
int crcpy_value_arg(PyObject *obj, unsigned width, const char *fname, const char *what,
                    uint64_t *out);

/* The exception being raised (a new reference), the error indicator cleared; and the
 * same raised again (takes the reference). */
PyObject *crcpy_take_error(void);
void crcpy_restore_error(PyObject *exc);

/* _crcforge.cli() (cli.c): the command-line tool's engine. */
PyObject *crcpy_cli(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames);
int crcpy_cli_init(void);

#endif
