// SPDX-License-Identifier: GPL-2.0
/*
 * ovs-btf-layout: a host program run by Kbuild.  Prints ovs-layout.h: what
 * ovs-layout-list.h lists, read from the BTF (BPF Type Format) of the
 * target kernel's own openvswitch.ko, which Debian's kernels carry
 * (CONFIG_DEBUG_INFO_BTF_MODULES): struct sizes, and member offsets and
 * function prototypes with their types written out in C, for ovs-abi.h to
 * hold its own declarations against.  No kernel source is needed.
 *
 *	ovs-btf-layout KERNEL OPENVSWITCH_KO
 *
 * A module's BTF is split BTF: its type ids and string offsets continue
 * those of the kernel's own BTF, so that is read first, from KERNEL: a
 * vmlinux, a compressed kernel image (/boot/vmlinuz-*) or raw BTF
 * (/sys/kernel/btf/vmlinux of the running kernel).  OPENVSWITCH_KO may be
 * compressed (.ko.xz, .ko.zst, .ko.gz).  Compressed data is unpacked with
 * the xz, zstd or gzip program.
 */
#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/btf.h>

struct blob {
	unsigned char *data;
	size_t len;
};

struct btf {
	const char *path;		/* for messages */
	const struct btf *base;		/* split BTF: the kernel's BTF */
	const struct btf_type **types;	/* this BTF's own types */
	uint32_t nr_types;
	uint32_t start_id;		/* id of types[0] */
	uint32_t start_str;		/* offset of strs[0] */
	const char *strs;
	uint32_t str_len;
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A macro, so that the compiler checks the format and knows it exits. */
#define fail(fmt, ...) do {						\
	fprintf(stderr, "ovs-btf-layout: " fmt "\n", ##__VA_ARGS__);	\
	exit(1);							\
} while (0)

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p)
		fail("out of memory");
	return p;
}

/*
 * A new string, printf's way; a macro for the same reason as fail().  The
 * arguments are read twice: to size the string, then to write it.
 */
#define xprintf(fmt, ...) ({						\
	int n_ = snprintf(NULL, 0, fmt, ##__VA_ARGS__);			\
	char *s_ = xrealloc(NULL, n_ + 1);				\
									\
	snprintf(s_, n_ + 1, fmt, ##__VA_ARGS__);			\
	s_;								\
})

static struct blob read_stream(FILE *f, const char *what)
{
	struct blob b = { NULL, 0 };
	size_t cap = 0, n;

	do {
		if (b.len == cap) {
			cap = cap ? cap * 2 : 1 << 20;
			b.data = xrealloc(b.data, cap);
		}
		n = fread(b.data + b.len, 1, cap - b.len, f);
		b.len += n;
	} while (n);
	if (ferror(f))
		fail("%s: %s", what, strerror(errno));
	return b;
}

static struct blob read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct blob b;

	if (!f)
		fail("%s: %s", path, strerror(errno));
	b = read_stream(f, path);
	fclose(f);
	return b;
}

/* Compressed streams, by their magic numbers. */
static const struct {
	const char *magic;
	size_t magic_len;
	const char *program;
} packers[] = {
	{ "\xfd\x37\x7a\x58\x5a\x00", 6, "xz" },
	{ "\x28\xb5\x2f\xfd", 4, "zstd" },
	{ "\x1f\x8b\x08", 3, "gzip" },
};

/*
 * Unpacks the stream starting at @off through its program.  A kernel image
 * has data after the stream, which the programs complain about after
 * unpacking it all, so their exit status says nothing: the caller checks
 * what came out.
 */
static struct blob unpack(const struct blob *in, size_t off,
			  const char *program, const char *path)
{
	char tmp[] = "/tmp/ovs-btf-layout.XXXXXX";
	char cmd[128];
	struct blob out;
	FILE *f;
	int fd;

	fd = mkstemp(tmp);
	if (fd < 0)
		fail("temporary file: %s", strerror(errno));
	if (write(fd, in->data + off, in->len - off) != (ssize_t)(in->len - off))
		fail("temporary file: %s", strerror(errno));
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s -dcq < %s 2>/dev/null", program, tmp);
	f = popen(cmd, "r");
	if (!f)
		fail("%s: cannot run %s: %s", path, program, strerror(errno));
	out = read_stream(f, path);
	pclose(f);
	unlink(tmp);
	if (!out.len)
		fail("%s: %s unpacked nothing (is %s installed?)",
		     path, program, program);
	return out;
}

