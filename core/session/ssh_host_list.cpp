#include "ssh_host_list.h"

#include "ssh/ssh_config_loader.h"

namespace strata {

namespace {

SshHostList fromLoader(const SshConfigLoader::Result &r)
{
    SshHostList list;
    list.found = r.found;
    list.hosts.reserve(r.hosts.size());
    for (const SshConfigHost &h : r.hosts)
        list.hosts.append({h.alias, h.hostName, h.user, h.port, h.identityFile, h.proxyJump, h.proxyCommand, h.file, h.line});
    list.notes.reserve(r.notes.size());
    for (const SshConfigNote &n : r.notes)
        list.notes.append({n.file, n.line, n.text});
    return list;
}

} // namespace

SshHostList SshHostList::read(const QString &configPath, const QString &sshDir, const QString &homeDir,
                              const QString &localUser)
{
    return fromLoader(SshConfigLoader::load(configPath, sshDir, homeDir, localUser));
}

SshHostList SshHostList::readUserConfig()
{
    return fromLoader(SshConfigLoader::loadUserConfig());
}

} // namespace strata
