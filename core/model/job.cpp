#include "job.h"

namespace strata {

int Job::gpuCountHeld() const
{
    int count = 0;
    for (const auto &indices : gpus)
        count += int(indices.size());
    return count;
}

} // namespace strata

namespace strata {

QString JobScript::statusName(Status status)
{
    switch (status) {
    case Status::Read:
        return QStringLiteral("read");
    case Status::TooBig:
        return QStringLiteral("too-big");
    case Status::NotReadable:
        break;
    }
    return QStringLiteral("not-readable");
}

} // namespace strata
