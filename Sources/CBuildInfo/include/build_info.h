#ifndef CRYPTOREPORT_BUILD_INFO_H
#define CRYPTOREPORT_BUILD_INFO_H

// The git commit a binary was built from, when the build was given one
// (`make build` passes -Xcc -DCRYPTOREPORT_COMMIT=\"…\"). A Swift package has no build-time
// values of its own; a C macro is the one way in that needs no generated source file.
static inline const char *cryptoreport_commit(void) {
#ifdef CRYPTOREPORT_COMMIT
    return CRYPTOREPORT_COMMIT;
#else
    return "";
#endif
}

#endif
