#include "gui_launcher.h"

#include <QApplication>
#include <QLabel>

namespace strata {

int runGui(int argc, char **argv)
{
    QApplication app(argc, argv);
    QLabel label(QStringLiteral("Strata: the console window is being built; use the CLI (strata snapshot --help)."));
    label.resize(640, 120);
    label.show();
    return app.exec();
}

} // namespace strata
