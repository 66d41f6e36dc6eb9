/* SPDX-License-Identifier: MIT */
/* crc32c(data, crc=0) with the package's own fast path (METH_FASTCALL, a bytes object read
 * in place, any other buffer through the buffer protocol), built twice by abi3_call.py:
 * against the full C API, and under the limited API of 3.11 (Py_LIMITED_API), where a
 * bytes object's storage is reached through PyBytes_AsStringAndSize instead of the
 * PyBytes_AS_STRING and PyBytes_GET_SIZE macros.  What the limited API costs a short call. */
#include <Python.h>

#include "crcforge.h"

static PyObject *probe_crc32c(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "crc32c(data, crc=0)");
        return NULL;
    }
    unsigned long crc = 0;
    if (nargs == 2) {
        crc = PyLong_AsUnsignedLong(args[1]);
        if (crc == (unsigned long)-1 && PyErr_Occurred())
            return NULL;
    }
    PyObject *data = args[0];
    Py_buffer view;
    int has_view = 0;
    char *buf;
    Py_ssize_t len;
    if (PyBytes_CheckExact(data)) {
#ifdef Py_LIMITED_API
        if (PyBytes_AsStringAndSize(data, &buf, &len) < 0)
            return NULL;
#else
        buf = PyBytes_AS_STRING(data);
        len = PyBytes_GET_SIZE(data);
#endif
    } else {
        if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0)
            return NULL;
        buf = view.buf;
        len = view.len;
        has_view = 1;
    }
    uint32_t v = crcforge_crc32c((uint32_t)crc, buf, (size_t)len);
    if (has_view)
        PyBuffer_Release(&view);
    return PyLong_FromUnsignedLong(v);
}

static PyMethodDef methods[] = {
    {"crc32c", (PyCFunction)(void (*)(void))probe_crc32c, METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_abi3probe", NULL, -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__abi3probe(void)
{
    return PyModule_Create(&module);
}
