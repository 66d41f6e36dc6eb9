/*
 * `algo` arguments: catalogue names (looked up once per distinct string, then served from
 * a dict) and custom models from the six parameters (kept in a small cache so that
 * repeated use does not rebuild the model and its tables).
 */
#include "ext.h"

#define CUSTOM_CACHE_MAX 256 /* distinct custom models kept; the cache restarts when full */

static PyObject *name_cache;   /* str -> capsule of a catalogue model (no destructor) */
static PyObject *custom_cache; /* params tuple -> capsule owning a custom model */

static const char *const param_names[6] = {"width", "poly", "init", "refin", "refout", "xorout"};

static void custom_model_free(PyObject *capsule)
{
    crcforge_model_free(PyCapsule_GetPointer(capsule, "crcforge.custom_model"));
}

int crcpy_value_arg(PyObject *obj, unsigned width, const char *fname, const char *what,
                    uint64_t *out)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s(): %s must be an int, not '%.100s'", fname, what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear();
    } else if (width >= 64 || (v >> width) == 0) {
        *out = v;
        return 0;
    }
    PyErr_Format(PyExc_ValueError, "%s(): %s %R is not in 0..2**%u-1", fname, what, obj, width);
    return -1;
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
    capsule = PyCapsule_New((void *)m, NULL, NULL);
    if (capsule == NULL || PyDict_SetItem(name_cache, name, capsule) < 0) {
        Py_XDECREF(capsule);
        return NULL;
    }
    Py_DECREF(capsule);
    return m;
}

/* One of the six parameters, from a dict or an attribute; a new reference or NULL. */
static PyObject *param_item(PyObject *algo, const char *key)
{
    PyObject *v;
    if (PyDict_Check(algo)) {
        v = PyDict_GetItemString(algo, key);
        Py_XINCREF(v);
    } else {
        v = PyObject_GetAttrString(algo, key);
        if (v == NULL && PyErr_ExceptionMatches(PyExc_AttributeError))
            PyErr_Clear();
    }
    if (v == NULL && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "custom model: parameter %s is missing", key);
    return v;
}

static int params_from(PyObject *algo, crcforge_params *p, PyObject **key)
{
    PyObject *values[6] = {NULL};
    uint64_t nums[6];
    int rc = -1;
    for (int k = 0; k < 6; k++) {
        values[k] = param_item(algo, param_names[k]);
        if (values[k] == NULL)
            goto out;
        if (k == 3 || k == 4) { /* refin, refout: a bool (or 0/1) */
            if (!PyLong_Check(values[k])) {
                PyErr_Format(PyExc_TypeError, "custom model: %s must be a bool, not '%.100s'",
                             param_names[k], Py_TYPE(values[k])->tp_name);
                goto out;
            }
            int t = PyObject_IsTrue(values[k]);
            if (t < 0)
                goto out;
            nums[k] = (uint64_t)t;
            Py_SETREF(values[k], PyBool_FromLong(t));
        } else if (crcpy_value_arg(values[k], 64, "custom model", param_names[k], &nums[k]) < 0) {
            goto out;
        }
    }
    *p = (crcforge_params){nums[0] > 64 ? 0 : (unsigned)nums[0], nums[1], nums[2], (int)nums[3],
                           (int)nums[4], nums[5]};
    if (nums[0] > 64) {
        PyErr_Format(PyExc_ValueError, "custom model: width %R is not in 1..64", values[0]);
        goto out;
    }
    *key = PyTuple_Pack(6, values[0], values[1], values[2], values[3], values[4], values[5]);
    rc = *key == NULL ? -1 : 0;
out:
    for (int k = 0; k < 6; k++)
        Py_XDECREF(values[k]);
    return rc;
}

static const crcforge_model *custom_model(PyObject *algo, PyObject **owner)
{
    crcforge_params p;
    PyObject *key = NULL;
    if (params_from(algo, &p, &key) < 0)
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
    if (PyDict_GET_SIZE(custom_cache) >= CUSTOM_CACHE_MAX)
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

const crcforge_model *crcpy_model(PyObject *algo, PyObject **owner)
{
    *owner = NULL;
    if (PyUnicode_Check(algo))
        return catalogue_model(algo);
    if (PyBytes_Check(algo) || PyByteArray_Check(algo) || PyLong_Check(algo)) {
        PyErr_Format(PyExc_TypeError,
                     "algo must be a model name (str) or an object with width, poly, init, "
                     "refin, refout and xorout, not '%.100s'", Py_TYPE(algo)->tp_name);
        return NULL;
    }
    return custom_model(algo, owner);
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
    return name_cache != NULL && custom_cache != NULL ? 0 : -1;
}
