/* SPDX-License-Identifier: MIT */
/*
 * `algo` arguments: catalogue names (looked up once per spelling, then served from a
 * dict) and custom models from the six parameters (kept in a small cache so that
 * repeated use does not rebuild the model and its tables).  Both caches are bounded.
 */
#include "ext.h"

#include <string.h>

#define CUSTOM_CACHE_MAX 256 /* distinct custom models kept; the cache restarts when full */
#define NAME_CACHE_MAX 256   /* spellings kept ("crc32c", "CRC32C", ...); restarts too */

static PyObject *name_cache;   /* str -> capsule of a catalogue model (no destructor) */
static PyObject *custom_cache; /* params tuple -> capsule owning a custom model */
static PyObject *mapping_type; /* collections.abc.Mapping */

static const char *const param_names[6] = {"width", "poly", "init", "refin", "refout", "xorout"};

static void custom_model_free(PyObject *capsule)
{
    crcforge_model_free(PyCapsule_GetPointer(capsule, "crcforge.custom_model"));
}

/* 0 with *out set when the int `obj` is in 0..2**width-1; 1 (no error set) when it is
 * outside; -1 on another error. */
static int uint_in_range(PyObject *obj, unsigned width, uint64_t *out)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear(); /* negative, or 2**64 and above */
        return 1;
    }
    if (width < 64 && (v >> width) != 0)
        return 1;
    *out = v;
    return 0;
}

int crcpy_value_arg(PyObject *obj, unsigned width, const char *fname, const char *what,
                    uint64_t *out)
{
    if (!PyLong_Check(obj)) {
        PyObject *keep;
        PyErr_Format(PyExc_TypeError, "%s(): %s must be an int, not '%.100s'", fname, what,
                     crcpy_type_name(obj, &keep));
        Py_XDECREF(keep);
        return -1;
    }
    int rc = uint_in_range(obj, width, out);
    if (rc == 1)
        PyErr_Format(PyExc_ValueError, "%s(): %s %R is not in 0..2**%u-1", fname, what, obj,
                     width);
    return rc == 0 ? 0 : -1;
}

static const crcforge_model *catalogue_model(PyObject *name)
{
    PyObject *capsule = PyDict_GetItemWithError(name_cache, name);
    if (capsule != NULL)
        return PyCapsule_GetPointer(capsule, NULL);
    if (PyErr_Occurred())
        return NULL;
    Py_ssize_t size;
    const char *utf8 = PyUnicode_AsUTF8AndSize(name, &size);
    if (utf8 == NULL)
        return NULL;
    const crcforge_model *m = (size_t)size == strlen(utf8) ? crcforge_model_find(utf8) : NULL;
    if (m == NULL) {
        PyErr_Format(PyExc_ValueError, "unknown algorithm %R (see crcforge.models())", name);
        return NULL;
    }
    if (PyDict_Size(name_cache) >= NAME_CACHE_MAX)
        PyDict_Clear(name_cache);
    capsule = PyCapsule_New((void *)m, NULL, NULL);
    if (capsule == NULL || PyDict_SetItem(name_cache, name, capsule) < 0) {
        Py_XDECREF(capsule);
        return NULL;
    }
    Py_DECREF(capsule);
    return m;
}

/* One of the six parameters, as an item of a mapping or an attribute; a new reference,
 * or NULL with an error set (ValueError naming it when it is missing). */
static PyObject *param_item(PyObject *algo, int as_items, const char *key)
{
    PyObject *v;
    if (as_items) {
        PyObject *name = PyUnicode_FromString(key);
        if (name == NULL)
            return NULL;
        v = PyObject_GetItem(algo, name);
        Py_DECREF(name);
        if (v == NULL && PyErr_ExceptionMatches(PyExc_KeyError))
            PyErr_Clear();
    } else {
        v = PyObject_GetAttrString(algo, key);
        if (v == NULL && PyErr_ExceptionMatches(PyExc_AttributeError))
            PyErr_Clear();
    }
    if (v == NULL && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "custom model: parameter %s is missing", key);
    return v;
}

/* Parameter k's value: width in 1..64, refin and refout a bool (or 0 or 1), the others
 * in 0..2**64-1, reported against the model's width when out of range (bits above the
 * width in range are left to crcforge_model_new, which says so). */
