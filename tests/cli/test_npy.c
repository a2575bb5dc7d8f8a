/* test_npy.c — unit tests of fkc-run's pieces: the .npy header parser and writer, the reader
 * against a corpus of malformed files (built here, byte by byte), the dtype mapping, the half
 * and bfloat16 conversions and the argument parser. Each bad input must be refused with a
 * message that names the file or argument and says what is wrong. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "npy.h"

#define TMPDIR_TEMPLATE "/tmp/fkc-npy-test-XXXXXX"
#include "tmpdir.h"

static int make_dir(void **state)
{
    (void)state;
    return tmpdir_make();
}

static int remove_dir(void **state)
{
    (void)state;
    return tmpdir_remove();
}

/* ---- header parser ------------------------------------------------------------------------ */

static void test_parse_good_headers(void **state)
{
    static const struct {
        const char *text;
        const char *descr;
        int fortran;
        uint32_t rank;
        size_t shape[3];
    } cases[] = {
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }      \n",
         "<f4",
         0,
         2,
         {2, 3}},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }\n", "<f4", 0, 1, {5}},
        {"{'descr': '|u1', 'fortran_order': False, 'shape': (), }\n", "|u1", 0, 0, {0}},
        {"{\"shape\":(0,7),\"descr\":\"<i8\",\"fortran_order\":True}", "<i8", 1, 2, {0, 7}},
        {" {'shape' : ( 1 , 2 , 3 , ) ,\t'descr':'<u2' , 'fortran_order' : False }\n\n",
         "<u2",
         0,
         3,
         {1, 2, 3}},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (9223372036854775807,), }",
         "<f8",
         0,
         1,
         {(size_t)INT64_MAX}},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        npy_header h;
        char err[NPY_ERR_MAX] = "";
        int rc = npy_parse_header(cases[i].text, strlen(cases[i].text), &h, err);
        if (rc != 0)
            fail_msg("case %zu: %s", i, err);
        assert_string_equal(h.descr, cases[i].descr);
        assert_int_equal(h.fortran_order, cases[i].fortran);
        assert_int_equal(h.rank, cases[i].rank);
        for (uint32_t k = 0; k < h.rank; k++)
            assert_int_equal(h.shape[k], cases[i].shape[k]);
    }
}

static void test_parse_bad_headers(void **state)
{
    static const struct {
        const char *text;
        const char *message; /* expected substring */
    } cases[] = {
        {"", "column 1: expected '{'"},
        {"['descr']", "column 1: expected '{'"},
        {"{'descr': '<f4', 'fortran_order': False}", "missing key 'shape'"},
        {"{'descr': '<f4', 'shape': (1,)}", "missing key 'fortran_order'"},
        {"{'fortran_order': False, 'shape': (1,)}", "missing key 'descr'"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}",
         "column 18: duplicate key 'descr'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}",
         "unknown key 'extra'"},
        {"{'descr' '<f4'}", "column 10: expected ':' after a key"},
        {"{descr: '<f4'}", "column 2: expected a quoted string"},
        {"{'descr': '<f4\", 'fortran_order': False, 'shape': (1,)}", "expected ',' or '}'"},
        {"{'descr': '<f\\x34', 'fortran_order': False, 'shape': (1,)}", "without escapes"},
        {"{'descr': '<f\x7f', 'fortran_order': False, 'shape': (1,)}", "without escapes"}, /* DEL */
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}",
         "structured dtypes are not supported"},
        {"{'descr': '<f4', 'fortran_order': false, 'shape': (1,)}", "expected True or False"},
        {"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (1,)}", "expected True or False"},
        {"{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}", "expected True or False"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': [1, 2]}", "expected '('"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (5)}", "needs a trailing comma"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}", "non-negative"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1.5,)}", "expected ',' or ')' after"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3L,)}", "expected ',' or ')' after"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (07,)}", "leading zero"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (,)}", "expected an integer"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1 2)}", "expected ',' or ')' after"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (9223372036854775808,)}",
         "extent too large"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)", "expected ',' or '}'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} x", "only padding"},
        {"{'descr': '<f4' 'fortran_order': False, 'shape': (1,)}", "expected ',' or '}'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,),,}", "expected a quoted"},
        {"{'descr': 'a very long descr string', 'fortran_order': False, 'shape': (1,)}",
         "string too long"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
         "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)}",
         "too many dimensions"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        npy_header h;
        char err[NPY_ERR_MAX] = "";
        assert_int_equal(npy_parse_header(cases[i].text, strlen(cases[i].text), &h, err), -1);
        if (!strstr(err, cases[i].message))
            fail_msg("case %zu: expected '%s' in '%s'", i, cases[i].message, err);
    }
    /* a NUL byte inside the header text is not padding */
    static const char nul[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}\0 ";
    npy_header h;
    char err[NPY_ERR_MAX] = "";
    assert_int_equal(npy_parse_header(nul, sizeof nul - 1, &h, err), -1);
    assert_non_null(
        strstr(err, "column 56: expected only padding after the header dict, found \\x00"));
}

