/* The legal actions of a byte mask, for the compiled build's ``core.masks``.
 *
 * An engine that marks its legal actions in a ``bytearray`` (a byte per action, 1 for legal,
 * read by numpy without a copy) lists them for a search with ``core.masks.marked``. The pure
 * build splits the bytes at the marks (one C call, then a Python loop over the runs); the
 * compiled build calls ``marked(mask)`` here: ``memchr`` from mark to mark, one int per mark,
 * no bytes object per run.
 *
 * tests/test_masks.py compares it with the pure version on random masks of every size.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* marked(mask): the indices of the bytes equal to 1 in ``mask`` (any buffer of bytes), ascending. */
static PyObject *
marked(PyObject *self, PyObject *mask)
{
    Py_buffer view;
    if (PyObject_GetBuffer(mask, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    PyObject *out = PyList_New(0);
    const char *start = (const char *)view.buf;
    const char *end = start + view.len;
    const char *at = start;
    while (out != NULL && at < end && (at = memchr(at, 1, (size_t)(end - at))) != NULL) {
        PyObject *index = PyLong_FromSsize_t(at - start);
        if (index == NULL || PyList_Append(out, index) < 0) {
            Py_CLEAR(out);
        }
        Py_XDECREF(index);
        at++;
    }
    PyBuffer_Release(&view);
    return out;
}

static PyMethodDef methods[] = {
    {"marked", (PyCFunction)marked, METH_O,
     "marked(mask): the indices of the bytes equal to 1 in mask, ascending."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "native_masks",
    "The legal actions of a byte mask for the compiled build (see core/masks.py).", -1, methods,
};

PyMODINIT_FUNC
PyInit_native_masks(void)
{
    return PyModule_Create(&module_def);
}
