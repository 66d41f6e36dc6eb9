/* SPDX-License-Identifier: MIT */
/*
 * _crcforge.cli(args, host=None): the command-line tool's engine (tools/, the code of the
 * `crcforge` program) run inside the interpreter.  It runs with the GIL released -- the
 * hashing, -j's threads and the progress thread alike -- and takes the GIL back only in
 * the hooks below: to write (to whatever sys.stdout and sys.stderr are at that moment),
 * to let Python handle a signal (Ctrl-C raises KeyboardInterrupt), and to call the host
 * object's methods (python -m crcforge's URLs, --scheduler and verify).  An exception
 * raised in a hook stops the run, and cli() raises it.
 */
#include "ext.h" /* Python.h first, as Python asks */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "input.h"
#include "platform.h"

/* The run under way (the engine runs one at a time; `lock` makes callers wait their
 * turn). */
struct run {
    PyObject *host;  /* the host object, or NULL */
    PyObject *error; /* the first exception raised in a hook */
};

static PyThread_type_lock lock;
static unsigned long lock_owner; /* the thread running the engine, 0 when none */

/* Keeps the first exception raised in a hook, and stops the run (GIL held). */
static void stop_with_error(struct run *r)
{
    PyObject *e = crcpy_take_error();
    if (r->error == NULL)
        r->error = e;
    else
        Py_XDECREF(e);
    cli_stop();
}

/* A str of a hook's result as a malloc()ed copy, or NULL with the run stopped. */
static char *message_copy(struct run *r, PyObject *text)
{
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, NULL);
    char *copy = utf8 != NULL ? strdup(utf8) : NULL;
    if (utf8 == NULL)
        stop_with_error(r);
    else if (copy == NULL)
        cli_stop();
    return copy;
}

/* A hook's result that is None or a message (a str); anything else stops the run. */
static char *none_or_message(struct run *r, PyObject *result)
{
    char *message = NULL;
    if (result == NULL) {
        stop_with_error(r);
    } else if (PyUnicode_Check(result)) {
        message = message_copy(r, result);
    } else if (result != Py_None) {
        PyObject *keep;
        PyErr_Format(PyExc_TypeError, "the CLI host returned %.100s, not None or a str",
                     crcpy_type_name(result, &keep));
        Py_XDECREF(keep);
        stop_with_error(r);
    }
    Py_XDECREF(result);
    /* The engine reports a message and fails the command; once stopped, silently. */
    return message != NULL || !cli_stopped() ? message : strdup("");
}

/* Writing: to the object sys.<name> is now, the engine's stream buffering as stdio would
 * (tools/stream.h).  Bytes go to its binary buffer when it has one (after what Python
 * wrote to the text layer), else as text (io.StringIO).  Flushed at once, so that a
 * failure is seen by the engine (errno, as a write(2) would set it). */
struct stream {
    struct run *run;
    const char *name; /* "stdout" or "stderr" */
};

static int write_to(PyObject *target, const char *buf, size_t len)
{
    PyObject *binary = PyObject_GetAttrString(target, "buffer");
    if (binary == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))
            return -1;
        PyErr_Clear();
        PyObject *text = PyUnicode_DecodeFSDefaultAndSize(buf, (Py_ssize_t)len);
        PyObject *done = text != NULL ? PyObject_CallMethod(target, "write", "O", text) : NULL;
        Py_XDECREF(text);
        Py_XDECREF(done);
        return done != NULL ? 0 : -1;
    }
    PyObject *done = PyObject_CallMethod(target, "flush", NULL);
    for (size_t off = 0; done != NULL && off < len;) {
        Py_DECREF(done);
        done = PyObject_CallMethod(binary, "write", "y#", buf + off, (Py_ssize_t)(len - off));
        Py_ssize_t n = done == NULL ? 0 : done == Py_None ? 0 : PyLong_AsSsize_t(done);
        if (n <= 0 && done != NULL) { /* a raw stream that took nothing */
            Py_DECREF(done);
            done = NULL;
            if (!PyErr_Occurred()) {
                errno = EIO;
                PyErr_SetFromErrno(PyExc_OSError);
            }
        }
        off += (size_t)n;
    }
    if (done != NULL) {
        Py_DECREF(done);
        done = PyObject_CallMethod(binary, "flush", NULL);
    }
    Py_DECREF(binary);
    Py_XDECREF(done);
    return done != NULL ? 0 : -1;
}