static void test_descr_size(void **state)
{
    static const struct {
        const char *descr;
        size_t size;
        const char *message;
    } cases[] = {
        {"<f4", 4, NULL},
        {"<f2", 2, NULL},
        {"<f8", 8, NULL},
        {"<i8", 8, NULL},
        {"|u1", 1, NULL},
        {"|i1", 1, NULL},
        {"<u1", 1, NULL},
        {"<u2", 2, NULL},
        {"|b1", 1, NULL},
        {">f4", 0, "big-endian"},
        {">i8", 0, "big-endian"},
        {"=f4", 0, "no explicit byte order"},
        {"|f4", 0, "no explicit byte order"},
        {"<f1", 0, "not a plain numeric"},
        {"<c8", 0, "not a plain numeric"},
        {"<U3", 0, "not a plain numeric"},
        {"<f16", 0, "not a plain numeric"},
        {"<f3", 0, "not a plain numeric"},
        {"", 0, "not a plain numeric"},
        {"<", 0, "not a plain numeric"},
        {"O", 0, "not a plain numeric"},
        {"<M8", 0, "not a plain numeric"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[NPY_ERR_MAX] = "";
        assert_int_equal(npy_descr_size(cases[i].descr, err), cases[i].size);
        if (cases[i].message && !strstr(err, cases[i].message))
            fail_msg("descr '%s': expected '%s' in '%s'", cases[i].descr, cases[i].message, err);
    }
}

/* ---- writer ------------------------------------------------------------------------------- */

/* Headers exactly as NumPy 1.24 writes them (np.lib.format.write_array_header_1_0). */
static void test_format_header_matches_numpy(void **state)
{
    static const struct {
        uint32_t rank;
        size_t shape[2];
        const char *dict;
    } cases[] = {
        {2, {2, 3}, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"},
        {1, {5}, "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }"},
        {0, {0}, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }"},
        {2,
         {123456789012, 1},
         "{'descr': '<f4', 'fortran_order': False, 'shape': (123456789012, 1), }"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        npy_array a = {.descr = "<f4", .elem_size = 4, .rank = cases[i].rank};
        unsigned char buf[256];
        memcpy(a.shape, cases[i].shape, sizeof cases[i].shape);
        assert_int_equal(npy_format_header(&a, buf, sizeof buf), 128);
        assert_memory_equal(buf, "\x93NUMPY\x01\x00\x76\x00", 10);
        size_t n = strlen(cases[i].dict);
        assert_memory_equal(buf + 10, cases[i].dict, n);
        for (size_t k = 10 + n; k < 127; k++)
            assert_int_equal(buf[k], ' ');
        assert_int_equal(buf[127], '\n');
    }
}

static void test_write_read_roundtrip(void **state)
{
    static const size_t shape[3] = {2, 3, 4};
    npy_array a, b;
    char err[NPY_ERR_MAX], p[512];
    (void)state;
    assert_int_equal(npy_alloc(&a, "<i8", 3, shape, err), 0);
    for (size_t i = 0; i < a.count; i++)
        ((int64_t *)a.data)[i] = (int64_t)(i * 0x0102030405060708ull);
    path_of("rt.npy", p, sizeof p);
    assert_int_equal(npy_write(p, &a, err), 0);
    assert_int_equal(npy_read(p, &b, err), 0);
    assert_string_equal(b.descr, "<i8");
    assert_int_equal(b.rank, 3);
    assert_int_equal(b.nbytes, a.nbytes);
    assert_memory_equal(b.data, a.data, a.nbytes);
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, 128 + 24 * 8);
    npy_free(&b);

    /* an empty array round-trips too */
    static const size_t empty[2] = {0, 5};
    npy_free(&a);
    assert_int_equal(npy_alloc(&a, "|u1", 2, empty, err), 0);
    assert_int_equal(npy_write(p, &a, err), 0);
    assert_int_equal(npy_read(p, &b, err), 0);
    assert_int_equal(b.count, 0);
    assert_int_equal(b.shape[1], 5);
    npy_free(&b);
    npy_free(&a);
    unlink(p);
    assert_int_equal(dir_entries(), 0);
}

static void test_write_failures_leave_nothing(void **state)
{
    static const size_t shape[1] = {4};
    npy_array a;
    char err[NPY_ERR_MAX] = "", p[512];
    (void)state;
    assert_int_equal(npy_alloc(&a, "<f4", 1, shape, err), 0);
    path_of("no-such-dir/out.npy", p, sizeof p);
    assert_int_equal(npy_write(p, &a, err), -1);
    assert_non_null(strstr(err, "no-such-dir/out.npy"));
    assert_non_null(strstr(err, "No such file"));
    /* a directory in the way: the rename fails, the temp file goes */
    path_of("adir", p, sizeof p);
    assert_int_equal(mkdir(p, 0755), 0);
    assert_int_equal(npy_write(p, &a, err), -1);
    assert_non_null(strstr(err, "adir"));
    assert_int_equal(dir_entries(), 1);
    rmdir(p);
    npy_free(&a);
    assert_int_equal(npy_alloc(&a, ">f4", 1, shape, err), -1);
    assert_non_null(strstr(err, "big-endian"));
    static const size_t huge[2] = {(size_t)1 << 62, 4};
    assert_int_equal(npy_alloc(&a, "<f4", 2, huge, err), -1);
    assert_non_null(strstr(err, "overflows"));
}

/* ---- reader corpus ------------------------------------------------------------------------ */

/* A v1.0 file: magic, the header dict padded to 64 bytes, then `data` bytes of 0xab. */
static void put_file(const char *name, const char *magic8, const char *dict, size_t data, char *p,
                     size_t cap)
{
    unsigned char buf[1024];
    size_t n = strlen(dict), hlen = n + 1;
    hlen += (64 - (10 + hlen) % 64) % 64;
    memcpy(buf, magic8, 8);
    buf[8] = (unsigned char)hlen;
    buf[9] = (unsigned char)(hlen >> 8);
    memset(buf + 10, ' ', hlen);
    memcpy(buf + 10, dict, n);
    buf[10 + hlen - 1] = '\n';
    path_of(name, p, cap);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fwrite(buf, 1, 10 + hlen, f);
    for (size_t i = 0; i < data; i++)
        fputc(0xab, f);
    fclose(f);
}

static void put_bytes(const char *name, const void *bytes, size_t n, char *p, size_t cap)
{
    path_of(name, p, cap);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fwrite(bytes, 1, n, f);
    fclose(f);
}

static void expect_read_error(const char *p, const char *message)
{
    npy_array a;
    char err[NPY_ERR_MAX] = "";
    assert_int_equal(npy_read(p, &a, err), -1);
    assert_null(a.data);
    if (!strstr(err, p) || !strstr(err, message))
        fail_msg("%s: expected the path and '%s' in '%s'", p, message, err);
}

#define V1 "\x93NUMPY\x01\x00"
#define GOOD "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"

static void test_read_corpus(void **state)
{
    char p[512];
    (void)state;
    static const struct {
        const char *name, *magic, *dict;
        size_t data;
        const char *message;
    } files[] = {
        {"good-but-short.npy", V1, GOOD, 23, "file is 151 bytes but its header describes 152"},
        {"good-but-long.npy", V1, GOOD, 25, "file is 153 bytes"},
        {"no-data.npy", V1, GOOD, 0, "file is 128 bytes"},
        {"bad-magic.npy", "\x93NUMPZ\x01\x00", GOOD, 24, "not a .npy file (bad magic)"},
        {"version-4.npy", "\x93NUMPY\x04\x00", GOOD, 24, "unsupported .npy version 4.0"},
        {"version-1-1.npy", "\x93NUMPY\x01\x01", GOOD, 24, "unsupported .npy version 1.1"},
        {"fortran.npy", V1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 24,
         "fortran_order is True"},
        {"big-endian.npy", V1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }", 24,
         "big-endian"},
        {"bad-dict.npy", V1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3) ", 24,
         "bad .npy header: column"},
        {"structured.npy", V1, "{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (2,)}",
         8, "structured dtypes"},
        {"huge-overflow.npy", V1,
         "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", 0,
         "overflows"},
        {"huge-no-overflow.npy", V1,
         "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000, 1000), }", 8,
         "header describes"},
        {"huge-bytes.npy", V1,
         "{'descr': '<f8', 'fortran_order': False, 'shape': (1152921504606846976,), }", 0,
         "overflows"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        put_file(files[i].name, files[i].magic, files[i].dict, files[i].data, p, sizeof p);
        expect_read_error(p, files[i].message);
        unlink(p);
    }
    static const struct {
        const char *name;
        const char *bytes;
        size_t n;
        const char *message;
    } raw[] = {
        {"empty.npy", "", 0, "file is truncated"},
        {"magic-only.npy", "\x93NUMPY", 6, "file is truncated"},
        {"no-length.npy", V1 "\x10", 9, "file is truncated"},
        {"v2-no-length.npy", "\x93NUMPY\x02\x00\x10\x00\x00", 11, "file is truncated"},
        {"short-header.npy", V1 "\x40\x00{'descr'", 17, "file is truncated"},
        {"huge-header.npy", "\x93NUMPY\x02\x00\x00\x00\x00\x10{", 13, "exceeds the"},
        {"text.npy", "hello, world\n", 13, "bad magic"},
    };
    for (size_t i = 0; i < sizeof raw / sizeof raw[0]; i++) {
        put_bytes(raw[i].name, raw[i].bytes, raw[i].n, p, sizeof p);
        expect_read_error(p, raw[i].message);
        unlink(p);
    }
    path_of("missing.npy", p, sizeof p);
    expect_read_error(p, "cannot open: No such file");
    path_of("", p, sizeof p);
    expect_read_error(p, "not a regular file");
    expect_read_error("/dev/null", "not a regular file");
    assert_int_equal(dir_entries(), 0);
}

/* Version 2.0 and 3.0 headers (4-byte length) are read like 1.0. */
static void test_read_versions(void **state)
{
    char p[512], name[32];
    (void)state;
    for (int v = 2; v <= 3; v++) {
        unsigned char buf[256];
        const char *dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }";
        size_t n = strlen(dict), hlen = 128 - 12;
        memcpy(buf, "\x93NUMPY", 6);
        buf[6] = (unsigned char)v;
        buf[7] = 0;
        buf[8] = (unsigned char)hlen, buf[9] = 0, buf[10] = 0, buf[11] = 0;
        memset(buf + 12, ' ', hlen);
        memcpy(buf + 12, dict, n);
        buf[127] = '\n';
        memcpy(buf + 128, "\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00", 12);
        snprintf(name, sizeof name, "v%d.npy", v);
        put_bytes(name, buf, 140, p, sizeof p);
        npy_array a;
        char err[NPY_ERR_MAX] = "";
        if (npy_read(p, &a, err) != 0)
            fail_msg("%s", err);
        assert_int_equal(a.rank, 1);
        assert_int_equal(((int32_t *)a.data)[2], 3);
        npy_free(&a);
        unlink(p);
    }
}

