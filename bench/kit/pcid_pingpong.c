/*
 * pcid-pingpong: two processes (two mms) pinned to ONE CPU ping-pong over
 * eventfd, as in the PCID patch mail (Andy Lutomirski, 2017). Every hop is a context switch
 * between the two address spaces, so what it costs depends on whether the CPU
 * keeps the other mm's TLB entries across the switch (PCID) or flushes them.
 *
 * What is timed (the mail does not define its "iteration"; this is ours):
 * one iteration = one round trip =
 *   parent writes eventfd A -> child wakes (switch 1), reads PAGES pages,
 *   child writes eventfd B -> parent wakes (switch 2), reads PAGES pages.
 * The parent times ITERS iterations with CLOCK_MONOTONIC and prints the
 * average in us per iteration. A warm-up of ITERS/10 iterations (at least
 * 100) runs before the first timed run so both sides have faulted their pages.
 *
 * With -p 512 each side reads one byte of each of 512 never-written private
 * anonymous pages. Reads of untouched anonymous memory map the shared zero
 * page, so all 512 translations point at the same physical page (no cache
 * misses, as in the mail: "all zero-page to minimize cache misses") but each
 * still needs its own TLB entry.
 */
#include "common.h"

#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CPUS 1024

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [-n ITERS] [-p PAGES] [-r RUNS] [-c CPU_INDEX]\n"
		"  -n ITERS      round trips per timed run (default 100000)\n"
		"  -p PAGES      pages each side reads per iteration (default 0; the mail uses 512)\n"
		"  -r RUNS       timed runs (default 5)\n"
		"  -c CPU_INDEX  index into the usable CPU list of the CPU both sides share\n"
		"                (default 0)\n"
		"Prints one line per run: 'Run N: Total time T us, Avg round trip L us/iter'.\n",
		kit_prog);
}

static void signal_fd(int fd)
{
	uint64_t one = 1;

	if (write(fd, &one, sizeof(one)) != sizeof(one)) {
		perror("eventfd write");
		exit(1);
	}
}

static void wait_fd(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v)) {
		perror("eventfd read");
		exit(1);
	}
}

/* volatile so the compiler cannot drop reads whose values are never used. */
static void touch_pages(volatile const char *mem, long pages, long page)
{
	for (long i = 0; i < pages; i++)
		(void)mem[i * page];
}

int main(int argc, char **argv)
{
	long iters = 100000, pages = 0, runs = 5, cpu_index = 0;
	int cpus[MAX_CPUS], ncpus, opt, ping, pong;
	long page = sysconf(_SC_PAGESIZE);
	volatile const char *mem = NULL;
	pid_t child;

	kit_prog = argv[0];
	kit_usage = usage;
	while ((opt = getopt(argc, argv, "n:p:r:c:h")) != -1) {
		switch (opt) {
		case 'n': iters = kit_parse_long("n", optarg, 1, 1000000000L); break;
		case 'p': pages = kit_parse_long("p", optarg, 0, 1L << 20); break;
		case 'r': runs = kit_parse_long("r", optarg, 1, 1000); break;
		case 'c': cpu_index = kit_parse_long("c", optarg, 0, MAX_CPUS - 1); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc)
		kit_usage_error("unexpected argument '%s'", argv[optind]);
	ncpus = kit_allowed_cpus(cpus, MAX_CPUS);
	if (cpu_index >= ncpus)
		kit_usage_error("-c %ld but only %d CPU(s) are usable", cpu_index, ncpus);

	/* Pin before fork: the child inherits the mask, so both share one CPU. */
	kit_pin_self(cpus[cpu_index]);

	if (pages) {
		mem = mmap(NULL, pages * page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		/* A huge zero page would cover all 512 pages with one TLB entry. */
		madvise((void *)mem, pages * page, MADV_NOHUGEPAGE);
	}
	ping = eventfd(0, 0);
	pong = eventfd(0, 0);
	if (ping < 0 || pong < 0) {
		perror("eventfd");
		return 1;
	}

	long warmup = iters / 10 > 100 ? iters / 10 : 100;
	long total = warmup + runs * iters;

	fflush(stdout);
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (child == 0) {
		/* Exactly as many replies as the parent will ask for, then exit. */
		for (long i = 0; i < total; i++) {
			wait_fd(ping);
			touch_pages(mem, pages, page);
			signal_fd(pong);
		}
		_exit(0);
	}

	for (long i = 0; i < warmup; i++) {
		signal_fd(ping);
		wait_fd(pong);
		touch_pages(mem, pages, page);
	}
	printf("# pcid_pingpong iters=%ld pages=%ld runs=%ld cpu=%d warmup=%ld\n", iters, pages,
	       runs, cpus[cpu_index], warmup);
	for (long r = 0; r < runs; r++) {
		double start = kit_now_us();

		for (long i = 0; i < iters; i++) {
			signal_fd(ping);
			wait_fd(pong);
			touch_pages(mem, pages, page);
		}
		double duration = kit_now_us() - start;
		printf("Run %ld: Total time %.2f us, Avg round trip %.4f us/iter\n", r + 1, duration,
		       duration / iters);
		fflush(stdout);
	}

	int status;
	if (waitpid(child, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "%s: child did not exit cleanly\n", kit_prog);
		return 1;
	}
	return 0;
}
