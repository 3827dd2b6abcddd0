#pragma once

#include <QString>

namespace strata {

// What a person typed and picked above a table. Empty fields match everything.
struct RowFilter
{
    QString text;      // case-insensitive substring of the row's searchable fields
    QString state;     // a state category as listed by the model's choices
    QString partition;
    QString user;

    bool isEmpty() const
    {
        return text.isEmpty() && state.isEmpty() && partition.isEmpty() && user.isEmpty();
    }
    bool operator==(const RowFilter &) const = default;
};

} // namespace strata