/* fortran_order True where the bytes are C order's (at most one axis longer than 1: 1-D, rank
 * 0, (1, 4), (3, 1, 1)) is read as C order; a real Fortran-order array ((2, 3)) is refused
 * (issue 26 item 7: NumPy writes 1-D arrays of a Fortran-order source so). */
static void test_read_fortran_order(void **state)
{
    char p[512];
    (void)state;
    static const struct {
        const char *shape;
        uint32_t rank;
        size_t n;
    } same[] = {
        {"(6,)", 1, 6}, {"()", 0, 1}, {"(1, 4)", 2, 4}, {"(3, 1, 1)", 3, 3}, {"(0, 5)", 2, 0}};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        char dict[128];
        snprintf(dict, sizeof dict, "{'descr': '|u1', 'fortran_order': True, 'shape': %s, }",
                 same[i].shape);
        put_file("f.npy", V1, dict, same[i].n, p, sizeof p);
        npy_array a;
        char err[NPY_ERR_MAX] = "";
        if (npy_read(p, &a, err) != 0)
            fail_msg("shape %s: %s", same[i].shape, err);
        assert_int_equal(a.rank, same[i].rank);
        for (size_t k = 0; k < same[i].n; k++)
            assert_int_equal(((unsigned char *)a.data)[k], 0xab);
        npy_free(&a);
    }
    put_file("f.npy", V1, "{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3), }", 6, p,
             sizeof p);
    expect_read_error(p, "fortran_order is True; only C-order arrays are supported");
    unlink(p);
}

