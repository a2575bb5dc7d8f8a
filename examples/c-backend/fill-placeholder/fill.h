/* fill.h — the placeholder Fill wrappers' one extra call (fill.c). */
#ifndef CB_FILL_H
#define CB_FILL_H

/* Frees the scratch buffers of the fills recorded so far; call once their stream was
 * submitted (or destroyed). */
void cb_fill_release(void);

#endif
