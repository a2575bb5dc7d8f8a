/* version.c — fkc_version(): the version libfkc was built as (fkc/fkc_version.h). */
#include "fkc/fkc_version.h"

const char *fkc_version(void)
{
    return FKC_VERSION_STRING;
}