static ssize_t stream_write(void *cookie, const char *buf, size_t len)
{
    struct stream *s = cookie;
    PyGILState_STATE gil = PyGILState_Ensure();
    int err = 0;
    PyObject *target = PySys_GetObject(s->name); /* borrowed */
    if (target == NULL || target == Py_None) {
        err = EBADF; /* started with that descriptor closed */
    } else if (write_to(target, buf, len) != 0) {
        if (PyErr_ExceptionMatches(PyExc_OSError)) {
            PyObject *e = crcpy_take_error();
            PyObject *no = PyObject_GetAttrString(e, "errno");
            err = no != NULL && PyLong_Check(no) ? (int)PyLong_AsLong(no) : EIO;
            Py_XDECREF(no);
            Py_DECREF(e);
            PyErr_Clear();
        } else {
            stop_with_error(s->run);
            err = EIO;
        }
    }
    PyGILState_Release(gil);
    if (err != 0) {
        errno = err;
        return -1;
    }
    return (ssize_t)len;
}

/* sys.<name>.fileno(), or -1 when it has none. */
static int fileno_of(const char *name)
{
    PyObject *obj = PySys_GetObject(name);
    PyObject *fd = obj != NULL && obj != Py_None ? PyObject_CallMethod(obj, "fileno", NULL) : NULL;
    int n = fd != NULL && PyLong_Check(fd) ? (int)PyLong_AsLong(fd) : -1;
    Py_XDECREF(fd);
    PyErr_Clear();
    return n;
}

/* Ctrl-C: Python's signal handlers run here (the main thread only), and a KeyboardInterrupt
 * they raise stops the run. */
static int interrupted(void *ctx)
{
    struct run *r = ctx;
    PyGILState_STATE gil = PyGILState_Ensure();
    if (PyErr_CheckSignals() < 0)
        stop_with_error(r);
    int stop = r->error != NULL;
    PyGILState_Release(gil);
    return stop;
}

static char *host_option(void *ctx, const char *command, const char *name, const char *value)
{
    struct run *r = ctx;
    PyGILState_STATE gil = PyGILState_Ensure();
    char *message = none_or_message(
        r, PyObject_CallMethod(r->host, "option", "ssO&", command, name,
                               PyUnicode_DecodeFSDefault, value));
    PyGILState_Release(gil);
    return message;
}

static char *host_start(void *ctx, const char *command)
{
    struct run *r = ctx;
    PyGILState_STATE gil = PyGILState_Ensure();
    char *message = none_or_message(r, PyObject_CallMethod(r->host, "start", "s", command));
    PyGILState_Release(gil);
    return message;
}

/* The model as an `algo` argument: its catalogue name, or its six parameters. */
static PyObject *algo_of(const crcforge_model *m)
{
    const char *name = crcforge_model_name(m);
    if (crcforge_model_find(name) == m)
        return PyUnicode_FromString(name);
    const crcforge_params *p = crcforge_model_params(m);
    return Py_BuildValue("{sIsKsKsOsOsK}", "width", p->width, "poly",
                         (unsigned long long)p->poly, "init", (unsigned long long)p->init,
                         "refin", p->refin ? Py_True : Py_False, "refout",
                         p->refout ? Py_True : Py_False, "xorout",
                         (unsigned long long)p->xorout);
}

