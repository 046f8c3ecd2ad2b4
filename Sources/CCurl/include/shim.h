#ifndef CRYPTOREPORT_CURL_SHIM_H
#define CRYPTOREPORT_CURL_SHIM_H

#include <curl/curl.h>

// The system's libcurl, opened at the first request (curl.c says why). Every call below goes
// through it: call cryptoreport_curl_load first, and nothing else when it returns 0.

/// 1 once libcurl is open and initialised, 0 when it cannot be (the reason in
/// cryptoreport_curl_load_failure). Safe from any thread; loads once.
int cryptoreport_curl_load(void);
/// Why libcurl could not be loaded: "" when it was.
const char *cryptoreport_curl_load_failure(void);

CURL *cryptoreport_curl_easy_init(void);
void cryptoreport_curl_easy_cleanup(CURL *handle);
const char *cryptoreport_curl_easy_strerror(CURLcode code);
CURLM *cryptoreport_curl_multi_init(void);
CURLMcode cryptoreport_curl_multi_cleanup(CURLM *multi);
CURLMcode cryptoreport_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode cryptoreport_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode cryptoreport_curl_multi_perform(CURLM *multi, int *running);
CURLMcode cryptoreport_curl_multi_poll(CURLM *multi, int timeout_ms);
CURLMsg *cryptoreport_curl_multi_info_read(CURLM *multi, int *queued);
CURLMcode cryptoreport_curl_multi_wakeup(CURLM *multi);
struct curl_slist *cryptoreport_curl_slist_append(struct curl_slist *list, const char *text);
void cryptoreport_curl_slist_free_all(struct curl_slist *list);

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// wrapper per kind of argument the client passes.
CURLcode cryptoreport_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode cryptoreport_curl_set_string(CURL *handle, CURLoption option, const char *value);
CURLcode cryptoreport_curl_set_pointer(CURL *handle, CURLoption option, void *value);
CURLcode cryptoreport_curl_set_write(CURL *handle, CURLoption option, curl_write_callback callback);
CURLcode cryptoreport_curl_set_progress(CURL *handle, curl_xferinfo_callback callback);
CURLcode cryptoreport_curl_get_long(CURL *handle, CURLINFO info, long *value);
CURLcode cryptoreport_curl_get_string(CURL *handle, CURLINFO info, char **value);

#endif
