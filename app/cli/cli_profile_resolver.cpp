#include "cli_profile_resolver.h"

#include "cli/cli_output.h"
#include "cli/cli_secrets.h"

namespace strata {

bool CliProfileResolver::resolve(const ConnectionOptions &connection, const QCommandLineParser &parser,
                                 ClusterProfile *profile, ConnectionOptions::SshRequirement ssh)
{
    QString error;
    if (!connection.resolve(parser, profile, &error, ssh)) {
        CliOutput::error(error);
        return false;
    }
    readKeyring(parser, profile);
    return true;
}

void CliProfileResolver::readKeyring(const QCommandLineParser &parser, ClusterProfile *profile)
{
    if (!parser.isSet(QStringLiteral("cluster")))
        return;
    const QString note = CliSecrets::fillFromKeyring(profile);
    if (!note.isEmpty())
        CliOutput::error(note);
}

} // namespace strata
