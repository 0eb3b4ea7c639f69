/* Draws from a numpy bit generator, for the compiled build's ``core.draws``.
 *
 * ``core.draws.Draws`` makes the draws of ``Generator.integers(n)`` and ``Generator.shuffle(list)``
 * from the generator's own bit generator, the same values from the same stream. The pure build
 * reaches the bit generator through numpy's ctypes interface (``BitGenerator.ctypes``), one
 * ctypes call per 32-bit word, which costs more than the rest of a search's random rollout
 * step; the compiled build calls these three functions instead, through the bit generator's
 * ``capsule`` (numpy's documented C interface for compiled callers, a ``bitgen_t``). Each one is
 * numpy's own C algorithm, step for step (numpy/random/src/distributions/distributions.c):
 *
 * - ``below(capsule, n)``: ``integers(n)`` for 1 <= n <= 2**32: nothing drawn for n == 1, one
 *   32-bit word for n == 2**32, else Lemire's multiply-and-reject on 32-bit words
 *   (``buffered_bounded_lemire_uint32``);
 * - ``below_wide(capsule, n)``: ``integers(n)`` for 2**32 < n <= 2**63, Lemire's method on
 *   64-bit words (``bounded_lemire_uint64``);
 * - ``shuffle(capsule, items)``: ``shuffle(items)`` for a list, the Fisher-Yates walk from the
 *   end with ``random_interval`` (a mask of the range, words drawn until one falls in it);
 * - ``uniform(capsule)``: ``float(random())``, the bit generator's ``next_double``;
 * - ``normals(capsule, k)``: ``standard_normal(k).tolist()``, numpy's ziggurat
 *   (``random_standard_normal``) called from numpy's own static library of its distributions
 *   (``numpy/random/lib/libnpyrandom.a``, which numpy ships for compiled callers). setup.py links
 *   it where the build's numpy has it; without it this function is absent and ``core.draws``
 *   asks the generator instead.
 *
 * Like any direct use of a bit generator, these take no lock: a generator is used from one
 * thread at a time (a search owns its generator). tests/test_draws.py compares every function
 * with numpy, mixed with the generator's other draws, for every numpy bit generator.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* numpy/random/bitgen.h (numpy's C interface for bit generators; the same layout). */
typedef struct bitgen {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} bitgen_t;

#ifdef BOARDGAMES_RL_NPYRANDOM
/* numpy/random/distributions.h: the standard normal of numpy's Generator. */
extern double random_standard_normal(bitgen_t *bitgen_state);
#endif

static bitgen_t *
bitgen_of(PyObject *capsule)
{
    return (bitgen_t *)PyCapsule_GetPointer(capsule, "BitGenerator");
}

/* ``arg`` as an unsigned 64-bit int within [lo, hi]; else -1 with a one-line error. */
static int
bound_of(PyObject *arg, uint64_t lo, uint64_t hi, const char *what, uint64_t *out)
{
    if (!PyLong_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "%s needs an int, got %.100s", what, Py_TYPE(arg)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long small = PyLong_AsLongLongAndOverflow(arg, &overflow);
    if (small == -1 && overflow == 0 && PyErr_Occurred()) {
        return -1;
    }
    int in_range = 0;
    uint64_t value = 0;
    if (overflow == 0 && small >= 0) {
        value = (uint64_t)small;
        in_range = lo <= value && value <= hi;
    }
    else if (overflow > 0) { /* above 2**63 - 1 */
        value = PyLong_AsUnsignedLongLong(arg);
        if (value == (uint64_t)-1 && PyErr_Occurred()) {
            PyErr_Clear(); /* 2**64 or more: out of range */
        }
        else {
            in_range = lo <= value && value <= hi;
        }
    }
    if (!in_range) {
        PyObject *shown = PyObject_Repr(arg);
        if (shown != NULL) {
            PyErr_Format(PyExc_ValueError, "%s, got %U", what, shown);
            Py_DECREF(shown);
        }
        return -1;
    }
    *out = value;
    return 0;
}

static PyObject *
below(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "below(capsule, n) takes 2 arguments");
        return NULL;
    }
    bitgen_t *bg = bitgen_of(args[0]);
    uint64_t n;
    if (bg == NULL ||
        bound_of(args[1], 1, 0x100000000ULL, "Draws.below(n) needs 1 <= n <= 2**32", &n) < 0) {
        return NULL;
    }
    if (n == 1) {
        return PyLong_FromLong(0); /* numpy draws nothing for a range of one value */
    }
    if (n == 0x100000000ULL) {
        return PyLong_FromUnsignedLong(bg->next_uint32(bg->state));
    }
    const uint32_t rng = (uint32_t)(n - 1);
    const uint32_t rng_excl = rng + 1;
    uint64_t m = (uint64_t)bg->next_uint32(bg->state) * rng_excl;
    uint32_t leftover = (uint32_t)(m & 0xFFFFFFFFUL);
    if (leftover < rng_excl) {
        const uint32_t threshold = (UINT32_MAX - rng) % rng_excl;
        while (leftover < threshold) {
            m = (uint64_t)bg->next_uint32(bg->state) * rng_excl;
            leftover = (uint32_t)(m & 0xFFFFFFFFUL);
        }
    }
    return PyLong_FromUnsignedLong((unsigned long)(m >> 32));
}

