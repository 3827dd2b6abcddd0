#include "gui_launcher.h"

#include "cli/connection_options.h"
#include "main_window.h"
#include "session/profile_store.h"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>

namespace strata {

int runGui(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("strata"));
    QApplication::setOrganizationName(QStringLiteral("strata"));
    QApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.strata.Strata"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Strata: console for GPU clusters. With no connection flags it opens on the saved profiles.\n"
        "Headless commands: strata snapshot|submit|cancel|drain|resume|burnin|profile --help"));
    parser.addHelpOption();
    parser.addVersionOption();
    ConnectionOptions connection;
    connection.addTo(parser);
    parser.process(app); // --help, --version and unknown flags end here, with their message

    ProfileStore profiles(connection.profileStorePath(parser));
    MainWindow window(&profiles);
    if (connection.namesCluster(parser)) {
        ClusterProfile profile;
        QString error;
        if (!connection.resolve(parser, &profile, &error)) {
            std::fprintf(stderr, "strata: %s\n", qPrintable(error));
            return 2;
        }
        window.openSession(profile);
    }
    window.show();
    return app.exec();
}

} // namespace strata
