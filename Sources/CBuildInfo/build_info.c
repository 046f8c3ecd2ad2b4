#include "build_info.h"

// `make build` writes .build/build-commit.h (`#define CRYPTOREPORT_COMMIT "…"`) when the commit
// changes. A Swift package has no build-time values of its own; a header only this file includes
// means a new commit recompiles this one file and relinks, not every module.
#if __has_include("../../.build/build-commit.h")
#include "../../.build/build-commit.h"
#endif
#ifndef CRYPTOREPORT_COMMIT
#define CRYPTOREPORT_COMMIT ""
#endif

const char *cryptoreport_commit(void) { return CRYPTOREPORT_COMMIT; }
