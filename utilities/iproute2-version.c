/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which iproute2 the ip that loaded link_stt.so is.  ip exports no version
 * (each of its files has its own static copy), so the running program is
 * asked the way a user would ask it: /proc/self/exe -V, which prints
 * "ip utility, iproute2-6.15.0, libbpf 1.5.0".
 */
#include <config.h>

#include "iproute2-version.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "iproute2-abi.h"
#include "stt-version.h"

/* "A.B.C" or "A.B" (C is then 0) at the start of 's'. */
static bool
parse_version(const char *s, unsigned int v[3])
{
    int n = 0;

    v[2] = 0;
    return (sscanf(s, "%u.%u%n.%u", &v[0], &v[1], &n, &v[2]) >= 2 && n > 0);
}

static int
compare_versions(const unsigned int a[3], const unsigned int b[3], int parts)
{
    for (int i = 0; i < parts; i++) {
        if (a[i] != b[i]) {
            return a[i] < b[i] ? -1 : 1;
        }
    }
    return 0;
}

/* What "/proc/self/exe -V" prints on stdout, into 'buf'; its stderr (ip
 * complains there when it cannot read /proc/self) is dropped.  0 or an
 * errno value. */
static int
run_ip_version(char *buf, size_t size)
{
    char arg0[] = "ip", arg1[] = "-V";
    char *argv[] = { arg0, arg1, NULL };
    posix_spawn_file_actions_t actions;
    size_t len = 0;
    int fds[2], error, status;
    pid_t pid;

    if (pipe2(fds, O_CLOEXEC)) {
        return errno;
    }
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null",
                                     O_WRONLY, 0);
    error = posix_spawn(&pid, "/proc/self/exe", &actions, NULL, argv,
                        environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    while (!error && len < size - 1) {
        ssize_t n = read(fds[0], buf + len, size - 1 - len);

        if (n > 0) {
            len += n;
        } else if (!n || errno != EINTR) {
            break;
        }
    }
    buf[len] = '\0';
    close(fds[0]);
    if (error) {
        return error;
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            return errno;
        }
    }
    return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : ECHILD;
}

/* The iproute2 version in 'said' ("... iproute2-6.15.0 ..."), or false. */
static bool
said_version(const char *said, unsigned int v[3])
{
    const char *p = strstr(said, "iproute2-");

    return p && parse_version(p + strlen("iproute2-"), v);
}

static bool
check_running(void)
{
    static const char needs[] = "link_stt.so (stt " STT_FULL_VERSION
        ") needs iproute2 " STT_IPROUTE2_FIRST " to " STT_IPROUTE2_LAST
        ".x; stt-ctl does what \"ip link ... type stt\" does";
    unsigned int first[3], last[3], v[3];
    char said[256];
    int error;

    if (!parse_version(STT_IPROUTE2_FIRST, first)
        || !parse_version(STT_IPROUTE2_LAST, last)) {
        fprintf(stderr, "stt: iproute2-abi.h's version range is malformed\n");
        return false;
    }
    error = run_ip_version(said, sizeof said);
    if (error) {
        fprintf(stderr, "stt: cannot tell which iproute2 this ip is "
                "(/proc/self/exe -V: %s); %s\n", strerror(error), needs);
        return false;
    }
    said[strcspn(said, "\n")] = '\0';
    if (!said_version(said, v)) {
        fprintf(stderr, "stt: cannot tell which iproute2 this ip is (ip -V "
                "says \"%s\"); %s\n", said, needs);
        return false;
    }
    if (compare_versions(v, first, 3) < 0
        || compare_versions(v, last, 2) > 0) {
        fprintf(stderr, "stt: ip is iproute2 %u.%u.%u; %s\n",
                v[0], v[1], v[2], needs);
        return false;
    }
    return true;
}

bool
iproute2_running_fits(void)
{
    static int fits = -1;

    if (fits < 0) {
        fits = check_running();
    }
    return fits;
}
