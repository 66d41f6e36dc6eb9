/* SPDX-License-Identifier: MIT */
/*
 * Shared pieces of the crcforge Python extension: reading the caller's bytes, turning an
 * `algo` argument into a model, and the size above which the GIL is released.
 *
 * The extension is written to the limited C API of 3.11 (the buffer protocol joined it
 * then) and builds either way: with Py_LIMITED_API=0x030B0000 (setup.py, when
 * CRCFORGE_LIMITED_API asks: one cp311-abi3 wheel for every CPython from 3.11) or against
 * the full API (CPython 3.10, and any build from the sdist).  The full API only reads a
 * bytes object's storage without a call.
 */
#ifndef CRCFORGE_PY_EXT_H
#define CRCFORGE_PY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "crcforge_dispatch.h"

/* Windows' pyconfig.h sizes Py_ssize_t by MS_WIN64, which it defines for MSVC alone (setup.py
 * defines it for other compilers). */
_Static_assert(sizeof(Py_ssize_t) == sizeof(size_t), "Py_ssize_t is not pointer-sized");

/* The oldest CPython whose API the build may use. */
#ifdef Py_LIMITED_API
#define CRCPY_API_VERSION Py_LIMITED_API
#else
#define CRCPY_API_VERSION PY_VERSION_HEX
#endif

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
#ifdef Py_LIMITED_API
        char *buf;
        PyBytes_AsStringAndSize(obj, &buf, &d->len); /* cannot fail for a bytes object */
        d->buf = buf;
#else
        d->buf = PyBytes_AS_STRING(obj);
        d->len = PyBytes_GET_SIZE(obj);
#endif
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

/* The CRC object type (hash.c), made by crcpy_hash_type_init. */
extern PyTypeObject *crcpy_hash_type;
int crcpy_hash_type_init(void);
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

/* The name of obj's type as messages give it: its module and qualified name, builtins'
 * without the module ('int', 'numpy.ndarray'), what %T gives from 3.13 (tp_name is not in
 * the limited API).  *keep owns the text until Py_XDECREF(*keep); "?" when there is none. */
const char *crcpy_type_name(PyObject *obj, PyObject **keep);

/* The items of an iterable as a tuple (a new reference); TypeError `message` when obj
 * cannot be iterated, as PySequence_Fast says it (whose macros are not in the limited
 * API). */
PyObject *crcpy_sequence(PyObject *obj, const char *message);

/* The exception being raised (a new reference), the error indicator cleared; and the
 * same raised again (takes the reference). */
PyObject *crcpy_take_error(void);
void crcpy_restore_error(PyObject *exc);

/* _crcforge.cli() (cli.c): the command-line tool's engine. */
PyObject *crcpy_cli(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames);
int crcpy_cli_init(void);

#endif