static int param_value(PyObject *v, int k, unsigned width, uint64_t *out)
{
    const char *name = param_names[k];
    int is_bool = k == 3 || k == 4;
    if (!PyLong_Check(v)) {
        PyObject *keep;
        PyErr_Format(PyExc_TypeError, "custom model: %s must be %s, not '%.100s'", name,
                     is_bool ? "a bool (or 0 or 1)" : "an int", crcpy_type_name(v, &keep));
        Py_XDECREF(keep);
        return -1;
    }
    int rc = uint_in_range(v, k == 0 ? 7 : is_bool ? 1 : 64, out);
    if (rc == 0 && k == 0 && (*out < 1 || *out > 64))
        rc = 1;
    if (rc != 1)
        return rc;
    if (k == 0)
        PyErr_Format(PyExc_ValueError, "custom model: width %R is not in 1..64", v);
    else if (is_bool)
        PyErr_Format(PyExc_ValueError, "custom model: %s must be a bool (or 0 or 1), not %R",
                     name, v);
    else
        PyErr_Format(PyExc_ValueError, "custom model: %s %R is not in 0..2**%u-1", name, v,
                     width);
    return -1;
}

/* The six parameters of `algo`, and *key (a new reference) to cache its model under. */
static int params_from(PyObject *algo, int as_items, crcforge_params *p, PyObject **key)
{
    uint64_t nums[6];
    for (int k = 0; k < 6; k++) {
        PyObject *v = param_item(algo, as_items, param_names[k]);
        if (v == NULL)
            return -1;
        int rc = param_value(v, k, k == 0 ? 64 : (unsigned)nums[0], &nums[k]);
        Py_DECREF(v);
        if (rc < 0)
            return -1;
    }
    *p = (crcforge_params){(unsigned)nums[0], nums[1], nums[2], (int)nums[3], (int)nums[4],
                           nums[5]};
    *key = Py_BuildValue("(IKKiiK)", p->width, (unsigned long long)p->poly,
                         (unsigned long long)p->init, p->refin, p->refout,
                         (unsigned long long)p->xorout);
    return *key == NULL ? -1 : 0;
}

static const crcforge_model *custom_model(PyObject *algo, int as_items, PyObject **owner)
{
    crcforge_params p;
    PyObject *key = NULL;
    if (params_from(algo, as_items, &p, &key) < 0)
        return NULL;
    PyObject *capsule = PyDict_GetItemWithError(custom_cache, key);
    if (capsule != NULL) {
        Py_DECREF(key);
        *owner = Py_NewRef(capsule);
        return PyCapsule_GetPointer(capsule, "crcforge.custom_model");
    }
    if (PyErr_Occurred())
        goto fail;
    const char *why = "invalid parameters";
    crcforge_model *m = crcforge_model_new(&p, &why);
    if (m == NULL) {
        PyErr_Format(PyExc_ValueError, "custom model: %s", why);
        goto fail;
    }
    capsule = PyCapsule_New(m, "crcforge.custom_model", custom_model_free);
    if (capsule == NULL) {
        crcforge_model_free(m);
        goto fail;
    }
    if (PyDict_Size(custom_cache) >= CUSTOM_CACHE_MAX)
        PyDict_Clear(custom_cache);
    if (PyDict_SetItem(custom_cache, key, capsule) < 0) {
        Py_DECREF(capsule);
        goto fail;
    }
    Py_DECREF(key);
    *owner = capsule;
    return m;
fail:
    Py_DECREF(key);
    return NULL;
}

/* How `algo` gives a custom model's parameters: 1 as items (a mapping), 0 as attributes
 * (an object with a width, such as crcforge.Params), -1 neither or on error. */
static int params_kind(PyObject *algo)
{
    if (PyDict_Check(algo))
        return 1;
    PyObject *width = PyObject_GetAttrString(algo, "width");
    if (width != NULL) {
        Py_DECREF(width);
        return 0;
    }
    if (!PyErr_ExceptionMatches(PyExc_AttributeError))
        return -1;
    PyErr_Clear();
    int is_mapping = PyObject_IsInstance(algo, mapping_type);
    if (is_mapping != 0)
        return is_mapping > 0 ? 1 : -1;
    PyObject *keep;
    PyErr_Format(PyExc_TypeError,
                 "algo must be a model name (str), or an object or mapping with width, poly, "
                 "init, refin, refout and xorout, not '%.100s'", crcpy_type_name(algo, &keep));
    Py_XDECREF(keep);
    return -1;
}

const crcforge_model *crcpy_model(PyObject *algo, PyObject **owner)
{
    *owner = NULL;
    if (PyUnicode_Check(algo))
        return catalogue_model(algo);
    int as_items = params_kind(algo);
    return as_items < 0 ? NULL : custom_model(algo, as_items, owner);
}

void crcpy_model_cache_clear(void)
{
    PyDict_Clear(custom_cache);
}

int crcpy_models_init(PyObject *module)
{
    (void)module;
    name_cache = PyDict_New();
    custom_cache = PyDict_New();
    PyObject *abc = PyImport_ImportModule("collections.abc");
    if (abc != NULL) {
        mapping_type = PyObject_GetAttrString(abc, "Mapping");
        Py_DECREF(abc);
    }
    return name_cache != NULL && custom_cache != NULL && mapping_type != NULL ? 0 : -1;
}
