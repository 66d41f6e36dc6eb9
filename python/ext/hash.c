/* SPDX-License-Identifier: MIT */
/*
 * The hashlib-style CRC object returned by crcforge.new(): streaming state over one model,
 * with update / digest / hexdigest / copy and the value as an int.
 *
 * Updates that release the GIL take the object's lock (made on first need, as hashlib
 * does), so that two threads updating one object never interleave inside the state.
 */
#include "ext.h"

#include <stdio.h>

#include "pythread.h"

typedef struct {
    PyObject_HEAD
    crcforge_state st;
    const crcforge_model *model; /* the model st streams (the state is opaque) */
    PyObject *owner;         /* keeps a custom model alive; NULL for catalogue models */
    PyThread_type_lock lock; /* NULL until an update first releases the GIL */
} crcpy_hash;

static unsigned hash_width(const crcpy_hash *h)
{
    return crcforge_model_params(h->model)->width;
}

static crcpy_hash *hash_alloc(const crcforge_model *m, PyObject *owner)
{
    crcpy_hash *h = PyObject_New(crcpy_hash, crcpy_hash_type);
    if (h == NULL)
        return NULL;
    crcforge_init(&h->st, m);
    h->model = m;
    h->owner = owner;
    h->lock = NULL;
    return h;
}

/* An object of a heap type holds a reference to its type. */
static void hash_dealloc(crcpy_hash *h)
{
    PyTypeObject *type = Py_TYPE((PyObject *)h);
    if (h->lock != NULL)
        PyThread_free_lock(h->lock);
    Py_XDECREF(h->owner);
    PyObject_Free(h);
    Py_DECREF(type);
}

/* Takes h's lock (which exists).  Another thread may hold it through a GIL-free update:
 * then wait for it with the GIL released, so that thread can finish. */