static PyObject *
below_wide(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "below_wide(capsule, n) takes 2 arguments");
        return NULL;
    }
    bitgen_t *bg = bitgen_of(args[0]);
    uint64_t n;
    if (bg == NULL || bound_of(args[1], 0x100000001ULL, 0x8000000000000000ULL,
                               "Draws.below_wide(n) needs 2**32 < n <= 2**63", &n) < 0) {
        return NULL;
    }
    const uint64_t rng = n - 1;
    const uint64_t rng_excl = n;
    __uint128_t m = (__uint128_t)bg->next_uint64(bg->state) * rng_excl;
    uint64_t leftover = (uint64_t)m;
    if (leftover < rng_excl) {
        const uint64_t threshold = (UINT64_MAX - rng) % rng_excl;
        while (leftover < threshold) {
            m = (__uint128_t)bg->next_uint64(bg->state) * rng_excl;
            leftover = (uint64_t)m;
        }
    }
    return PyLong_FromUnsignedLongLong((unsigned long long)(m >> 64));
}

static uint64_t
random_interval(bitgen_t *bg, uint64_t max)
{
    uint64_t mask, value;
    if (max == 0) {
        return 0;
    }
    mask = max;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    mask |= mask >> 16;
    mask |= mask >> 32;
    if (max <= 0xFFFFFFFFUL) {
        while ((value = (bg->next_uint32(bg->state) & mask)) > max)
            ;
    }
    else {
        while ((value = (bg->next_uint64(bg->state) & mask)) > max)
            ;
    }
    return value;
}

static PyObject *
shuffle(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "shuffle(capsule, items) takes 2 arguments");
        return NULL;
    }
    bitgen_t *bg = bitgen_of(args[0]);
    if (bg == NULL) {
        return NULL;
    }
    PyObject *items = args[1];
    if (!PyList_CheckExact(items)) {
        PyErr_Format(PyExc_TypeError, "Draws.shuffle needs a list, got %.100s",
                     Py_TYPE(items)->tp_name);
        return NULL;
    }
    for (Py_ssize_t i = PyList_GET_SIZE(items) - 1; i >= 1; i--) {
        Py_ssize_t j = (Py_ssize_t)random_interval(bg, (uint64_t)i);
        PyObject *a = PyList_GET_ITEM(items, i);
        PyList_SET_ITEM(items, i, PyList_GET_ITEM(items, j));
        PyList_SET_ITEM(items, j, a);
    }
    Py_RETURN_NONE;
}

static PyObject *
uniform(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "uniform(capsule) takes 1 argument");
        return NULL;
    }
    bitgen_t *bg = bitgen_of(args[0]);
    if (bg == NULL) {
        return NULL;
    }
    return PyFloat_FromDouble(bg->next_double(bg->state));
}

#ifdef BOARDGAMES_RL_NPYRANDOM
static PyObject *
normals(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "normals(capsule, k) takes 2 arguments");
        return NULL;
    }
    bitgen_t *bg = bitgen_of(args[0]);
    uint64_t k;
    if (bg == NULL ||
        bound_of(args[1], 0, 1 << 20, "Draws.normals(k) needs 0 <= k <= 2**20", &k) < 0) {
        return NULL;
    }
    PyObject *out = PyList_New((Py_ssize_t)k);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < (Py_ssize_t)k; i++) {
        PyObject *x = PyFloat_FromDouble(random_standard_normal(bg));
        if (x == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, x);
    }
    return out;
}
#endif

static PyMethodDef methods[] = {
    {"below", (PyCFunction)(void (*)(void))below, METH_FASTCALL,
     "below(capsule, n): Generator.integers(n) for 1 <= n <= 2**32."},
    {"below_wide", (PyCFunction)(void (*)(void))below_wide, METH_FASTCALL,
     "below_wide(capsule, n): Generator.integers(n) for 2**32 < n <= 2**63."},
    {"shuffle", (PyCFunction)(void (*)(void))shuffle, METH_FASTCALL,
     "shuffle(capsule, items): Generator.shuffle(items) for a list."},
    {"uniform", (PyCFunction)(void (*)(void))uniform, METH_FASTCALL,
     "uniform(capsule): float(Generator.random())."},
#ifdef BOARDGAMES_RL_NPYRANDOM
    {"normals", (PyCFunction)(void (*)(void))normals, METH_FASTCALL,
     "normals(capsule, k): Generator.standard_normal(k).tolist()."},
#endif
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "native_draws",
    "Draws from a numpy bit generator for the compiled build (see core/draws.py).", -1, methods,
};

PyMODINIT_FUNC
PyInit_native_draws(void)
{
    return PyModule_Create(&module_def);
}
