/* A signal at the Nth write: LD_PRELOAD'ed into the binary by SignalAtWriteTests. With
   SIGNAL_AT_WRITE=N it sends the process SIGTERM (or SIGHUP with SIGNAL_WHICH=HUP) just before its
   Nth write(2) to a file (not to standard output or error) or pwrite64(2), as a kill landing while
   a report, the journal or the history is being written would; SIGNAL_MARK names a file it
   creates when it does, so a test knows the run had that many writes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long count = 0;

static void maybe_signal(void) {
    const char *at = getenv("SIGNAL_AT_WRITE");
    if (!at || ++count != atol(at)) return;
    const char *mark = getenv("SIGNAL_MARK");
    if (mark) {
        int fd = open(mark, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
        if (fd >= 0) close(fd);
    }
    const char *which = getenv("SIGNAL_WHICH");
    kill(getpid(), which && strcmp(which, "HUP") == 0 ? SIGHUP : SIGTERM);
}

ssize_t write(int fd, const void *buffer, size_t count) {
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    if (fd > 2) maybe_signal();
    return real(fd, buffer, count);
}

ssize_t pwrite64(int fd, const void *buffer, size_t count, off_t offset) {
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real) real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite64");
    maybe_signal();
    return real(fd, buffer, count, offset);
}
