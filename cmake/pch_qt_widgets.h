// Precompiled for every target that links Qt Widgets (cmake/precompiled_headers.cmake): Qt Core,
// Gui and Widgets and the standard library, nothing of Strata's. Never include this file; the
// build does.
#pragma once

#include "pch_qt_core.h"

#include <QtGui/QtGui>
#include <QtWidgets/QtWidgets>
