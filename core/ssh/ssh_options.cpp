#include "ssh_options.h"

#include "profile/cluster_profile.h"

namespace strata {

SshOptions SshOptions::fromProfile(const ClusterProfile &profile)
{
    SshOptions o;
    o.host = profile.sshHost;
    o.port = profile.sshPort;
    o.user = profile.sshUser;
    o.identityFile = profile.identityFile;
    o.knownHostsFile = profile.knownHostsFile;
    o.acceptNewHostKey = profile.acceptNewHostKey;
    o.connectTimeoutSeconds = profile.connectTimeoutSeconds;
    o.commandTimeoutSeconds = profile.commandTimeoutSeconds;
    o.remoteEnvironment = profile.remoteEnvironment;
    return o;
}

QString SshOptions::describe() const
{
    QString s;
    if (!user.isEmpty())
        s += user + QLatin1Char('@');
    s += host;
    if (port > 0)
        s += QLatin1Char(':') + QString::number(port);
    return s;
}

} // namespace strata
