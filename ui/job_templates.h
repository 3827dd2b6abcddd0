#pragma once

#include <QString>
#include <QVector>

namespace strata {

// The job script templates compiled into the window (resources/job_templates/*.sh, under
// :/strata/job_templates/). Each has a name (the file name without .sh) and a body.
class JobTemplates
{
public:
    // The template offered first: it runs as is on any Slurm cluster with GPUs (no script of
    // the user's to name), so submitting the dialog unchanged shows what the job got.
    static constexpr const char *kDefaultName = "gpu_check";

    struct Template
    {
        QString name;
        QString description; // the first "# Strata template:" comment line
        QString script;
    };
    // Every template, the default first, then by name.
    static QVector<Template> builtIn();
};

} // namespace strata
