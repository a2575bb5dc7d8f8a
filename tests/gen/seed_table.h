/* seed_table.h — the binding table of contracts/vulkan/write_slice.md, built by hand from
 * model.h structs, so that the C emitter is tested independently of the front end. */
#ifndef TESTS_GEN_SEED_TABLE_H
#define TESTS_GEN_SEED_TABLE_H

#include "model.h"

/* The seed's table (2 sections, 18 bindings). Static storage; call once per process or not,
 * the result is the same. The revision hashes are placeholders (the front end computes the
 * real ones), so tests compare only what the emitter does with them. */
const fkcg_table *seed_table(void);

/* The same table with the hostile strings of injection_strings.h as blurbs, precision notes,
 * kernel_source and file name, and no cost in its second section. It reuses the seed table's storage: seed_table() afterwards
 * gives the plain seed again. */
const fkcg_table *injection_table(void);

#endif