static bool is_elf(const struct blob *b)
{
	return b->len >= SELFMAG && !memcmp(b->data, ELFMAG, SELFMAG);
}

static bool is_raw_btf(const struct blob *b)
{
	const struct btf_header *h = (const void *)b->data;

	return b->len >= sizeof(*h) && h->magic == BTF_MAGIC;
}

/*
 * An ELF file or raw BTF as it is; anything else is unpacked: a compressed
 * module from its first byte, a kernel image from the first compressed
 * stream in it that unpacks to an ELF file.
 */
static struct blob load(const char *path)
{
	struct blob in = read_file(path);
	struct blob out;
	size_t i, off;

	if (is_elf(&in) || is_raw_btf(&in))
		return in;
	for (off = 0; off < in.len; off++) {
		for (i = 0; i < ARRAY_SIZE(packers); i++) {
			if (in.len - off < packers[i].magic_len ||
			    memcmp(in.data + off, packers[i].magic,
				   packers[i].magic_len))
				continue;
			out = unpack(&in, off, packers[i].program, path);
			if (is_elf(&out)) {
				free(in.data);
				return out;
			}
			free(out.data);
		}
	}
	fail("%s: neither ELF, raw BTF nor a compressed ELF file", path);
}

/* The .BTF section of an ELF file, or the whole of raw BTF. */
static struct blob btf_section(const struct blob *b, const char *path)
{
	const Elf64_Ehdr *eh = (const void *)b->data;
	const Elf64_Shdr *sh, *names;
	struct blob sec;
	unsigned int i;

	if (is_raw_btf(b))
		return *b;
	if (b->len < sizeof(*eh) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff > b->len ||
	    (b->len - eh->e_shoff) / sizeof(*sh) < eh->e_shnum ||
	    eh->e_shstrndx >= eh->e_shnum)
		fail("%s: not a 64-bit ELF file this program can read", path);
	sh = (const void *)(b->data + eh->e_shoff);
	names = &sh[eh->e_shstrndx];
	for (i = 0; i < eh->e_shnum; i++) {
		if (names->sh_offset + sh[i].sh_name >= b->len ||
		    strcmp((const char *)b->data + names->sh_offset +
			   sh[i].sh_name, ".BTF"))
			continue;
		if (sh[i].sh_offset > b->len ||
		    sh[i].sh_size > b->len - sh[i].sh_offset)
			fail("%s: its .BTF section is cut short", path);
		sec.data = b->data + sh[i].sh_offset;
		sec.len = sh[i].sh_size;
		return sec;
	}
	fail("%s: no .BTF section (a kernel built without CONFIG_DEBUG_INFO_BTF%s?)",
	     path, eh->e_type == ET_REL ? "_MODULES" : "");
}

/* Bytes that follow a struct btf_type of this kind, or -1 if unknown. */
static long btf_type_extra(const struct btf_type *t)
{
	unsigned int vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return (long)vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return (long)vlen * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64:
		return (long)vlen * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO:
		return (long)vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return (long)vlen * sizeof(struct btf_var_secinfo);
	default:
		return -1;
	}
}

static void btf_parse(struct btf *btf, const struct blob *sec,
		      const char *path, const struct btf *base)
{
	const struct btf_header *h = (const void *)sec->data;
	const unsigned char *p, *end;
	size_t cap = 0;
	long extra;

	if (sec->len < sizeof(*h) || h->magic != BTF_MAGIC ||
	    h->version != BTF_VERSION || h->hdr_len > sec->len ||
	    h->type_off > sec->len - h->hdr_len ||
	    h->type_len > sec->len - h->hdr_len - h->type_off ||
	    h->str_off > sec->len - h->hdr_len ||
	    h->str_len > sec->len - h->hdr_len - h->str_off)
		fail("%s: BTF with a header this program cannot read", path);

	memset(btf, 0, sizeof(*btf));
	btf->path = path;
	btf->base = base;
	btf->start_id = base ? base->start_id + base->nr_types : 1;
	btf->start_str = base ? base->start_str + base->str_len : 0;
	btf->strs = (const char *)sec->data + h->hdr_len + h->str_off;
	btf->str_len = h->str_len;
	if (btf->str_len && btf->strs[btf->str_len - 1])
		fail("%s: BTF strings not terminated", path);

	p = sec->data + h->hdr_len + h->type_off;
	end = p + h->type_len;
	while (p < end) {
		const struct btf_type *t = (const void *)p;

		if ((size_t)(end - p) < sizeof(*t))
			fail("%s: BTF type %u cut short", path,
			     btf->start_id + btf->nr_types);
		extra = btf_type_extra(t);
		if (extra < 0)
			fail("%s: BTF type %u of unknown kind %u", path,
			     btf->start_id + btf->nr_types,
			     BTF_INFO_KIND(t->info));
		if ((size_t)(end - p) < sizeof(*t) + extra)
			fail("%s: BTF type %u cut short", path,
			     btf->start_id + btf->nr_types);
		if (btf->nr_types == cap) {
			cap = cap ? cap * 2 : 4096;
			btf->types = xrealloc(btf->types,
					      cap * sizeof(*btf->types));
		}
		btf->types[btf->nr_types++] = t;
		p += sizeof(*t) + extra;
	}
}

