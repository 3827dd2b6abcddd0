#pragma once

#include <QString>

namespace strata {

// A cheap "does the scheduler answer now?", asked while refreshes fail because the scheduler
// did not answer (the login node did): Slurm's `scontrol ping`. The session then refreshes as
// soon as the scheduler is back instead of waiting out its backoff, without repeating a whole
// refresh against a controller that is down or overloaded. Pure value.
struct OrchestratorProbe
{
    enum class Answer {
        Answers,    // the scheduler answered: refresh now
        Silent,     // it was asked and did not answer (down, stalled): ask again later
        CannotTell, // no probe here, or its output made no sense: keep the backoff
    };
    Answer answer = Answer::CannotTell;
    // What the scheduler said ("Slurmctld(primary) at ctl is DOWN"), or why there is no answer.
    QString detail;
};

} // namespace strata