/* The spec's algorithms as host.remote's `algo`: the one, or the list of them all. */
static PyObject *algos_of(const struct hash_spec *spec)
{
    if (spec->nalgos == 1)
        return algo_of(spec->algos[0].model);
    PyObject *list = PyList_New((Py_ssize_t)spec->nalgos);
    for (unsigned a = 0; list != NULL && a < spec->nalgos; a++) {
        PyObject *algo = algo_of(spec->algos[a].model);
        if (algo == NULL)
            Py_CLEAR(list);
        else
            PyList_SetItem(list, a, algo);
    }
    return list;
}

/* One part's value as host.remote gives it (an int; with several algorithms, a tuple of
 * one int each) into crcs[0..nalgos); -1 with an error set. */
static int part_values(PyObject *value, unsigned nalgos, uint64_t *crcs)
{
    if (nalgos == 1) {
        crcs[0] = PyLong_AsUnsignedLongLong(value);
        return PyErr_Occurred() ? -1 : 0;
    }
    if (!PyTuple_Check(value) || PyTuple_Size(value) != (Py_ssize_t)nalgos) {
        PyErr_Format(PyExc_TypeError, "the CLI host gave a part value %.100R, not a tuple of "
                     "%u ints", value, nalgos);
        return -1;
    }
    for (unsigned a = 0; a < nalgos; a++) {
        crcs[a] = PyLong_AsUnsignedLongLong(PyTuple_GetItem(value, a));
        if (PyErr_Occurred())
            return -1;
    }
    return 0;
}

/* host.remote(name, algo, part_size, threads), algo one or the list of several: None (not
 * the host's input), the CRC of every part and the size of every part (two lists:
 * objects.part_crcs's result), or why it gave no value (a str). */
static int host_remote(void *ctx, const char *name, const struct hash_spec *spec,
                       uint64_t *crcs, unsigned long max, unsigned long *count, uint64_t *size,
                       char **reason)
{
    struct run *r = ctx;
    PyGILState_STATE gil = PyGILState_Ensure();
    int rc = -1;
    PyObject *algo = algos_of(spec);
    PyObject *result = algo == NULL ? NULL
                                    : PyObject_CallMethod(r->host, "remote", "O&OKI",
                                                          PyUnicode_DecodeFSDefault, name, algo,
                                                          (unsigned long long)spec->part_size,
                                                          spec->threads);
    Py_XDECREF(algo);
    PyObject *values, *sizes;
    if (result == Py_None) {
        rc = 0;
    } else if (result != NULL && PyUnicode_Check(result)) {
        *reason = message_copy(r, result);
    } else if (result != NULL && PyTuple_Check(result) &&
               PyArg_ParseTuple(result, "O!O!", &PyList_Type, &values, &PyList_Type, &sizes)) {
        Py_ssize_t n = PyList_Size(values);
        *count = (unsigned long)n;
        *size = 0;
        rc = n >= 1 && (unsigned long)n <= max && PyList_Size(sizes) == n ? 1 : -1;
        for (Py_ssize_t i = 0; rc > 0 && i < n; i++) {
            /* Stop at the first error: no further call with its exception pending, which
             * would replace it or, in a debug build of Python, fail an assertion. */
            if (part_values(PyList_GetItem(values, i), spec->nalgos,
                            &crcs[(size_t)i * spec->nalgos]) != 0) {
                rc = -1;
                break;
            }
            *size += PyLong_AsUnsignedLongLong(PyList_GetItem(sizes, i));
            if (PyErr_Occurred())
                rc = -1;
        }
        if (rc < 0 && !PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "the CLI host gave %zd part values and %zd sizes for "
                         "%s, not 1 to %lu of each", n, PyList_Size(sizes), name, max);
    } else if (result != NULL && !PyErr_Occurred()) {
        PyObject *keep;
        PyErr_Format(PyExc_TypeError, "the CLI host's remote() returned %.100s, not None, a str "
                     "or two lists", crcpy_type_name(result, &keep));
        Py_XDECREF(keep);
    }
    if (PyErr_Occurred() || result == NULL) {
        stop_with_error(r);
        rc = -1;
    }
    Py_XDECREF(result);
    PyGILState_Release(gil);
    return rc;
}

