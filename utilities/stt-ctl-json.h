/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer for stt-ctl -j: compact output, objects and
 * arrays nested to a fixed depth, strings escaped.
 */
#ifndef STT_CTL_JSON_H
#define STT_CTL_JSON_H 1

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 8

struct json {
    FILE *stream;
    int depth;
    bool need_comma[JSON_MAX_DEPTH];
};

/* In every function, 'key' names the member inside an object and must be
 * NULL inside an array or at the top level. */
void json_init(struct json *, FILE *);
void json_object_start(struct json *, const char *key);
void json_object_end(struct json *);
void json_array_start(struct json *, const char *key);
void json_array_end(struct json *);
void json_string(struct json *, const char *key, const char *value);
void json_uint(struct json *, const char *key, uint64_t value);
void json_int(struct json *, const char *key, int64_t value);
void json_bool(struct json *, const char *key, bool value);

#endif /* stt-ctl-json.h */
