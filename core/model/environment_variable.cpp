#include "environment_variable.h"

namespace strata::EnvironmentVariable {

bool isValidName(const QString &name)
{
    if (name.isEmpty())
        return false;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const ushort u = name[i].unicode();
        const bool letter = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_';
        const bool digit = u >= '0' && u <= '9';
        if (!(letter || (i > 0 && digit)))
            return false;
    }
    return true;
}

} // namespace strata::EnvironmentVariable
