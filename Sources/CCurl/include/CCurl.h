// SPDX-License-Identifier: Apache-2.0
#ifndef PHOTOMAP_CCURL_H
#define PHOTOMAP_CCURL_H

#include <curl/curl.h>
typedef size_t (*photomap_curl_data_callback)(char *data, size_t size, size_t count, void *context);

CURLcode photomap_curl_set_long(CURL *handle, CURLoption option, long value);

CURLcode photomap_curl_set_string(CURL *handle, CURLoption option, const char *value);

CURLcode photomap_curl_set_pointer(CURL *handle, CURLoption option, void *value);

CURLcode photomap_curl_set_callback(CURL *handle, CURLoption option, photomap_curl_data_callback value);

CURLcode photomap_curl_get_long(CURL *handle, CURLINFO info, long *value);

CURLcode photomap_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value);

CURLMcode photomap_curl_multi_set_long(CURLM *multi, CURLMoption option, long value);

#endif