/* A str attribute of the verification as a malloc()ed copy (NULL with an error set). */
static char *text_attr(PyObject *obj, const char *name)
{
    PyObject *value = PyObject_GetAttrString(obj, name);
    const char *utf8 = value != NULL ? PyUnicode_AsUTF8AndSize(value, NULL) : NULL;
    char *copy = utf8 != NULL ? strdup(utf8) : NULL;
    if (utf8 != NULL && copy == NULL)
        PyErr_NoMemory();
    Py_XDECREF(value);
    return copy;
}

static uint64_t number_attr(PyObject *obj, const char *name)
{
    PyObject *value = PyObject_GetAttrString(obj, name);
    uint64_t n = value != NULL ? PyLong_AsUnsignedLongLong(value) : 0;
    Py_XDECREF(value);
    return n;
}

/* host.verify(file, url, threads): a crcforge.objects.Verification, or (operand, reason)
 * when FILE or URL could not be read. */
static void host_verify(void *ctx, const char *file, const char *url, unsigned threads,
                        struct cli_verification *out)
{
    struct run *r = ctx;
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *result = PyObject_CallMethod(r->host, "verify", "O&O&I", PyUnicode_DecodeFSDefault,
                                           file, PyUnicode_DecodeFSDefault, url, threads);
    PyObject *operand, *reason;
    if (result != NULL && PyTuple_CheckExact(result) &&
        PyArg_ParseTuple(result, "UU", &operand, &reason)) {
        out->failed = PyUnicode_CompareWithASCIIString(operand, url) == 0 ? url : file;
        out->reason = message_copy(r, reason);
    } else if (result != NULL && !PyErr_Occurred()) {
        PyObject *parts = PyObject_GetAttrString(result, "part_sizes");
        out->parts = parts != NULL ? (unsigned long)PyObject_Length(parts) : 0;
        Py_XDECREF(parts);
        PyObject *ok = PyObject_GetAttrString(result, "ok");
        out->ok = ok != NULL && PyObject_IsTrue(ok) == 1;
        Py_XDECREF(ok);
        out->algorithm = text_attr(result, "algorithm");
        out->checksum_type = text_attr(result, "checksum_type");
        out->stored = text_attr(result, "stored");
        out->computed = text_attr(result, "computed");
        out->file_size = number_attr(result, "file_size");
        out->object_size = number_attr(result, "object_size");
    }
    if (result == NULL || PyErr_Occurred()) {
        stop_with_error(r);
        out->failed = file;
    }
    Py_XDECREF(result);
    PyGILState_Release(gil);
}

/* args as the engine's argv (argv[0] the program) and its count: file names in the
 * filesystem's encoding, as os.fsencode gives them.  *keep owns the strings. */
static char **argv_of(PyObject *args, const char *program, int *argc, PyObject **keep)
{
    *keep = NULL;
    PyObject *items = crcpy_sequence(args, "cli(): args must be a sequence of str or bytes");
    if (items == NULL)
        return NULL;
    Py_ssize_t n = PyTuple_Size(items);
    *keep = PyList_New(n);
    char **argv = PyMem_New(char *, (size_t)n + 2);
    if (*keep == NULL || argv == NULL) {
        Py_DECREF(items);
        Py_CLEAR(*keep);
        PyMem_Free(argv);
        return (char **)PyErr_NoMemory();
    }
    argv[0] = (char *)program;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *bytes = NULL;
        if (!PyUnicode_FSConverter(PyTuple_GetItem(items, i), &bytes)) {
            Py_DECREF(items);
            Py_CLEAR(*keep);
            PyMem_Free(argv);
            return NULL;
        }
        PyList_SetItem(*keep, i, bytes);
        argv[i + 1] = PyBytes_AsString(bytes);
    }
    argv[n + 1] = NULL;
    Py_DECREF(items);
    *argc = (int)n + 1;
    return argv;
}

