#include "job_templates.h"

#include <QDir>
#include <QFile>

namespace strata {

QVector<JobTemplates::Template> JobTemplates::builtIn()
{
    QVector<Template> templates;
    const QDir dir(QStringLiteral(":/strata/job_templates"));
    for (const QString &file : dir.entryList({QStringLiteral("*.sh")}, QDir::Files, QDir::Name)) {
        QFile f(dir.filePath(file));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        Template t;
        t.name = file.chopped(3);
        t.script = QString::fromUtf8(f.readAll());
        const QString marker = QStringLiteral("# Strata template:");
        for (const QString &line : t.script.split(QLatin1Char('\n')))
            if (line.startsWith(marker))
                t.description = line.mid(marker.size()).trimmed();
        if (t.name == QLatin1String(kDefaultName))
            templates.prepend(t);
        else
            templates << t;
    }
    return templates;
}

} // namespace strata
