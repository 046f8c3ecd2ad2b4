#ifndef CRYPTOREPORT_BUILD_INFO_H
#define CRYPTOREPORT_BUILD_INFO_H

/// The git commit the binary was built from, or "" when the build was not told.
const char *cryptoreport_commit(void);

#endif