/* Seeded byte mutations and truncations of a valid file: every read either succeeds with a
 * consistent array or fails with a message naming the file; never a crash (run it under ASan). */
static void test_read_mutations(void **state)
{
    static const size_t shape[2] = {3, 5};
    unsigned char good[256], buf[256];
    npy_array a;
    char err[NPY_ERR_MAX], p[512];
    static const char alphabet[] = " (),:'0123456789<>|fiuTrueFalse{}x\n";
    uint32_t seed = 12345;
    (void)state;
    assert_int_equal(npy_alloc(&a, "<i4", 2, shape, err), 0);
    size_t hn = npy_format_header(&a, good, sizeof good);
    assert_int_equal(hn, 128);
    memset(good + hn, 0x5a, a.nbytes);
    size_t n = hn + a.nbytes;
    npy_free(&a);
    path_of("mut.npy", p, sizeof p);
    int ok = 0, bad = 0;
    for (int iter = 0; iter < 3000; iter++) {
        memcpy(buf, good, n);
        size_t len = n;
        int edits = 1 + iter % 4;
        for (int e = 0; e < edits; e++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % n;
            seed = seed * 1103515245u + 12345u;
            if (iter % 7 == 0)
                len = at;                 /* truncate */
            else if (at < hn && iter % 3) /* header grammar characters */
                buf[at] = (unsigned char)alphabet[(seed >> 16) % (sizeof alphabet - 1)];
            else if (at < hn) /* any byte */
                buf[at] = (unsigned char)(seed >> 16);
        }
        put_bytes("mut.npy", buf, len, p, sizeof p);
        err[0] = '\0';
        if (npy_read(p, &a, err) == 0) {
            ok++;
            assert_true(a.nbytes == a.count * a.elem_size);
            assert_true(hn + a.nbytes <= len);
            npy_free(&a);
        } else {
            bad++;
            assert_non_null(strstr(err, p));
            assert_null(a.data);
        }
    }
    unlink(p);
    assert_true(ok > 0 && bad > 0); /* the mutations reach both outcomes */
}

