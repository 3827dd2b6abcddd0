#include "heap_memory.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace strata::HeapMemory {

void limitArenas(int arenas)
{
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
    if (arenas > 0)
        mallopt(M_ARENA_MAX, arenas);
#else
    (void)arenas;
#endif
}

void releaseFree()
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace strata::HeapMemory