static const char *btf_name(const struct btf *btf, uint32_t off)
{
	if (off < btf->start_str)
		return btf->base ? btf_name(btf->base, off) : "";
	off -= btf->start_str;
	if (off >= btf->str_len)
		fail("%s: BTF name offset %u out of range", btf->path, off);
	return btf->strs + off;
}

static const struct btf_type *btf_type(const struct btf *btf, uint32_t id)
{
	if (id < btf->start_id)
		return btf->base ? btf_type(btf->base, id) : NULL;
	if (id - btf->start_id >= btf->nr_types)
		fail("%s: BTF type id %u out of range", btf->path, id);
	return btf->types[id - btf->start_id];
}

/*
 * The module's own type of @kind named @name: a struct it defines (not a
 * declaration), or a function it defines (not one it only calls).
 */
static const struct btf_type *find_named(const struct btf *btf,
					 unsigned int kind, const char *name)
{
	uint32_t i;

	for (i = 0; i < btf->nr_types; i++) {
		const struct btf_type *t = btf->types[i];

		if (BTF_INFO_KIND(t->info) == kind &&
		    !strcmp(btf_name(btf, t->name_off), name))
			return t;
	}
	fail("%s: no %s %s in its BTF", btf->path,
	     kind == BTF_KIND_FUNC ? "function" : "struct", name);
}

/*
 * Member @name of @t, looking into anonymous structs and unions as C does,
 * with its offset in bits added to *@bits; NULL if there is none.
 */
static const struct btf_member *find_member(const struct btf *btf,
					    const struct btf_type *t,
					    const char *name, long *bits)
{
	const struct btf_member *m = (const void *)(t + 1);
	unsigned int i, vlen = BTF_INFO_VLEN(t->info);

	for (i = 0; i < vlen; i++) {
		uint32_t off = BTF_INFO_KFLAG(t->info) ?
			       BTF_MEMBER_BIT_OFFSET(m[i].offset) :
			       m[i].offset;
		const struct btf_member *found;
		const struct btf_type *mt;
		long inner = 0;

		if (m[i].name_off) {
			if (strcmp(btf_name(btf, m[i].name_off), name))
				continue;
			*bits += off;
			return &m[i];
		}
		mt = btf_type(btf, m[i].type);
		if (!mt || (BTF_INFO_KIND(mt->info) != BTF_KIND_STRUCT &&
			    BTF_INFO_KIND(mt->info) != BTF_KIND_UNION))
			continue;
		found = find_member(btf, mt, name, &inner);
		if (found) {
			*bits += off + inner;
			return found;
		}
	}
	return NULL;
}

/* Type @id with type tags (__rcu, __user) looked through. */
static const struct btf_type *untagged(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf_type(btf, id);

	while (t && BTF_INFO_KIND(t->info) == BTF_KIND_TYPE_TAG)
		t = btf_type(btf, t->type);
	return t;
}

/* The kind of type @id, void being BTF_KIND_UNKN. */
static unsigned int kind_of(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = untagged(btf, id);

	return t ? BTF_INFO_KIND(t->info) : BTF_KIND_UNKN;
}

/* Is type @id a struct, union or enum of no name (only a typedef names it)? */
static bool unnamed_tag(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = untagged(btf, id);

	if (!t || t->name_off)
		return false;
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return true;
	default:
		return false;
	}
}

