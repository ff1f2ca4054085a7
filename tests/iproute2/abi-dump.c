/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What link_stt.so relies on in ip, written out by the compiler: compiled
 * once with utilities/iproute2-abi.h and once with an iproute2 source
 * tree's own headers (-DSTT_ABI_IPROUTE2), with "gcc -aux-info", which
 * prints every function declaration in one normal form, without parameter
 * names.  check-source compares the two.  Each fact is a declaration named
 * stt_abi_*:
 *
 *  - a member of struct link_util: a function returning a pointer to the
 *    member's type, whose parameter's array size is the member's offset + 1;
 *  - a size or an enumerator: a parameter's array size (value + 1);
 *  - a function ip exports: a function of the same type.
 */
#include <stddef.h>

#ifdef STT_ABI_IPROUTE2
#include <stdio.h>
#include "utils.h"
#include "ip_common.h"
#define REQ_ROOM sizeof(((struct iplink_req *) 0)->buf)
#else
#include "iproute2-abi.h"
#define REQ_ROOM IPROUTE2_REQ_MAXLEN
#endif

#define MEMBER(m)                                                       \
    __typeof__(((struct link_util *) 0)->m) *                           \
        stt_abi_link_util_##m(char (*)[offsetof(struct link_util, m) + 1]);
MEMBER(next)
MEMBER(id)
MEMBER(maxattr)
MEMBER(parse_opt)
MEMBER(print_opt)
MEMBER(print_xstats)
MEMBER(print_help)
MEMBER(parse_ifla_xstats)
MEMBER(print_ifla_xstats)

#define VALUE(name, v) void stt_abi_##name(char (*)[(v) + 1]);
VALUE(sizeof_link_util, sizeof(struct link_util))
VALUE(req_room, REQ_ROOM)
VALUE(PRINT_FP, PRINT_FP)
VALUE(PRINT_JSON, PRINT_JSON)
VALUE(PRINT_ANY, PRINT_ANY)
VALUE(COLOR_NONE, COLOR_NONE)
VALUE(sizeof_output_type, sizeof(enum output_type))
VALUE(sizeof_color_attr, sizeof(enum color_attr))

#define FUNCTION(f) __typeof__(f) stt_abi_##f;
FUNCTION(is_json_context)
FUNCTION(open_json_object)
FUNCTION(close_json_object)
FUNCTION(print_color_string)
FUNCTION(print_color_uint)
FUNCTION(print_color_bool)
FUNCTION(addattr_l)
FUNCTION(invarg)
FUNCTION(duparg)