static void hash_lock(crcpy_hash *h)
{
    if (!PyThread_acquire_lock(h->lock, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(h->lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
}

static int hash_feed(crcpy_hash *h, PyObject *data, const char *fname)
{
    crcpy_data d;
    if (crcpy_data_get(data, &d, fname) < 0)
        return -1;
    if (d.len >= crcpy_gil_threshold) {
        if (h->lock == NULL && (h->lock = PyThread_allocate_lock()) == NULL) {
            crcpy_data_release(&d);
            PyErr_NoMemory();
            return -1;
        }
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(h->lock, WAIT_LOCK);
        crcforge_update(&h->st, d.buf, (size_t)d.len);
        PyThread_release_lock(h->lock);
        Py_END_ALLOW_THREADS
    } else if (h->lock != NULL) {
        hash_lock(h);
        crcforge_update(&h->st, d.buf, (size_t)d.len);
        PyThread_release_lock(h->lock);
    } else {
        crcforge_update(&h->st, d.buf, (size_t)d.len);
    }
    crcpy_data_release(&d);
    return 0;
}

/* A snapshot of the state, read under the lock when one exists. */
static crcforge_state hash_state(crcpy_hash *h)
{
    if (h->lock == NULL)
        return h->st;
    hash_lock(h);
    crcforge_state st = h->st;
    PyThread_release_lock(h->lock);
    return st;
}

static uint64_t hash_value(crcpy_hash *h)
{
    crcforge_state st = hash_state(h);
    return crcforge_final(&st);
}

PyObject *crcpy_new(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames)
{
    (void)module;
    static const char *const names[] = {"algo", "data"};
    PyObject *slots[2];
    if (crcpy_args("new", args, nargs, kwnames, names, 2, 1, slots) < 0)
        return NULL;
    PyObject *algo = slots[0], *data = slots[1];
    PyObject *owner;
    const crcforge_model *m = crcpy_model(algo, &owner);
    if (m == NULL)
        return NULL;
    crcpy_hash *h = hash_alloc(m, owner);
    if (h == NULL) {
        Py_XDECREF(owner);
        return NULL;
    }
    if (data != NULL && hash_feed(h, data, "new") < 0) {
        Py_DECREF(h);
        return NULL;
    }
    return (PyObject *)h;
}

static PyObject *hash_update(crcpy_hash *h, PyObject *data)
{
    if (hash_feed(h, data, "update") < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *hash_digest(crcpy_hash *h, PyObject *unused)
{
    (void)unused;
    uint64_t v = hash_value(h);
    unsigned n = (hash_width(h) + 7) / 8;
    unsigned char bytes[8];
    for (unsigned i = 0; i < n; i++)
        bytes[i] = (unsigned char)(v >> (8 * (n - 1 - i)));
    return PyBytes_FromStringAndSize((const char *)bytes, n);
}

static PyObject *hash_hexdigest(crcpy_hash *h, PyObject *unused)
{
    (void)unused;
    uint64_t v = hash_value(h);
    unsigned n = (hash_width(h) + 7) / 8;
    char text[16];
    static const char hex[] = "0123456789abcdef";
    for (unsigned i = 0; i < 2 * n; i++)
        text[i] = hex[(v >> (4 * (2 * n - 1 - i))) & 15];
    return PyUnicode_FromStringAndSize(text, 2 * n);
}

static PyObject *hash_copy(crcpy_hash *h, PyObject *unused)
{
    (void)unused;
    crcpy_hash *c = hash_alloc(h->model, Py_XNewRef(h->owner));
    if (c == NULL) {
        Py_XDECREF(h->owner);
        return NULL;
    }
    c->st = hash_state(h);
    return (PyObject *)c;
}

static PyObject *hash_get_value(crcpy_hash *h, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLongLong(hash_value(h));
}

static PyObject *hash_get_name(crcpy_hash *h, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(crcforge_model_name(h->model));
}

static PyObject *hash_get_digest_size(crcpy_hash *h, void *closure)
{
    (void)closure;
    return PyLong_FromLong((hash_width(h) + 7) / 8);
}

/* hashlib's block_size: a CRC takes its input a byte at a time, with no padding to a block,
 * so any split of the input gives the same value. */
static PyObject *hash_get_block_size(crcpy_hash *h, void *closure)
{
    (void)h;
    (void)closure;
    return PyLong_FromLong(1);
}

static PyObject *hash_get_width(crcpy_hash *h, void *closure)
{
    (void)closure;
    return PyLong_FromLong(hash_width(h));
}

static PyObject *hash_repr(crcpy_hash *h)
{
    unsigned digits = (hash_width(h) + 3) / 4;
    char text[24];
    snprintf(text, sizeof text, "0x%0*llx", (int)digits, (unsigned long long)hash_value(h));
    return PyUnicode_FromFormat("<crcforge.CRC %s value=%s>", crcforge_model_name(h->model),
                                text);
}

static PyMethodDef hash_methods[] = {
    {"update", (PyCFunction)hash_update, METH_O,
     "update(data, /)\n--\n\nContinue the CRC with the bytes of `data` (any C-contiguous buffer)."},
    {"digest", (PyCFunction)hash_digest, METH_NOARGS,
     "digest()\n--\n\nThe value as big-endian bytes, ceil(width / 8) of them."},
    {"hexdigest", (PyCFunction)hash_hexdigest, METH_NOARGS,
     "hexdigest()\n--\n\ndigest() in lowercase hexadecimal (2 * digest_size digits)."},
    {"copy", (PyCFunction)hash_copy, METH_NOARGS,
     "copy()\n--\n\nAn independent object in the same state."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef hash_getset[] = {
    {"value", (getter)hash_get_value, NULL, "The CRC of the bytes so far, as an int.", NULL},
    {"name", (getter)hash_get_name, NULL,
     "The model's catalogue name (\"CRC-32/ISCSI\"), or \"custom\".", NULL},
    {"digest_size", (getter)hash_get_digest_size, NULL, "Bytes in digest(): ceil(width / 8).",
     NULL},
    {"block_size", (getter)hash_get_block_size, NULL,
     "1, as hashlib names it: a CRC has no input block (any split of the bytes gives the same\n"
     "value).", NULL},
    {"width", (getter)hash_get_width, NULL, "The model's width in bits.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* A heap type, as the limited API has them; immutable, as a static type is. */
static PyType_Slot hash_slots[] = {
    {Py_tp_dealloc, (void *)hash_dealloc},
    {Py_tp_repr, (void *)hash_repr},
    {Py_tp_doc, (void *)"A running CRC of one model, made by crcforge.new(); hashlib-style."},
    {Py_tp_methods, hash_methods},
    {Py_tp_getset, hash_getset},
    {0, NULL},
};

static PyType_Spec hash_spec = {
    .name = "crcforge.CRC",
    .basicsize = sizeof(crcpy_hash),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = hash_slots,
};

PyTypeObject *crcpy_hash_type;

int crcpy_hash_type_init(void)
{
    crcpy_hash_type = (PyTypeObject *)PyType_FromSpec(&hash_spec);
    return crcpy_hash_type != NULL ? 0 : -1;
}