/*
 * Prints a declaration of struct or union @name at file scope, once, ahead
 * of the typedef naming it: a tag seen first in a parameter list would be
 * another type, local to that list.
 */
static void declare_tag(const char *tag, const char *name)
{
	static char **declared;
	static size_t nr;
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(declared[i], name))
			return;
	declared = xrealloc(declared, (nr + 1) * sizeof(*declared));
	declared[nr++] = xprintf("%s", name);
	printf("%s %s;\n", tag, name);
}

static char *c_params(const struct btf *btf, const struct btf_type *proto);

/*
 * Type @id written in C around the declarator @decl ("" for none), inside
 * out as C reads it: "struct vport *(*create)(const struct vport_parms *)".
 * Declares the structs and unions it names (declare_tag()).
 * Typedefs are looked through, so that the text needs none of
 * openvswitch.ko's private headers; only one naming a struct, union or enum
 * of no name of its own (possible_net_t) is kept, as C has no other way to
 * say it.  Type tags (__rcu, __user) are not C types and are left out.
 */
static char *c_decl(const struct btf *btf, uint32_t id, const char *decl)
{
	static const char *const tags[] = {
		[BTF_KIND_STRUCT] = "struct", [BTF_KIND_UNION] = "union",
		[BTF_KIND_ENUM] = "enum", [BTF_KIND_ENUM64] = "enum",
		[BTF_KIND_VOLATILE] = "volatile", [BTF_KIND_CONST] = "const",
		[BTF_KIND_RESTRICT] = "restrict",
	};
	const struct btf_type *t = btf_type(btf, id);
	const char *sep = *decl ? " " : "";
	const struct btf_array *array;
	char *inner, *s;
	unsigned int kind;

	if (!t)
		return xprintf("void%s%s", sep, decl);
	kind = BTF_INFO_KIND(t->info);
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
		return xprintf("%s%s%s", btf_name(btf, t->name_off), sep, decl);
	case BTF_KIND_FWD:
		kind = BTF_INFO_KFLAG(t->info) ? BTF_KIND_UNION : BTF_KIND_STRUCT;
		/* fall through */
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (!t->name_off)
			fail("%s: BTF type %u, a %s of no name, cannot be written in C",
			     btf->path, id, tags[kind]);
		if (kind != BTF_KIND_ENUM && kind != BTF_KIND_ENUM64)
			declare_tag(tags[kind], btf_name(btf, t->name_off));
		return xprintf("%s %s%s%s", tags[kind],
			       btf_name(btf, t->name_off), sep, decl);
	case BTF_KIND_TYPEDEF:
		if (unnamed_tag(btf, t->type))
			return xprintf("%s%s%s", btf_name(btf, t->name_off),
				       sep, decl);
		return c_decl(btf, t->type, decl);
	case BTF_KIND_TYPE_TAG:
		return c_decl(btf, t->type, decl);
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
		/* A qualified pointer is qualified after its star. */
		if (kind_of(btf, t->type) == BTF_KIND_PTR) {
			inner = xprintf("%s%s%s", tags[kind], sep, decl);
			s = c_decl(btf, t->type, inner);
			free(inner);
			return s;
		}
		inner = c_decl(btf, t->type, decl);
		s = xprintf("%s %s", tags[kind], inner);
		free(inner);
		return s;
	case BTF_KIND_PTR:
		/* A pointer to a function or an array takes parentheses. */
		if (kind_of(btf, t->type) == BTF_KIND_FUNC_PROTO ||
		    kind_of(btf, t->type) == BTF_KIND_ARRAY)
			inner = xprintf("(*%s)", decl);
		else
			inner = xprintf("*%s", decl);
		s = c_decl(btf, t->type, inner);
		free(inner);
		return s;
	case BTF_KIND_ARRAY:
		array = (const void *)(t + 1);
		inner = xprintf("%s[%u]", decl, array->nelems);
		s = c_decl(btf, array->type, inner);
		free(inner);
		return s;
	case BTF_KIND_FUNC_PROTO:
		s = c_params(btf, t);
		inner = xprintf("%s(%s)", decl, s);
		free(s);
		s = c_decl(btf, t->type, inner);
		free(inner);
		return s;
	default:
		fail("%s: BTF type %u of kind %u cannot be written in C",
		     btf->path, id, kind);
	}
}

