/* SPDX-License-Identifier: MIT */
/*
 * crcforge._crcforge: the C side of the Python package.  The fixed-algorithm functions
 * are METH_FASTCALL with hand-rolled argument handling and no dict lookups, because at
 * 16..64 bytes the call itself costs more than the CRC.
 */
#include "ext.h"

#include <string.h>

#include "sizes.h"

/* Releasing and retaking the GIL costs ~35 ns of CPU per call uncontended
 * (python/bench/gil.py on an AMD EPYC, crc32c on the AVX2 hybrid path at ~38 GB/s):
 * 7-8% of a 16 KiB call, 4-5% of a 32 KiB one, under 2% from 64 KiB, which is where it
 * starts.  Slower models pay relatively less. */
Py_ssize_t crcpy_gil_threshold = 65536;

const char *crcpy_type_name(PyObject *obj, PyObject **keep)
{
    PyObject *type = (PyObject *)Py_TYPE(obj);
    PyObject *name = PyObject_GetAttrString(type, "__qualname__");
    PyObject *module = name != NULL ? PyObject_GetAttrString(type, "__module__") : NULL;
    if (module != NULL && PyUnicode_Check(module) &&
        PyUnicode_CompareWithASCIIString(module, "builtins") != 0) {
        PyObject *qualified = PyUnicode_FromFormat("%U.%U", module, name);
        Py_DECREF(name);
        name = qualified;
    }
    Py_XDECREF(module);
    const char *text = name != NULL ? PyUnicode_AsUTF8AndSize(name, NULL) : NULL;
    PyErr_Clear(); /* the message to come is what matters */
    *keep = name;
    return text != NULL ? text : "?";
}

PyObject *crcpy_sequence(PyObject *obj, const char *message)
{
    PyObject *items = PyObject_GetIter(obj);
    if (items == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError))
            PyErr_SetString(PyExc_TypeError, message);
        return NULL;
    }
    PyObject *tuple = PySequence_Tuple(items);
    Py_DECREF(items);
    return tuple;
}

PyObject *crcpy_take_error(void)
{
#if CRCPY_API_VERSION >= 0x030C0000
    return PyErr_GetRaisedException();
#else
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (tb != NULL)
        PyException_SetTraceback(value, tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    return value;
#endif
}

void crcpy_restore_error(PyObject *exc)
{
#if CRCPY_API_VERSION >= 0x030C0000
    PyErr_SetRaisedException(exc);
#else
    PyErr_Restore(Py_NewRef((PyObject *)Py_TYPE(exc)), exc, PyException_GetTraceback(exc));
#endif
}

int crcpy_data_slow(PyObject *obj, crcpy_data *d, const char *fname)
{
    if (PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): str cannot be hashed; encode it first (e.g. s.encode())", fname);
        return -1;
    }
    PyObject *keep;
    if (!PyObject_CheckBuffer(obj)) {
        PyErr_Format(PyExc_TypeError, "%s(): a bytes-like object is required, not '%.100s'",
                     fname, crcpy_type_name(obj, &keep));
        Py_XDECREF(keep);
        return -1;
    }
    if (PyObject_GetBuffer(obj, &d->view, PyBUF_SIMPLE) < 0) {
        /* A failure for the buffer's layout becomes a TypeError that says so, caused by
         * the exporter's own error; any other (a released memoryview, ...) stays as is. */
        PyObject *cause = crcpy_take_error();
        Py_buffer strided;
        int layout = PyObject_GetBuffer(obj, &strided, PyBUF_FULL_RO) == 0;
        if (layout) {
            layout = !PyBuffer_IsContiguous(&strided, 'C');
            PyBuffer_Release(&strided);
        } else {
            PyErr_Clear();
        }
        if (!layout) {
            crcpy_restore_error(cause);
            return -1;
        }
        PyErr_Format(PyExc_TypeError,
                     "%s(): the '%.100s' buffer is not C-contiguous; hash a contiguous copy "
                     "(e.g. bytes(x) or numpy.ascontiguousarray(x))", fname,
                     crcpy_type_name(obj, &keep));
        Py_XDECREF(keep);
        PyObject *error = crcpy_take_error();
        PyException_SetContext(error, Py_NewRef(cause));
        PyException_SetCause(error, cause);
        crcpy_restore_error(error);
        return -1;
    }
    d->buf = d->view.buf;
    d->len = d->view.len;
    d->has_view = 1;
    return 0;
}

