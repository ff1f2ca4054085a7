/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stt-man TEMPLATE: writes stt(4) from its template (docs/man/stt.4.in) and
 * the counter table (datapath/stats-list.h), so that the manual cannot
 * drift from the counters the module has.
 *
 * Each template line '.\" counter NAME' becomes counter NAME's entry: its
 * name, the block it is charged to, the drop reason its packets are freed
 * with and the ip -s link fields it folds into, all read from its row; the
 * template's lines after it describe it.  A counter of the table that the
 * template does not describe, a name the table lacks, or one described
 * twice is an error (exit 1), and the build stops.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "stt_err.h"

#define COUNTER_LINE ".\\\" counter "

struct row {
    const char *name;           /* NULL in the lib/ block: stt_err_name(). */
    enum stt_err err;
    const char *charge;         /* The row's words, as written there. */
    const char *drop;
    const char *folds;
    bool described;
};

static struct row rows[] = {
#define STT_COUNTER(COUNTER, ETHTOOL_NAME, CHARGE, DROP, FOLDS) \
    { ETHTOOL_NAME, STT_OK, #CHARGE, #DROP, #FOLDS, false },
#define STT_LIB_COUNTER(ERR, CHARGE, DROP, FOLDS) \
    { NULL, STT_ERR_##ERR, #CHARGE, #DROP, #FOLDS, false },
#include "stats-list.h"
#undef STT_COUNTER
#undef STT_LIB_COUNTER
};

#define N_ROWS (sizeof rows / sizeof rows[0])

static const char *
row_name(const struct row *r)
{
    static char name[64];

    if (r->name) {
        return r->name;
    }
    snprintf(name, sizeof name, "rx_err_%s", stt_err_name(r->err));
    return name;
}

/* "LATER(DUP_FRAG, TCP_OLD_DATA)" gives "DUP_FRAG (6.1: TCP_OLD_DATA)";
 * NO_DROP nothing. */
static void
print_drop(const char *drop)
{
    char reason[64], older[64];

    if (sscanf(drop, "DROP(%63[A-Z0-9_])", reason) == 1) {
        printf("; drop reason \\fB%s\\fR", reason);
    } else if (sscanf(drop, "LATER(%63[A-Z0-9_], %63[A-Z0-9_])",
                      reason, older) == 2) {
        printf("; drop reason \\fB%s\\fR (6.1: \\fB%s\\fR)", reason, older);
    }
}

/* "RX_ERRORS | RX_CRC_ERRORS" gives "rx_errors, rx_crc_errors", the
 * rtnl_link_stats64 names; 0 nothing. */
static void
print_folds(const char *folds)
{
    const char *sep = "; ip \\-s link: ";
    const char *p;

    if (!strcmp(folds, "0")) {
        return;
    }
    for (p = folds; *p; p++) {
        if (*p == ' ' || *p == '|') {
            continue;
        }
        printf("%s", sep);
        sep = ", ";
        for (; p[1] && p[1] != ' ' && p[1] != '|'; p++) {
            putchar(tolower((unsigned char) *p));
        }
        putchar(tolower((unsigned char) *p));
    }
}

/* Prints counter 'name''s entry header; 1 if it has none to print. */
static int
describe(const char *name)
{
    size_t i;

    for (i = 0; i < N_ROWS; i++) {
        struct row *r = &rows[i];

        if (strcmp(row_name(r), name)) {
            continue;
        }
        if (r->described) {
            fprintf(stderr, "stt-man: counter %s described twice\n", name);
            return 1;
        }
        r->described = true;
        printf(".TP\n.B %s\n(%s", name,
               strcmp(r->charge, "PORT") ? "device" : "receive port");
        print_drop(r->drop);
        print_folds(r->folds);
        printf(")\n.br\n");
        return 0;
    }
    fprintf(stderr, "stt-man: counter %s is not in stats-list.h\n", name);
    return 1;
}

int
main(int argc, char *argv[])
{
    char line[1024];
    int status = 0;
    size_t i;
    FILE *in;

    if (argc != 2) {
        fprintf(stderr, "usage: stt-man TEMPLATE > stt.4\n");
        return 2;
    }
    in = fopen(argv[1], "r");
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    while (fgets(line, sizeof line, in)) {
        if (strncmp(line, COUNTER_LINE, strlen(COUNTER_LINE))) {
            fputs(line, stdout);
            continue;
        }
        line[strcspn(line, "\n")] = '\0';
        status |= describe(line + strlen(COUNTER_LINE));
    }
    fclose(in);

    for (i = 0; i < N_ROWS; i++) {
        if (!rows[i].described) {
            fprintf(stderr, "stt-man: %s does not describe counter %s\n",
                    argv[1], row_name(&rows[i]));
            status = 1;
        }
    }
    if (fflush(stdout) || ferror(stdout)) {
        perror("stt-man: stdout");
        status = 1;
    }
    return status;
}