/* The engine's lock: waited for without the GIL; a hook calling cli() again would wait
 * for itself, and is refused. */
static int take_lock(void)
{
    if (!PyThread_acquire_lock(lock, NOWAIT_LOCK)) {
        if (lock_owner == PyThread_get_thread_ident()) {
            PyErr_SetString(PyExc_RuntimeError, "cli() called from within cli()");
            return -1;
        }
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
    lock_owner = PyThread_get_thread_ident();
    return 0;
}

static void give_lock(void)
{
    lock_owner = 0;
    PyThread_release_lock(lock);
}

/* A run's standard output and standard error (one run at a time: the lock). */
static struct cli_stream out_stream, err_stream;

PyObject *crcpy_cli(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames)
{
    (void)module;
    static const char *const names[] = {"args", "host"};
    PyObject *slots[2];
    if (crcpy_args("cli", args, nargs, kwnames, names, 2, 1, slots) < 0)
        return NULL;
    struct run run = {slots[1] != NULL && slots[1] != Py_None ? slots[1] : NULL, NULL};
    const char *program = "crcforge";
    PyObject *program_obj = NULL, *keep;
    if (run.host != NULL) {
        program_obj = PyObject_GetAttrString(run.host, "program");
        program = program_obj != NULL ? PyUnicode_AsUTF8AndSize(program_obj, NULL) : NULL;
        if (program == NULL) {
            Py_XDECREF(program_obj);
            return NULL;
        }
    }
    int argc = 0;
    char **argv = argv_of(slots[0], program, &argc, &keep);
    if (argv == NULL || take_lock() < 0) {
        Py_XDECREF(program_obj);
        Py_XDECREF(keep);
        PyMem_Free(argv);
        return NULL;
    }
    const struct cli_hooks hooks = {
        .ctx = &run, .interrupted = interrupted,
        .option = run.host != NULL ? host_option : NULL,
        .start = run.host != NULL ? host_start : NULL,
        .remote = run.host != NULL ? host_remote : NULL,
        .verify = run.host != NULL ? host_verify : NULL,
    };
    struct stream out = {&run, "stdout"}, err = {&run, "stderr"};
    int out_fd = fileno_of("stdout"), in_fd = PySys_GetObject("stdin") == Py_None ? -1 : 0;
    int status = EXIT_TROUBLE, rc = cli_stream_of_writer(
        &out_stream, stream_write, &out, out_fd >= 0 && platform_is_terminal(out_fd));
    if (rc == 0 && (rc = cli_stream_of_writer(&err_stream, stream_write, &err, 1)) != 0)
        cli_stream_close(&out_stream);
    if (rc != 0) {
        errno = rc;
        PyErr_SetFromErrno(PyExc_OSError);
    } else {
        const struct cli_host host = {
            .program = program, .out = &out_stream, .err = &err_stream, .in = in_fd,
            .err_fd = fileno_of("stderr"), .hooks = &hooks,
        };
        Py_BEGIN_ALLOW_THREADS
        status = cli_run(&host, argc, argv);
        /* Closed with the GIL released: what is still buffered is written by the hooks. */
        cli_stream_close(&out_stream);
        cli_stream_close(&err_stream);
        Py_END_ALLOW_THREADS
    }
    give_lock();
    crcpy_model_cache_clear(); /* the run may have forced a path (CRCFORGE_IMPL) */
    PyMem_Free(argv);
    Py_DECREF(keep);
    Py_XDECREF(program_obj);
    if (run.error != NULL) {
        crcpy_restore_error(run.error);
        return NULL;
    }
    if (PyErr_Occurred())
        return NULL;
    return PyLong_FromLong(status);
}

int crcpy_cli_init(void)
{
    lock = PyThread_allocate_lock();
    if (lock == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}
