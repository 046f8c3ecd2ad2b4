#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// libcurl is opened when a run first makes a request, not linked: with its TLS, HTTP/2, IDN,
// SSH, LDAP and Kerberos libraries it is some thirty shared objects, whose loading every start
// of the process paid (a run on saved files, --sample, --version, history) for two requests a
// day. dlopen by its soname, as the dynamic linker would have found it.
#ifdef __APPLE__
static const char *const library_name = "libcurl.4.dylib";
#else
static const char *const library_name = "libcurl.so.4";
#endif

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} api;
static int loaded;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int find(void *library, void **slot, const char *name) {
    *slot = dlsym(library, name);
    if (*slot) return 1;
    snprintf(failure, sizeof failure, "%s has no %s", library_name, name);
    return 0;
}

static void load(void) {
    void *library = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s", reason ? reason : library_name);
        return;
    }
    if (!find(library, (void **)&api.global_init, "curl_global_init") || !find(library, (void **)&api.easy_init, "curl_easy_init")
        || !find(library, (void **)&api.easy_cleanup, "curl_easy_cleanup") || !find(library, (void **)&api.easy_strerror, "curl_easy_strerror")
        || !find(library, (void **)&api.easy_setopt, "curl_easy_setopt") || !find(library, (void **)&api.easy_getinfo, "curl_easy_getinfo")
        || !find(library, (void **)&api.multi_init, "curl_multi_init") || !find(library, (void **)&api.multi_cleanup, "curl_multi_cleanup")
        || !find(library, (void **)&api.multi_add_handle, "curl_multi_add_handle")
        || !find(library, (void **)&api.multi_remove_handle, "curl_multi_remove_handle")
        || !find(library, (void **)&api.multi_perform, "curl_multi_perform") || !find(library, (void **)&api.multi_poll, "curl_multi_poll")
        || !find(library, (void **)&api.multi_info_read, "curl_multi_info_read")
        || !find(library, (void **)&api.multi_wakeup, "curl_multi_wakeup") || !find(library, (void **)&api.slist_append, "curl_slist_append")
        || !find(library, (void **)&api.slist_free_all, "curl_slist_free_all"))
        return;
    if (api.global_init(CURL_GLOBAL_ALL) != CURLE_OK) {
        snprintf(failure, sizeof failure, "curl_global_init failed");
        return;
    }
    loaded = 1;
}

int cryptoreport_curl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cryptoreport_curl_load_failure(void) { return failure; }

CURL *cryptoreport_curl_easy_init(void) { return api.easy_init(); }
void cryptoreport_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
const char *cryptoreport_curl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
CURLM *cryptoreport_curl_multi_init(void) { return api.multi_init(); }
CURLMcode cryptoreport_curl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }
CURLMcode cryptoreport_curl_multi_add_handle(CURLM *multi, CURL *handle) { return api.multi_add_handle(multi, handle); }
CURLMcode cryptoreport_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return api.multi_remove_handle(multi, handle); }
CURLMcode cryptoreport_curl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }
CURLMcode cryptoreport_curl_multi_poll(CURLM *multi, int timeout_ms) { return api.multi_poll(multi, NULL, 0, timeout_ms, NULL); }
CURLMsg *cryptoreport_curl_multi_info_read(CURLM *multi, int *queued) { return api.multi_info_read(multi, queued); }
CURLMcode cryptoreport_curl_multi_wakeup(CURLM *multi) { return api.multi_wakeup(multi); }
struct curl_slist *cryptoreport_curl_slist_append(struct curl_slist *list, const char *text) { return api.slist_append(list, text); }
void cryptoreport_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode cryptoreport_curl_set_long(CURL *handle, CURLoption option, long value) { return api.easy_setopt(handle, option, value); }
CURLcode cryptoreport_curl_set_string(CURL *handle, CURLoption option, const char *value) { return api.easy_setopt(handle, option, value); }
CURLcode cryptoreport_curl_set_pointer(CURL *handle, CURLoption option, void *value) { return api.easy_setopt(handle, option, value); }
CURLcode cryptoreport_curl_set_write(CURL *handle, CURLoption option, curl_write_callback callback) {
    return api.easy_setopt(handle, option, callback);
}
CURLcode cryptoreport_curl_set_progress(CURL *handle, curl_xferinfo_callback callback) {
    return api.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
CURLcode cryptoreport_curl_get_long(CURL *handle, CURLINFO info, long *value) { return api.easy_getinfo(handle, info, value); }
CURLcode cryptoreport_curl_get_string(CURL *handle, CURLINFO info, char **value) { return api.easy_getinfo(handle, info, value); }
