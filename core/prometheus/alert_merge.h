#pragma once

#include "prometheus_response.h"

#include <QVector>

namespace strata {

// Prometheus's alerts joined with Alertmanager's. Pure.
//
// Prometheus (/api/v1/alerts) knows pending alerts and the expression's value; Alertmanager
// (/api/v2/alerts) knows which alerts are silenced or inhibited, and also holds alerts sent by
// other Prometheus servers. An Alertmanager alert is the same alert as a Prometheus one when it
// carries every label of it (Alertmanager adds the sender's external labels). The result: every
// Prometheus alert, with silenced/silencedBy/inhibited/fingerprint from its Alertmanager twin,
// then the Alertmanager alerts that no Prometheus alert matched, in Alertmanager's order.
namespace AlertMerge {

QVector<PrometheusAlert> merge(const QVector<PrometheusAlert> &prometheus, const QVector<PrometheusAlert> &alertmanager);

// Whether `wider` carries every label of `narrower` with the same value.
bool carriesLabels(const PrometheusAlert &wider, const PrometheusAlert &narrower);

} // namespace AlertMerge
} // namespace strata
