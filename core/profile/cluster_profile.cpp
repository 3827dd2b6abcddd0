#include "cluster_profile.h"

namespace strata {

QString ClusterProfile::sshTarget() const
{
    QString s;
    if (!sshUser.isEmpty())
        s += sshUser + QLatin1Char('@');
    s += sshHost;
    if (sshPort > 0 && sshPort != 22)
        s += QLatin1Char(':') + QString::number(sshPort);
    return s;
}

} // namespace strata
