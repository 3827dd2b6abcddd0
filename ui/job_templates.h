#pragma once

#include <QString>
#include <QVector>

namespace strata {

// The job script templates compiled into the window (resources/job_templates/*.sh, under
// :/strata/job_templates/). Each has a name (the file name without .sh) and a body.
class JobTemplates
{
public:
    struct Template
    {
        QString name;
        QString description; // the first "# Strata template:" comment line
        QString script;
    };
    static QVector<Template> builtIn();
};

} // namespace strata