int crcpy_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
               const char *const *names, int n, int required, PyObject **slots)
{
    if (nargs > n) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional arguments (%zd given)",
                     fname, n, nargs);
        return -1;
    }
    for (int k = 0; k < n; k++)
        slots[k] = k < nargs ? args[k] : NULL;
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_Size(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *key = PyTuple_GetItem(kwnames, i);
        int k = 0;
        while (k < n && PyUnicode_CompareWithASCIIString(key, names[k]) != 0)
            k++;
        if (k == n || slots[k] != NULL) {
            PyErr_Format(PyExc_TypeError, "%s() got %s argument %R", fname,
                         k == n ? "an unexpected keyword" : "multiple values for", key);
            return -1;
        }
        slots[k] = args[nargs + i];
    }
    for (int k = 0; k < required; k++) {
        if (slots[k] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", fname,
                         names[k]);
            return -1;
        }
    }
    return 0;
}

/* (data, crc=0) of the fixed functions: positional arguments need no parsing at all. */
static inline int fixed_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames, PyObject **data, PyObject **crc)
{
    if (kwnames == NULL && nargs >= 1 && nargs <= 2) {
        *data = args[0];
        *crc = nargs > 1 ? args[1] : NULL;
        return 0;
    }
    static const char *const names[] = {"data", "crc"};
    PyObject *slots[2];
    if (crcpy_args(fname, args, nargs, kwnames, names, 2, 1, slots) < 0)
        return -1;
    *data = slots[0];
    *crc = slots[1];
    return 0;
}