/* ---- dtypes and conversions --------------------------------------------------------------- */

static void test_dtype_mapping(void **state)
{
    char err[CLI_ERR_MAX] = "";
    (void)state;
    for (int d = 0; d < FKC_DTYPE_COUNT; d++) {
        fkc_dtype forced = d == FKC_DTYPE_BF16 ? FKC_DTYPE_BF16 : FKC_DTYPE_COUNT;
        assert_int_equal(cli_dtype_of_descr(cli_descr_of_dtype((fkc_dtype)d), forced, err), d);
        assert_int_equal(cli_dtype_of_descr(cli_descr_of_dtype((fkc_dtype)d), (fkc_dtype)d, err),
                         d);
    }
    assert_int_equal(cli_dtype_of_descr("<u1", FKC_DTYPE_COUNT, err), FKC_DTYPE_U8);
    assert_int_equal(cli_dtype_of_descr("<u2", FKC_DTYPE_COUNT, err), FKC_DTYPE_COUNT);
    assert_non_null(strstr(err, "pass --dtype bf16"));
    assert_int_equal(cli_dtype_of_descr("<f2", FKC_DTYPE_BF16, err), FKC_DTYPE_COUNT);
    assert_non_null(strstr(err, "--dtype bf16 expects '<u2'"));
    assert_int_equal(cli_dtype_of_descr("<f4", FKC_DTYPE_I32, err), FKC_DTYPE_COUNT);
    assert_non_null(strstr(err, "is F32 but --dtype says I32"));
    static const char *const unsupported[] = {"<i2", "<u8", "|b1"};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(cli_dtype_of_descr(unsupported[i], FKC_DTYPE_COUNT, err), FKC_DTYPE_COUNT);
        assert_non_null(strstr(err, "is not supported"));
    }
}

