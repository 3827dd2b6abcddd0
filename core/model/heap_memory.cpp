#include "heap_memory.h"

// Any C library header first: on glibc it defines __GLIBC__, which the checks below read. (Both
// functions were silently no-ops while this file included no system header before them.)
#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace strata::HeapMemory {

bool limitArenas(int arenas)
{
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
    return arenas > 0 && mallopt(M_ARENA_MAX, arenas) == 1;
#else
    (void)arenas;
    return false;
#endif
}

bool releaseFree()
{
#if defined(__GLIBC__)
    return malloc_trim(0) == 1;
#else
    return false;
#endif
}

} // namespace strata::HeapMemory
