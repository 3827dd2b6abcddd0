#pragma once

namespace strata::HeapMemory {

// glibc's allocator gives each thread that allocates under contention an arena of its own and
// keeps what is freed there for reuse: at 16,384 GPUs a metrics parse on a pool thread makes
// hundreds of MB of short-lived labels and DOM, and the window's resident size stayed at its
// peak (917 MB at 60 s, 484 MB with one arena, one run each, docs/PERF.md). Both are no-ops
// where the C library is not glibc.

// At most `arenas` malloc arenas for the whole process; call once, first thing in main().
// false where it could not be set (not glibc).
bool limitArenas(int arenas);

// Hands the free pages of every arena back to the system (malloc_trim(0)): after a large
// transient, e.g. one big answer parsed. Costs a walk of the free lists (milliseconds); call
// it off the GUI thread. true when memory went back to the system.
bool releaseFree();

} // namespace strata::HeapMemory
