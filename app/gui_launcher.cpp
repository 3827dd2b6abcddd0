#include "gui_launcher.h"

#include "cli/command_table.h"
#include "cli/connection_options.h"
#include "first_paint_quitter.h"
#include "main_window.h"
#include "profile/profile_store.h"
#include "timing_log.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>

#include <cstdio>
#include <memory>

namespace strata {

int runGui(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("strata"));
    QApplication::setOrganizationName(QStringLiteral("strata"));
    QApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.strata.Strata"));
    QIcon fallback;
    for (const char *size : {"32x32", "64x64", "256x256"})
        fallback.addFile(QStringLiteral(":/icons/%1/org.strata.Strata.png").arg(QLatin1String(size)));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("org.strata.Strata"), fallback));

    QCommandLineParser parser;
    QStringList commands;
    for (const CliCommand &c : CommandTable::commands())
        if (!(c.flags & CliCommand::Hidden))
            commands << c.nameString();
    parser.setApplicationDescription(QStringLiteral(
        "Strata: console for GPU clusters. With no connection flags it opens on the saved profiles.\n"
        "Headless commands (strata COMMAND --help): %1").arg(commands.join(QLatin1String(", "))));
    parser.addHelpOption();
    parser.addVersionOption();
    ConnectionOptions connection;
    connection.addTo(parser);
    const QCommandLineOption quitAfterFirstPaint(QStringLiteral("quit-after-first-paint"),
        QStringLiteral("Quit once the window has painted (status 0), or after 20 s without (status 1): a smoke test."));
    parser.addOption(quitAfterFirstPaint);
    parser.process(app); // --help, --version and unknown flags end here, with their message

    ProfileStore profiles(connection.profileStorePath(parser));
    MainWindow window(&profiles);
    std::unique_ptr<TimingLog> timing;
    if (const QString path = qEnvironmentVariable("STRATA_TIMING_LOG"); !path.isEmpty()) {
        timing = std::make_unique<TimingLog>();
        if (!timing->open(path)) {
            std::fprintf(stderr, "strata: cannot write the timing log %s\n", qPrintable(path));
            return 1;
        }
        timing->watch(&window);
    }
    if (connection.namesCluster(parser)) {
        ClusterProfile profile;
        QString error;
        if (!connection.resolve(parser, &profile, &error)) {
            std::fprintf(stderr, "strata: %s\n", qPrintable(error));
            return 2;
        }
        window.openSession(profile);
    }
    std::unique_ptr<FirstPaintQuitter> quitter;
    if (parser.isSet(quitAfterFirstPaint))
        quitter = std::make_unique<FirstPaintQuitter>(&window, 20000);
    window.show();
    return app.exec();
}

} // namespace strata
