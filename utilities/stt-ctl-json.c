/* SPDX-License-Identifier: GPL-2.0 */
#include "stt-ctl-json.h"

#include <assert.h>
#include <inttypes.h>

void
json_init(struct json *j, FILE *stream)
{
    j->stream = stream;
    j->depth = 0;
    j->need_comma[0] = false;
}

static void
put_string(FILE *stream, const char *s)
{
    putc('"', stream);
    for (; *s; s++) {
        unsigned char c = *s;

        switch (c) {
        case '"':
            fputs("\\\"", stream);
            break;
        case '\\':
            fputs("\\\\", stream);
            break;
        case '\n':
            fputs("\\n", stream);
            break;
        case '\t':
            fputs("\\t", stream);
            break;
        default:
            if (c < 0x20) {
                fprintf(stream, "\\u%04x", c);
            } else {
                putc(c, stream);
            }
            break;
        }
    }
    putc('"', stream);
}

/* Starts a value: the separator from the previous one and its key. */
static void
begin_value(struct json *j, const char *key)
{
    if (j->need_comma[j->depth]) {
        putc(',', j->stream);
    }
    j->need_comma[j->depth] = true;
    if (key) {
        put_string(j->stream, key);
        putc(':', j->stream);
    }
}

static void
open_container(struct json *j, const char *key, int c)
{
    begin_value(j, key);
    putc(c, j->stream);
    assert(j->depth + 1 < JSON_MAX_DEPTH);
    j->need_comma[++j->depth] = false;
}

static void
close_container(struct json *j, int c)
{
    assert(j->depth > 0);
    j->depth--;
    putc(c, j->stream);
    if (!j->depth) {
        putc('\n', j->stream);
    }
}

void
json_object_start(struct json *j, const char *key)
{
    open_container(j, key, '{');
}

void
json_object_end(struct json *j)
{
    close_container(j, '}');
}

void
json_array_start(struct json *j, const char *key)
{
    open_container(j, key, '[');
}

void
json_array_end(struct json *j)
{
    close_container(j, ']');
}

void
json_string(struct json *j, const char *key, const char *value)
{
    begin_value(j, key);
    put_string(j->stream, value);
}

void
json_uint(struct json *j, const char *key, uint64_t value)
{
    begin_value(j, key);
    fprintf(j->stream, "%" PRIu64, value);
}

void
json_int(struct json *j, const char *key, int64_t value)
{
    begin_value(j, key);
    fprintf(j->stream, "%" PRId64, value);
}

void
json_bool(struct json *j, const char *key, bool value)
{
    begin_value(j, key);
    fputs(value ? "true" : "false", j->stream);
}