#define FIXED_FUNCTION(fn, ctype, width, to_int, doc_check)                                    \
    static PyObject *py_##fn(PyObject *module, PyObject *const *args, Py_ssize_t nargs,         \
                             PyObject *kwnames)                                                 \
    {                                                                                           \
        (void)module;                                                                           \
        PyObject *data, *crc_arg;                                                               \
        uint64_t crc = 0;                                                                       \
        crcpy_data d;                                                                           \
        if (fixed_args(#fn, args, nargs, kwnames, &data, &crc_arg) < 0 ||                       \
            (crc_arg != NULL && crcpy_value_arg(crc_arg, width, #fn, "crc", &crc) < 0) ||       \
            crcpy_data_get(data, &d, #fn) < 0)                                                  \
            return NULL;                                                                        \
        ctype v;                                                                                \
        if (d.len < crcpy_gil_threshold) {                                                      \
            v = crcforge_##fn((ctype)crc, d.buf, (size_t)d.len);                                \
        } else {                                                                                \
            Py_BEGIN_ALLOW_THREADS                                                              \
            v = crcforge_##fn((ctype)crc, d.buf, (size_t)d.len);                                \
            Py_END_ALLOW_THREADS                                                                \
        }                                                                                       \
        crcpy_data_release(&d);                                                                 \
        return to_int(v);                                                                       \
    }                                                                                           \
    PyDoc_STRVAR(doc_##fn, #fn "($module, /, data, crc=0)\n--\n\n"                              \
                 "The " doc_check " of `data` (any C-contiguous buffer), continuing from\n"     \
                 "`crc`, the value returned for the bytes before it (0 to start).\n"             \
                 "So " #fn "(b, " #fn "(a)) == " #fn "(a + b).");

FIXED_FUNCTION(crc32c, uint32_t, 32, PyLong_FromUnsignedLong, "CRC-32C (CRC-32/ISCSI)")
FIXED_FUNCTION(crc32, uint32_t, 32, PyLong_FromUnsignedLong, "CRC-32 (CRC-32/ISO-HDLC, zlib)")
FIXED_FUNCTION(crc64_nvme, uint64_t, 64, PyLong_FromUnsignedLongLong, "CRC-64/NVME")
FIXED_FUNCTION(crc64_xz, uint64_t, 64, PyLong_FromUnsignedLongLong, "CRC-64/XZ")
FIXED_FUNCTION(crc16_xmodem, uint16_t, 16, PyLong_FromLong, "CRC-16/XMODEM")

PyDoc_STRVAR(doc_combine,
             "combine($module, algo, crc1, crc2, len2, /)\n--\n\n"
             "The CRC of A + B from crc1 = CRC(A), crc2 = CRC(B) and len2 = len(B), in\n"
             "O(log len2) time, for any model.");

static PyObject *py_combine(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "combine() takes exactly 4 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *owner;
    const crcforge_model *m = crcpy_model(args[0], &owner);
    if (m == NULL)
        return NULL;
    unsigned width = crcforge_model_params(m)->width;
    uint64_t crc1, crc2, len2;
    PyObject *result = NULL;
    if (crcpy_value_arg(args[1], width, "combine", "crc1", &crc1) == 0 &&
        crcpy_value_arg(args[2], width, "combine", "crc2", &crc2) == 0 &&
        crcpy_value_arg(args[3], 64, "combine", "len2", &len2) == 0)
        result = PyLong_FromUnsignedLongLong(crcforge_combine(m, crc1, crc2, len2));
    Py_XDECREF(owner);
    return result;
}

PyDoc_STRVAR(doc_keyslot,
             "keyslot($module, key, /)\n--\n\n"
             "The Redis/Valkey cluster slot (0..16383) of `key` (bytes-like, or str as UTF-8):\n"
             "CRC-16/XMODEM of the key, or of its {hash tag}, mod 16384.");

static PyObject *py_keyslot(PyObject *module, PyObject *key)
{
    (void)module;
    if (PyUnicode_Check(key)) {
        Py_ssize_t len;
        const char *utf8 = PyUnicode_AsUTF8AndSize(key, &len);
        return utf8 == NULL ? NULL : PyLong_FromLong(crcforge_keyslot(utf8, (size_t)len));
    }
    crcpy_data d;
    if (crcpy_data_get(key, &d, "keyslot") < 0)
        return NULL;
    unsigned slot = crcforge_keyslot(d.buf, (size_t)d.len);
    crcpy_data_release(&d);
    return PyLong_FromLong(slot);
}

PyDoc_STRVAR(doc_keyslots,
             "keyslots($module, keys, /)\n--\n\n"
             "keyslot() of every key of a sequence, as a list, in one call into the library\n"
             "(the work of independent keys overlaps): for pipelines of many keys.");

static PyObject *py_keyslots(PyObject *module, PyObject *keys)
{
    (void)module;
    if (PyUnicode_Check(keys) || PyObject_CheckBuffer(keys)) { /* a str or bytes is one key */
        PyObject *keep;
        PyErr_Format(PyExc_TypeError,
                     "keyslots() takes a sequence of keys, not a single key ('%.100s'); "
                     "keyslot() takes one", crcpy_type_name(keys, &keep));
        Py_XDECREF(keep);
        return NULL;
    }
    PyObject *seq = crcpy_sequence(keys, "keyslots(): keys must be a sequence");
    if (seq == NULL)
        return NULL;
    Py_ssize_t n = PyTuple_Size(seq), got = 0;
    PyObject *result = NULL;
    const void **ptrs = PyMem_New(const void *, (size_t)n + 1);
    size_t *lens = PyMem_New(size_t, (size_t)n + 1);
    uint16_t *slots = PyMem_New(uint16_t, (size_t)n + 1);
    crcpy_data *data = PyMem_New(crcpy_data, (size_t)n + 1);
    if (ptrs == NULL || lens == NULL || slots == NULL || data == NULL) {
        PyErr_NoMemory();
        goto out;
    }
    for (; got < n; got++) {
        PyObject *key = PyTuple_GetItem(seq, got);
        data[got].has_view = 0;
        if (PyUnicode_Check(key)) { /* its UTF-8 lives as long as the str */
            Py_ssize_t len;
            ptrs[got] = PyUnicode_AsUTF8AndSize(key, &len);
            if (ptrs[got] == NULL)
                goto out;
            lens[got] = (size_t)len;
            continue;
        }
        if (crcpy_data_get(key, &data[got], "keyslots") < 0)
            goto out;
        ptrs[got] = data[got].buf;
        lens[got] = (size_t)data[got].len;
    }
    crcforge_keyslots(ptrs, lens, (size_t)n, slots);
    result = PyList_New(n);
    for (Py_ssize_t i = 0; result != NULL && i < n; i++) {
        PyObject *slot = PyLong_FromLong(slots[i]);
        if (slot == NULL)
            Py_CLEAR(result);
        else
            PyList_SetItem(result, i, slot);
    }
out:
    for (Py_ssize_t i = 0; data != NULL && i < got; i++)
        crcpy_data_release(&data[i]);
    PyMem_Free(ptrs);
    PyMem_Free(lens);
    PyMem_Free(slots);
    PyMem_Free(data);
    Py_DECREF(seq);
    return result;
}

static PyObject *catalogue_entry(const crcforge_model *m)
{
    const crcforge_params *p = crcforge_model_params(m);
    PyObject *aliases = PyList_New(0);
    if (aliases == NULL)
        return NULL;
    for (const char *const *a = crcforge_model_aliases(m); *a; a++) {
        PyObject *s = PyUnicode_FromString(*a);
        if (s == NULL || PyList_Append(aliases, s) < 0) {
            Py_XDECREF(s);
            Py_DECREF(aliases);
            return NULL;
        }
        Py_DECREF(s);
    }
    PyObject *t = PyList_AsTuple(aliases);
    Py_DECREF(aliases);
    if (t == NULL)
        return NULL;
    return Py_BuildValue("(sNIKKNNKKK)", crcforge_model_name(m), t, p->width,
                         (unsigned long long)p->poly, (unsigned long long)p->init,
                         PyBool_FromLong(p->refin), PyBool_FromLong(p->refout),
                         (unsigned long long)p->xorout,
                         (unsigned long long)crcforge_model_check(m),
                         (unsigned long long)crcforge_model_residue(m));
}

static PyObject *py_catalogue(PyObject *module, PyObject *unused)
{
    (void)module, (void)unused;
    size_t n = 0;
    while (crcforge_model_at(n) != NULL)
        n++;
    PyObject *list = PyTuple_New((Py_ssize_t)n);
    for (size_t i = 0; list != NULL && i < n; i++) {
        PyObject *entry = catalogue_entry(crcforge_model_at(i));
        if (entry == NULL)
            Py_CLEAR(list);
        else
            PyTuple_SetItem(list, (Py_ssize_t)i, entry);
    }
    return list;
}

PyDoc_STRVAR(doc_implementations,
             "implementations($module, /)\n--\n\n"
             "Every implementation compiled in, best first, mapped to whether this CPU can\n"
             "run it: {'portable': True, ...}.  These are the names force_implementation()\n"
             "and the CRCFORGE_IMPL environment variable accept.");

static PyObject *py_implementations(PyObject *module, PyObject *unused)
{
    (void)module, (void)unused;
    PyObject *d = PyDict_New();
    for (size_t i = 0; d != NULL && i < crcforge_impl_count(); i++) {
        const char *name = crcforge_impl_name(i);
        PyObject *runnable = PyBool_FromLong(crcforge_impl_runnable(name));
        if (PyDict_SetItemString(d, name, runnable) < 0)
            Py_CLEAR(d);
        Py_DECREF(runnable);
    }
    return d;
}

PyDoc_STRVAR(doc_implementation,
             "implementation($module, algo, /)\n--\n\n"
             "The name of the implementation chosen for `algo` on this CPU: one name of\n"
             "implementations(), or where this CPU's tuning table gives `algo` length bands,\n"
             "'A<128,B<3072,C' (A for inputs under 128 bytes, B under 3072, C beyond).");

static PyObject *py_implementation(PyObject *module, PyObject *algo)
{
    (void)module;
    PyObject *owner;
    const crcforge_model *m = crcpy_model(algo, &owner);
    if (m == NULL)
        return NULL;
    PyObject *name = PyUnicode_FromString(crcforge_impl_chosen(m));
    Py_XDECREF(owner);
    return name;
}

PyDoc_STRVAR(doc_force_implementation,
             "force_implementation($module, name, /)\n--\n\n"
             "Run every algorithm that has the implementation `name` on it, and the others\n"
             "on 'portable'; None (or 'auto') returns to the automatic choice.  For tests\n"
             "and benchmarks: call it before hashing, not while other threads hash.\n"
             "ValueError when `name` is unknown or this CPU cannot run it.");

static PyObject *py_force_implementation(PyObject *module, PyObject *name)
{
    (void)module;
    const char *cname = NULL, *why = NULL;
    if (name != Py_None) {
        if (!PyUnicode_Check(name)) {
            PyObject *keep;
            PyErr_Format(PyExc_TypeError,
                         "force_implementation(): name must be a str or None, not '%.100s'",
                         crcpy_type_name(name, &keep));
            Py_XDECREF(keep);
            return NULL;
        }
        cname = PyUnicode_AsUTF8AndSize(name, NULL);
        if (cname == NULL)
            return NULL;
    }
    if (crcforge_impl_force(cname, &why) != 0) {
        PyErr_Format(PyExc_ValueError, "implementation %R: %s", name, why);
        return NULL;
    }
    crcpy_model_cache_clear();
    Py_RETURN_NONE;
}

PyDoc_STRVAR(doc_cpu_features,
             "cpu_features($module, /)\n--\n\n"
             "The CPU features crcforge detected, as a list of names.");

static PyObject *py_cpu_features(PyObject *module, PyObject *unused)
{
    (void)module, (void)unused;
    PyObject *text = PyUnicode_FromString(crcforge_cpu_features());
    if (text == NULL)
        return NULL;
    PyObject *list = PyUnicode_Split(text, NULL, -1);
    Py_DECREF(text);
    return list;
}

PyDoc_STRVAR(doc_environment_problems,
             "_environment_problems($module, /)\n--\n\n"
             "What the library could not use in its environment variables, as tuples\n"
             "(variable, value, problem, instead); crcforge.environment_problems() wraps them.");

static PyObject *py_environment_problems(PyObject *module, PyObject *unused)
{
    (void)module, (void)unused;
    PyObject *list = PyList_New(0);
    const crcforge_env_problem *e;
    for (size_t i = 0; list != NULL && (e = crcforge_env_problem_at(i)) != NULL; i++) {
        PyObject *entry = Py_BuildValue("(ssss)", e->variable, e->value, e->problem, e->instead);
        if (entry == NULL || PyList_Append(list, entry) < 0)
            Py_CLEAR(list);
        Py_XDECREF(entry);
    }
    return list;
}

/* For python/bench/gil.py and the thread tests: read and set the threshold. */
static PyObject *py_set_gil_threshold(PyObject *module, PyObject *arg)
{
    (void)module;
    Py_ssize_t n = PyLong_AsSsize_t(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "threshold must be >= 0");
        return NULL;
    }
    Py_ssize_t old = crcpy_gil_threshold;
    crcpy_gil_threshold = n;
    return PyLong_FromSsize_t(old);
}

/* A size as the C tool's --part-size reads it, so that the package's part_size="8MB" follows
 * the same rule: the size in bytes, or None when the text is not one. */
static PyObject *py_parse_size(PyObject *module, PyObject *arg)
{
    (void)module;
    if (!PyUnicode_Check(arg)) {
        PyObject *keep;
        PyErr_Format(PyExc_TypeError, "a size is a str, not %.100s",
                     crcpy_type_name(arg, &keep));
        Py_XDECREF(keep);
        return NULL;
    }
    Py_ssize_t len;
    const char *text = PyUnicode_AsUTF8AndSize(arg, &len);
    if (text == NULL)
        return NULL;
    uint64_t size;
    if ((size_t)len != strlen(text) || cli_parse_size(text, &size) != 0)
        Py_RETURN_NONE; /* an embedded NUL would end the text early */
    return PyLong_FromUnsignedLongLong(size);
}

#define FASTCALL_KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

static PyMethodDef module_methods[] = {
    {"crc32c", FASTCALL_KW(py_crc32c), doc_crc32c},
    {"crc32", FASTCALL_KW(py_crc32), doc_crc32},
    {"crc64_nvme", FASTCALL_KW(py_crc64_nvme), doc_crc64_nvme},
    {"crc64_xz", FASTCALL_KW(py_crc64_xz), doc_crc64_xz},
    {"crc16_xmodem", FASTCALL_KW(py_crc16_xmodem), doc_crc16_xmodem},
    {"new", FASTCALL_KW(crcpy_new),
     "new($module, /, algo, data=b'')\n--\n\n"
     "A hashlib-style CRC object for `algo`: a catalogue name or alias (case-insensitive:\n"
     "'crc32c', 'CRC-24/OPENPGP'), or a custom model given as any object or mapping with\n"
     "width, poly, init, refin, refout and xorout (e.g. crcforge.Params(...)).\n"
     "ValueError names an unknown algorithm or says why parameters are invalid."},
    {"combine", (PyCFunction)(void (*)(void))py_combine, METH_FASTCALL, doc_combine},
    {"keyslot", (PyCFunction)py_keyslot, METH_O, doc_keyslot},
    {"keyslots", (PyCFunction)py_keyslots, METH_O, doc_keyslots},
    {"implementations", (PyCFunction)py_implementations, METH_NOARGS, doc_implementations},
    {"implementation", (PyCFunction)py_implementation, METH_O, doc_implementation},
    {"force_implementation", (PyCFunction)py_force_implementation, METH_O,
     doc_force_implementation},
    {"cpu_features", (PyCFunction)py_cpu_features, METH_NOARGS, doc_cpu_features},
    {"_environment_problems", (PyCFunction)py_environment_problems, METH_NOARGS,
     doc_environment_problems},
    {"_catalogue", (PyCFunction)py_catalogue, METH_NOARGS,
     "The catalogue as tuples (name, aliases, width, poly, init, refin, refout, xorout, "
     "check, residue); crcforge.models() wraps them."},
    {"_parse_size", (PyCFunction)py_parse_size, METH_O,
     "_parse_size(text, /)\n--\n\nA byte size as crcforge sum --part-size reads it (digits, then "
     "optionally K, KB,\nKiB, M, ... in any case, all powers of 1024), or None when the text is "
     "not one."},
    {"cli", FASTCALL_KW(crcpy_cli),
     "cli($module, /, args, host=None)\n--\n\n"
     "Runs the crcforge command line `args` (str or bytes, without the program's name) with\n"
     "the C tool's code, writing to sys.stdout and sys.stderr; returns the exit status.\n"
     "`host` adds python -m crcforge's URLs, --scheduler and verify (see crcforge.__main__).\n"
     "Ctrl-C raises KeyboardInterrupt; the GIL is released while the engine runs."},
    {"_set_gil_threshold", (PyCFunction)py_set_gil_threshold, METH_O,
     "Set the size from which inputs are hashed with the GIL released; returns the old one."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "crcforge._crcforge",
    .m_doc = "The C extension behind the crcforge package (use `import crcforge`).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__crcforge(void)
{
    if (crcpy_hash_type_init() < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL)
        return NULL;
    if (crcpy_models_init(m) < 0 || crcpy_cli_init() < 0 ||
        PyModule_AddObjectRef(m, "CRC", (PyObject *)crcpy_hash_type) < 0 ||
        PyModule_AddStringConstant(m, "__version__", CRCFORGE_VERSION) < 0 ||
        PyModule_AddIntConstant(m, "GIL_THRESHOLD", (long)crcpy_gil_threshold) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
