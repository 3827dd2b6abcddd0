// HeapMemory on this machine's C library: on glibc both calls must reach the allocator (they
// were silently compiled out once, when heap_memory.cpp tested __GLIBC__ before any header had
// defined it). Under AddressSanitizer the allocator is ASan's, which ignores both: skipped.
#include "model/heap_memory.h"

#include <QTest>

#include <cstdlib>
#include <memory>
#include <vector>

// AddressSanitizer: GCC says so with __SANITIZE_ADDRESS__, clang (build-asan) with __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define STRATA_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STRATA_UNDER_ASAN 1
#endif
#endif

class TestHeapMemory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void reachesGlibcsAllocator()
    {
#if defined(STRATA_UNDER_ASAN)
        QSKIP("AddressSanitizer's allocator ignores mallopt and malloc_trim");
#elif !defined(__GLIBC__)
        QSKIP("not glibc: HeapMemory does nothing here by design");
#else
        QVERIFY(strata::HeapMemory::limitArenas(4));
        QVERIFY(!strata::HeapMemory::limitArenas(0));
        // 64 MB in small blocks, freed: glibc keeps the pages until a trim hands them back.
        {
            std::vector<std::unique_ptr<char[]>> blocks;
            for (int i = 0; i < 256 * 1024; ++i) {
                blocks.emplace_back(new char[256]);
                blocks.back()[0] = char(i);
            }
        }
        QVERIFY(strata::HeapMemory::releaseFree());
#endif
    }
};

QTEST_GUILESS_MAIN(TestHeapMemory)
#include "tst_heap_memory.moc"
