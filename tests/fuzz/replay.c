// SPDX-License-Identifier: GPL-2.0
/*
 * Replays inputs through a fuzz target without libFuzzer, so that the seed
 * corpus and saved crashes can be run by "make check" with any compiler
 * (built with AddressSanitizer and UndefinedBehaviorSanitizer).
 *
 *   replay-TARGET [FILE|DIR]...
 *
 * Each FILE, and each regular file in each DIR (in name order), runs in a
 * child process of its own: a broken invariant aborts the child, and the
 * other inputs still run.  Without arguments it replays the target's seed
 * corpus, FUZZ_CORPUS_DIR.  Exit status 0 if every input passed and there
 * was at least one; the last line is "N passed, M failed".
 */

#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned int passed, failed;

static int run_one(const char *path)
{
	uint8_t *data;
	long size;
	FILE *f;

	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 2;
	}
	/* Exactly sized, so that the sanitizer sees any read past the end. */
	data = malloc(size ? size : 1);
	if (!data || fread(data, 1, size, f) != (size_t)size) {
		fprintf(stderr, "%s: read failed\n", path);
		return 2;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	return 0;
}

static void replay_file(const char *path)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (!pid)
		exit(run_one(path));
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		exit(2);
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status)) {
		passed++;
		printf("PASS: %s\n", path);
	} else {
		failed++;
		if (WIFSIGNALED(status))
			printf("FAIL: %s (signal %d)\n", path, WTERMSIG(status));
		else
			printf("FAIL: %s (exit status %d)\n", path,
			       WEXITSTATUS(status));
	}
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay_dir(const char *dir)
{
	char **names = NULL;
	size_t n = 0, i;
	struct dirent *de;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		printf("FAIL: %s: %s\n", dir, strerror(errno));
		failed++;
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names || !(names[n] = strdup(de->d_name))) {
			perror("out of memory");
			exit(2);
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), compare_names);

	for (i = 0; i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]) + 2;
		char *path = malloc(len);
		struct stat st;

		if (!path) {
			perror("out of memory");
			exit(2);
		}
		snprintf(path, len, "%s/%s", dir, names[i]);
		if (!stat(path, &st) && S_ISREG(st.st_mode))
			replay_file(path);
		free(path);
		free(names[i]);
	}
	free(names);
}

static void replay(const char *path)
{
	struct stat st;

	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		replay_dir(path);
	else
		replay_file(path);
}

int main(int argc, char *argv[])
{
	int i;

	if (argc < 2)
		replay(FUZZ_CORPUS_DIR);
	for (i = 1; i < argc; i++)
		replay(argv[i]);

	printf("%u passed, %u failed\n", passed, failed);
	return failed || !passed;
}
