/* fused_table.h — the word layout of the fused dispatches' tables, in one place for the
 * shaders that read them (runtime/shaders/fused.comp; set_rows.comp built with -DFUSED=1) and
 * the C that writes them (fused.c, set_rows.c). The shaders include it too ("../src/..."), so it
 * holds #defines of unsigned constants only: valid GLSL and C. Not installed. */
#ifndef FKC_FUSED_TABLE_H
#define FKC_FUSED_TABLE_H

/* fused.comp: one small box write per entry of FKC_FUSE_WORDS 32-bit words; binding 0 is the
 * table, 1..FKC_FUSE_READ the windows writes read, the next FKC_FUSE_WRITE those they write. */
#define FKC_FUSE_WORDS 16u /* words of one write's entry */
#define FKC_FUSE_READ 6u   /* read-only buffer windows one fused dispatch binds */
#define FKC_FUSE_WRITE 8u  /* and written ones (fused.comp: bindings 1..14) */
#define FUSED_GROUP 0u     /* the write's first work group (entries in ascending order) */
#define FUSED_UNITS 1u     /* 16-byte units it writes */
#define FUSED_SLOTS 2u     /* its windows: source | destination << 4 | ring position << 8 */
#define FUSED_SRC 3u       /* the source's first unit in its window */
#define FUSED_DST 4u       /* the destination's first unit in its window */
#define FUSED_ROW_UNITS 5u /* units of one row */
#define FUSED_ROWS 6u      /* rows of one plane */
#define FUSED_S_ROW 7u     /* units between source rows */
#define FUSED_D_ROW 8u     /* and destination rows */
#define FUSED_S_PLANE 9u   /* units between source planes */
#define FUSED_D_PLANE 10u  /* and destination planes */
#define FUSED_RING 11u     /* 0 none, 1 the rows, 2 the planes are a ring of FUSED_CAP */
#define FUSED_CAP 12u      /* the ring's capacity */
#define FUSED_SKIP 13u     /* ring rows (planes) skipped after the position */
#define FUSED_POS 14u      /* the ring position's byte in its window */
#define FUSED_SHIFT 15u    /* log2(row units) + 1 when a power of two, else 0 */

/* set_rows.comp (-DFUSED=1): one set_rows op per entry of SR_WORDS words; binding 0 is the
 * table, 1..SR_READ the read windows (sources, indices), the next SR_WRITE the written ones
 * (caches, status words). */
#define SR_WORDS 32u   /* words of one op's entry */
#define SR_READ 4u     /* read windows */
#define SR_WRITE 8u    /* written windows */
#define SR_E_GROUP 0u  /* the op's first work group (entries in ascending order) */
#define SR_E_SLOTS 1u  /* its windows: source | index << 4 | cache << 8 | status << 12 */
#define SR_E_VEC 2u    /* 1: 16-byte units, 0: 32-bit words */
#define SR_E_PARAMS 4u /* then its parameters: the words of set_rows.comp's push constants */

#endif /* FKC_FUSED_TABLE_H */