static float from_bits(uint32_t x)
{
    float f;
    memcpy(&f, &x, 4);
    return f;
}

static void test_half_conversions(void **state)
{
    (void)state;
    static const struct {
        float f;
        uint16_t h;
    } f16[] = {
        {1.0f, 0x3c00},       {-2.0f, 0xc000},    {0.0f, 0x0000},
        {-0.0f, 0x8000},      {65504.0f, 0x7bff}, {65520.0f, 0x7c00}, /* rounds to inf */
        {65519.0f, 0x7bff},   {0x1p-24f, 0x0001}, {0x1p-25f, 0x0000}, /* tie to even */
        {0x1.8p-24f, 0x0002}, {0x1p-14f, 0x0400}, {0x1.ffcp-15f, 0x0400},
        {2049.0f, 0x6800},    {2051.0f, 0x6802},  {1e10f, 0x7c00},
    };
    for (size_t i = 0; i < sizeof f16 / sizeof f16[0]; i++) {
        if (cli_f16_from_float(f16[i].f) != f16[i].h)
            fail_msg("f16(%a) = %04x, want %04x", (double)f16[i].f, cli_f16_from_float(f16[i].f),
                     f16[i].h);
    }
    assert_int_equal(cli_f16_from_float(from_bits(0x7f800000)), 0x7c00);
    assert_int_equal(cli_f16_from_float(from_bits(0xffc00000)) & 0xfe00, 0xfe00);
    /* every finite half converts to float and back exactly */
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7c00) == 0x7c00)
            continue;
        assert_int_equal(cli_f16_from_float(cli_float_from_f16((uint16_t)h)), h);
    }
    assert_int_equal(cli_bf16_from_float(1.0f), 0x3f80);
    assert_int_equal(cli_bf16_from_float(from_bits(0x3f808000)), 0x3f80); /* tie to even */
    assert_int_equal(cli_bf16_from_float(from_bits(0x3f818000)), 0x3f82);
    assert_int_equal(cli_bf16_from_float(from_bits(0x3f808001)), 0x3f81);
    assert_int_equal(cli_bf16_from_float(from_bits(0x7f800001)) & 0x7fc0, 0x7fc0);
    assert_true(cli_float_from_bf16(0xc040) == -3.0f);
}

static void test_iota_and_format(void **state)
{
    unsigned char b[8];
    char s[64];
    (void)state;
    cli_iota_element(FKC_DTYPE_I8, 120, 10, b);
    cli_format_element(FKC_DTYPE_I8, b, s, sizeof s);
    assert_string_equal(s, "-126");
    cli_iota_element(FKC_DTYPE_U32, -1, 0, b);
    cli_format_element(FKC_DTYPE_U32, b, s, sizeof s);
    assert_string_equal(s, "4294967295");
    cli_iota_element(FKC_DTYPE_BF16, 255, 2, b);
    cli_format_element(FKC_DTYPE_BF16, b, s, sizeof s);
    assert_string_equal(s, "256");
    cli_iota_element(FKC_DTYPE_F16, 2048, 1, b);
    cli_format_element(FKC_DTYPE_F16, b, s, sizeof s);
    assert_string_equal(s, "2048"); /* 2049 ties to even */
    cli_iota_element(FKC_DTYPE_F64, -7, 3, b);
    cli_format_element(FKC_DTYPE_F64, b, s, sizeof s);
    assert_string_equal(s, "-4");
}

