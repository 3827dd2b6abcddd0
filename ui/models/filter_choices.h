#pragma once

#include <QStringList>

namespace strata {

// The distinct values a filter combo offers, gathered from one snapshot (sorted).
struct FilterChoices
{
    QStringList states;
    QStringList partitions;
    QStringList users;

    bool operator==(const FilterChoices &) const = default;
};

} // namespace strata