/* The parameter list of @proto in C, without names: they mean nothing here. */
static char *c_params(const struct btf *btf, const struct btf_type *proto)
{
	const struct btf_param *p = (const void *)(proto + 1);
	unsigned int i, vlen = BTF_INFO_VLEN(proto->info);
	char *list = xprintf("%s", vlen ? "" : "void");
	char *param, *longer;

	for (i = 0; i < vlen; i++) {
		/* A last parameter of no type says the function is variadic. */
		if (i == vlen - 1 && !p[i].type)
			param = xprintf("...");
		else
			param = c_decl(btf, p[i].type, "");
		longer = xprintf("%s%s%s", list, i ? ", " : "", param);
		free(param);
		free(list);
		list = longer;
	}
	return list;
}

/*
 * Type @id as a typedef named stt_ovs_type_@ident for ovs-abi.h to compare
 * its own declaration with, and as STT_OVS_DECL_@ident, the text of a
 * declaration of @name, for its error messages.
 */
static void print_type(const struct btf *btf, uint32_t id, const char *ident,
		       const char *name)
{
	char *type_name = xprintf("stt_ovs_type_%s", ident);
	char *typedef_decl = c_decl(btf, id, type_name);
	char *named_decl = c_decl(btf, id, name);

	printf("typedef %s;\n#define STT_OVS_DECL_%s \"%s\"\n",
	       typedef_decl, ident, named_decl);
	free(named_decl);
	free(typedef_decl);
	free(type_name);
}

static void print_size(const struct btf *btf, const char *s)
{
	printf("#define STT_OVS_SIZEOF_%s %u\n", s,
	       find_named(btf, BTF_KIND_STRUCT, s)->size);
}

static void print_member(const struct btf *btf, const char *s, const char *m)
{
	const struct btf_type *t = find_named(btf, BTF_KIND_STRUCT, s);
	const struct btf_member *member;
	long bits = 0;
	char *ident;

	member = find_member(btf, t, m, &bits);
	if (!member)
		fail("%s: struct %s has no member %s", btf->path, s, m);
	if (bits % 8)
		fail("%s: struct %s: member %s is a bit field", btf->path, s, m);
	printf("#define STT_OVS_OFFSETOF_%s_%s %ld\n", s, m, bits / 8);
	ident = xprintf("%s_%s", s, m);
	print_type(btf, member->type, ident, m);
	free(ident);
}

static void print_func(const struct btf *btf, const char *f)
{
	const struct btf_type *t = find_named(btf, BTF_KIND_FUNC, f);

	if (kind_of(btf, t->type) != BTF_KIND_FUNC_PROTO)
		fail("%s: function %s has no prototype in its BTF", btf->path, f);
	print_type(btf, t->type, f, f);
}

int main(int argc, char **argv)
{
	struct blob kernel, ovs, kernel_sec, ovs_sec;
	struct btf kernel_btf, ovs_btf;

	if (argc != 3) {
		fprintf(stderr, "usage: %s KERNEL OPENVSWITCH_KO\n", argv[0]);
		return 2;
	}
	kernel = load(argv[1]);
	kernel_sec = btf_section(&kernel, argv[1]);
	btf_parse(&kernel_btf, &kernel_sec, argv[1], NULL);
	ovs = load(argv[2]);
	ovs_sec = btf_section(&ovs, argv[2]);
	btf_parse(&ovs_btf, &ovs_sec, argv[2], &kernel_btf);

	printf("/* Generated by ovs-btf-layout from the BTF of %s. */\n"
	       "#ifndef _STT_OVS_LAYOUT_H\n#define _STT_OVS_LAYOUT_H\n"
	       "#define STT_OVS_LAYOUT_TYPES 1\n", argv[2]);
#define STT_OVS_SIZE(s) print_size(&ovs_btf, #s)
#define STT_OVS_MEMBER(s, m) print_member(&ovs_btf, #s, #m)
#define STT_OVS_OPAQUE(s, m) print_member(&ovs_btf, #s, #m)
#define STT_OVS_FUNC(f) print_func(&ovs_btf, #f)
#include "ovs-layout-list.h"
	printf("#endif\n");
	if (fflush(stdout) || ferror(stdout))
		fail("writing the header: %s", strerror(errno));
	return 0;
}