/* ---- argument parser ---------------------------------------------------------------------- */

static int parse(const char *line, cli_opts *o, char err[CLI_ERR_MAX])
{
    static char buf[1024];
    char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "fkc-run %s", line);
    for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    return cli_parse_args(argc, argv, o, err);
}

static void test_args_good(void **state)
{
    cli_opts o;
    char err[CLI_ERR_MAX] = "";
    (void)state;
    assert_int_equal(parse("write_slice --dst d.npy --src s.npy --offsets 0,2,0 -o o.npy", &o, err),
                     0);
    assert_int_equal(o.cmd, CLI_CMD_WRITE_SLICE);
    assert_string_equal(o.dst, "d.npy");
    assert_string_equal(o.out, "o.npy");
    assert_int_equal(o.n_offsets, 3);
    assert_int_equal(o.offsets[1], 2);
    assert_int_equal(o.axis, -1);
    assert_int_equal(o.dtype, FKC_DTYPE_COUNT);
    assert_int_equal(parse("write_slice_rotating --dst=d --src s --capacity 8 --position "
                           "18446744073709551615 --axis 2 --out=o --dtype BF16 --device llvm",
                           &o, err),
                     0);
    assert_int_equal(o.cmd, CLI_CMD_ROTATING);
    assert_int_equal(o.capacity, 8);
    assert_true(o.position == UINT64_MAX);
    assert_int_equal(o.axis, 2);
    assert_int_equal(o.dtype, FKC_DTYPE_BF16);
    assert_string_equal(o.device, "llvm");
    assert_int_equal(parse("iota --shape 2,3 --dtype i8 --start -5 -o x", &o, err), 0);
    assert_int_equal(o.start, -5);
    assert_int_equal(parse("iota --shape 2 --dtype i64 --start -9223372036854775808 -o x", &o, err),
                     0);
    assert_true(o.start == INT64_MIN);
    assert_int_equal(parse("show x.npy --dtype bf16", &o, err), 0);
    assert_string_equal(o.file, "x.npy");
    assert_int_equal(parse("--version", &o, err), 0);
    assert_int_equal(o.cmd, CLI_CMD_VERSION);
    assert_int_equal(parse("write_slice --help", &o, err), 0);
    assert_int_equal(o.cmd, CLI_CMD_HELP);
    assert_int_equal(parse("devices", &o, err), 0);
}

