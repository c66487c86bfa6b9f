/*
 * madvise-touch: the microbenchmark of commit 3db6d5a5ecaf as re-run in the
 * 2026 "Move flush_tlb_info back to the stack" mails (v4 and v7).
 *
 * One op = write one byte of a private anonymous page, then
 * madvise(MADV_DONTNEED) it. The write faults a fresh page in; the madvise
 * zaps it, which needs a TLB flush of that address on every CPU that may cache
 * it. Busy-looping threads of the same mm, each pinned to its own CPU, keep
 * the mm live (not lazy) on B other CPUs, so every op sends flush IPIs to B
 * CPUs and waits for them: that wait is the shootdown cost we time.
 *
 * Differences from the mail's program, on purpose: flags instead of #defines,
 * explicit pinning (the mail says "threads were bound to specific CPUs" but
 * the listing does not show how), CLOCK_MONOTONIC instead of gettimeofday(),
 * and the timed loop starts only once every busy thread runs on its CPU.
 *
 * With -k the busy threads print long lines to the kernel console through
 * /dev/kmsg instead of spinning: a legacy console driver (the 8250 serial one)
 * writes each line with interrupts off, so a flush IPI sent to that CPU waits
 * until the line is out. That is the "target had interrupts off" case of a
 * slow shootdown, made on purpose so a recording of it can be checked.
 */
#include "common.h"

#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_CPUS 1024

static atomic_int stop_threads;
static atomic_int threads_ready;
static int kmsg_fd = -1;

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [-n OPS] [-b BUSY_THREADS] [-r RUNS] [-p PAGES] [-k]\n"
		"  -n OPS           touch + MADV_DONTNEED operations per run (default 1000000)\n"
		"  -b BUSY_THREADS  busy-looping threads of the same mm, one per extra CPU\n"
		"                   (default 3; clamped to usable CPUs - 1)\n"
		"  -r RUNS          timed runs (default 5)\n"
		"  -p PAGES         pages each op writes and discards (default 1, as in the mail;\n"
		"                   at most 33, the kernel's ceiling for a flush page by page)\n"
		"  -k               busy threads print to the kernel console (/dev/kmsg, as\n"
		"                   root, with printk_devkmsg=on) instead of spinning; a\n"
		"                   serial console writes with interrupts off\n"
		"Prints one line per run: 'Run N: Total time T us, Avg latency L us/op'.\n",
		kit_prog);
}

static void *busy_wait_thread(void *arg)
{
	kit_pin_self(*(int *)arg);
	atomic_fetch_add(&threads_ready, 1);
	while (!atomic_load_explicit(&stop_threads, memory_order_relaxed))
		__asm__ volatile("nop");
	return NULL;
}

/* A line long enough that the console driver keeps interrupts off for milliseconds. */
static void *console_thread(void *arg)
{
	char line[900];

	kit_pin_self(*(int *)arg);
	memset(line, '.', sizeof(line));
	int head = snprintf(line, sizeof(line), "<3>madvise_touch -k: CPU %d holds the console ",
			    *(int *)arg);
	line[head] = '.';
	line[sizeof(line) - 1] = '\n';
	atomic_fetch_add(&threads_ready, 1);
	while (!atomic_load_explicit(&stop_threads, memory_order_relaxed)) {
		if (write(kmsg_fd, line, sizeof(line)) < 0) {
			perror("write /dev/kmsg");
			break;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long ops = 1000000, busy = 3, runs = 5, pages = 1;
	int console = 0;
	int cpus[MAX_CPUS], ncpus, opt;
	pthread_t threads[MAX_CPUS];
	long page = sysconf(_SC_PAGESIZE);
	volatile char *addr;

	kit_prog = argv[0];
	kit_usage = usage;
	while ((opt = getopt(argc, argv, "n:b:r:p:kh")) != -1) {
		switch (opt) {
		case 'n': ops = kit_parse_long("n", optarg, 1, 1000000000L); break;
		case 'b': busy = kit_parse_long("b", optarg, 0, MAX_CPUS - 1); break;
		case 'k': console = 1; break;
		case 'p': pages = kit_parse_long("p", optarg, 1, 33); break;
		case 'r': runs = kit_parse_long("r", optarg, 1, 1000); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc)
		kit_usage_error("unexpected argument '%s'", argv[optind]);

	/*
	 * Two threads sharing a CPU would not need an IPI between them, so the
	 * benchmark would silently measure something else: clamp instead.
	 */
	ncpus = kit_allowed_cpus(cpus, MAX_CPUS);
	if (busy > ncpus - 1) {
		fprintf(stderr,
			"%s: asked for %ld busy threads but only %d CPU(s) are usable; "
			"using %d (each busy thread needs its own CPU besides the main one)\n",
			kit_prog, busy, ncpus, ncpus - 1);
		busy = ncpus - 1;
	}

	kit_pin_self(cpus[0]);
	addr = mmap(NULL, page * pages, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (addr == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (console) {
		kmsg_fd = open("/dev/kmsg", O_WRONLY);
		if (kmsg_fd < 0) {
			perror("-k: open /dev/kmsg (needs root)");
			return 1;
		}
	}
	for (long i = 0; i < busy; i++) {
		if (pthread_create(&threads[i], NULL, console ? console_thread : busy_wait_thread,
				   &cpus[i + 1])) {
			fprintf(stderr, "%s: pthread_create failed\n", kit_prog);
			return 1;
		}
	}
	while (atomic_load(&threads_ready) < busy)
		sched_yield();

	printf("# madvise_touch ops=%ld busy_threads=%ld runs=%ld main_cpu=%d pages=%ld%s\n", ops,
	       busy, runs, cpus[0], pages, console ? " console=1" : "");
	for (long r = 0; r < runs; r++) {
		double start = kit_now_us();

		for (long i = 0; i < ops; i++) {
			for (long p = 0; p < pages; p++)
				addr[p * page] = 1;
			if (madvise((void *)addr, page * pages, MADV_DONTNEED)) {
				perror("madvise");
				return 1;
			}
		}
		double duration = kit_now_us() - start;
		printf("Run %ld: Total time %.2f us, Avg latency %.4f us/op\n", r + 1, duration,
		       duration / ops);
		fflush(stdout);
	}

	atomic_store(&stop_threads, 1);
	for (long i = 0; i < busy; i++)
		pthread_join(threads[i], NULL);
	munmap((void *)addr, page * pages);
	return 0;
}
