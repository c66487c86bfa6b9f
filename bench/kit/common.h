/*
 * Helpers shared by the kit's microbenchmarks: strict flag parsing, CPU
 * pinning and a monotonic clock. Header-only so each benchmark stays a single
 * translation unit that can be read (and copied to another machine) alone.
 */
#ifndef KIT_COMMON_H
#define KIT_COMMON_H

#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Set by each program before parsing so errors can print its own usage. */
static const char *kit_prog;
static void (*kit_usage)(FILE *out);

__attribute__((format(printf, 1, 2), noreturn))
static void kit_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", kit_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	kit_usage(stderr);
	exit(2);
}

/*
 * The whole argument must be a decimal integer in [lo, hi]. strtol alone would
 * accept "12abc" as 12 or "" as 0 and silently run a different benchmark.
 */
static long kit_parse_long(const char *flag, const char *arg, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end != '\0' || v < lo || v > hi)
		kit_usage_error("invalid value '%s' for -%s (expected an integer in [%ld, %ld])",
				arg, flag, lo, hi);
	return v;
}

/* CPUs this process may run on (cgroup/taskset limits apply), in id order. */
static int kit_allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		perror("sched_getaffinity");
		exit(1);
	}
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

/* Pins the calling thread only (pid 0 = caller's tid for sched_setaffinity). */
static void kit_pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
}

/* Monotonic, unlike the seed's gettimeofday(): immune to clock steps mid-run. */
static double kit_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

#endif