static void test_args_bad(void **state)
{
    static const struct {
        const char *line;
        const char *message;
    } cases[] = {
        {"", "missing command"},
        {"frobnicate", "unknown command 'frobnicate'"},
        {"write_slice --dst d --src s -o o", "write_slice: missing --offsets"},
        {"write_slice --dst d --offsets 1 -o o", "write_slice: missing --src"},
        {"write_slice --dst d --src s --offsets 1", "write_slice: missing --out"},
        {"write_slice_rotating --dst d --src s --position 1 -o o", "missing --capacity"},
        {"write_slice_rotating --dst d --src s --capacity 1 -o o", "missing --position"},
        {"write_slice --dst d --src s --offsets 1,,2 -o o", "--offsets: '1,,2' is not"},
        {"write_slice --dst d --src s --offsets 1,x -o o", "'x' in '1,x' is not a non-negative"},
        {"write_slice --dst d --src s --offsets -1 -o o", "'-1' in '-1' is not"},
        {"write_slice --dst d --src s --offsets 1,2,3,4,5,6,7,8,9 -o o", "more than 8 values"},
        {"write_slice --dst d --src s --offsets 99999999999999999999 -o o", "too large"},
        {"write_slice --dst d --src s --offsets 1 -o o --capacity 3",
         "--capacity is not an option of 'write_slice'"},
        {"write_slice --dst d --dst e --src s --offsets 1 -o o", "--dst given twice"},
        {"write_slice --dst d --src s --offsets 1 -o o --bogus", "unknown option '--bogus'"},
        {"write_slice --dst d --src s --offsets 1 -o o extra", "unexpected argument 'extra'"},
        {"write_slice --dst d --src s --offsets 1 -o", "--out needs a value"},
        {"write_slice --dst= --src s --offsets 1 -o o", "--dst: empty file name"},
        {"write_slice --dst d --src= --offsets 1 -o o", "--src: empty file name"},
        {"write_slice --dst d --src s --offsets 1 --out=", "--out: empty file name"},
        {"write_slice --dst d --src s --offsets 1 --cpu=yes -o o", "--cpu takes no value"},
        {"write_slice --dst d --src s --offsets 1 -o o --dtype f128", "unknown dtype 'f128'"},
        {"write_slice --dst d --src s --offsets 1 -o o --cpu --device 0", "exclude each other"},
        {"write_slice --dst d --src s --offsets 1 -o o --validate --cpu",
         "--cpu and --validate exclude each other"},
        {"write_slice_rotating --dst d --src s --capacity 0 --position 1 -o o",
         "--capacity: '0' is not a positive integer"},
        {"write_slice_rotating --dst d --src s --capacity 2 --position -1 -o o",
         "--position: '-1' is not"},
        {"write_slice_rotating --dst d --src s --capacity 2 --position 18446744073709551616 -o o",
         "below 2^64"},
        {"write_slice_rotating --dst d --src s --capacity 2 --position 1 --axis 8 -o o",
         "--axis: '8' is not an axis 0..7"},
        {"iota --shape 2 -o x", "iota: missing --dtype"},
        {"iota --shape 2 --dtype f32 --start 9223372036854775808 -o x", "not a 64-bit integer"},
        {"show", "show: missing the .npy file"},
        {"show a.npy b.npy", "unexpected argument 'b.npy'"},
        {"devices --cpu", "--cpu is not an option of 'devices'"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_opts o;
        char err[CLI_ERR_MAX] = "";
        if (parse(cases[i].line, &o, err) != -1)
            fail_msg("'%s' was accepted", cases[i].line);
        if (!strstr(err, cases[i].message))
            fail_msg("'%s': expected '%s' in '%s'", cases[i].line, cases[i].message, err);
    }
    /* empty arguments (strtok above cannot make them) */
    char prog[] = "fkc-run", show[] = "show", ws[] = "write_slice", dst[] = "--dst", empty[] = "";
    char *show_argv[] = {prog, show, empty, NULL}, *dst_argv[] = {prog, ws, dst, empty, NULL};
    cli_opts o;
    char err[CLI_ERR_MAX] = "";
    assert_int_equal(cli_parse_args(3, show_argv, &o, err), -1);
    assert_non_null(strstr(err, "show: empty file name"));
    assert_int_equal(cli_parse_args(4, dst_argv, &o, err), -1);
    assert_non_null(strstr(err, "--dst: empty file name"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_good_headers),
        cmocka_unit_test(test_parse_bad_headers),
        cmocka_unit_test(test_descr_size),
        cmocka_unit_test(test_format_header_matches_numpy),
        cmocka_unit_test(test_write_read_roundtrip),
        cmocka_unit_test(test_write_failures_leave_nothing),
        cmocka_unit_test(test_read_corpus),
        cmocka_unit_test(test_read_versions),
        cmocka_unit_test(test_read_fortran_order),
        cmocka_unit_test(test_read_mutations),
        cmocka_unit_test(test_dtype_mapping),
        cmocka_unit_test(test_half_conversions),
        cmocka_unit_test(test_iota_and_format),
        cmocka_unit_test(test_args_good),
        cmocka_unit_test(test_args_bad),
    };
    return cmocka_run_group_tests_name("cli-npy", tests, make_dir, remove_dir);
}
