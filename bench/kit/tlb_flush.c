/*
 * tlb_flush: will-it-scale's tlb_flush1 and tlb_flush2 loops, written for the kit
 * (written from a description of what those tests do, not from their code).
 *
 * Every worker maps its own region and walks it a page at a time: write one byte,
 * madvise(MADV_DONTNEED) the page, read it back and check it reads 0. One such
 * page is one op. At the end of the region the worker unmaps it and maps a fresh
 * one, as will-it-scale does.
 *   -m anon  tlb_flush2: a 1 MiB private anonymous region. The read-back maps
 *            the zero page, so every write after the first is a copy-on-write
 *            fault that replaces (and flushes) the zero-page entry.
 *   -m file  tlb_flush1: a 128 MiB private mapping of an unlinked temporary file
 *            of zeroes. The read-back maps the page-cache page; the next write
 *            copies it.
 * Workers are threads of one process by default (every flush must reach the
 * other workers' CPUs), or separate processes with -P (no flush leaves its CPU).
 * Each worker is pinned to its own CPU.
 *
 * Each run: every worker does OPS ops; a worker's latency is its own elapsed
 * time / OPS, and the run prints the mean over workers:
 *   Run N: Total time T us, Avg latency L us/op
 */
#include "common.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_WORKERS 1024
#define ANON_BYTES (1UL << 20)
#define FILE_BYTES (128UL << 20)

struct shared {
	atomic_int ready;
	atomic_int go;
	double elapsed_us[MAX_WORKERS];
};

static long ops = 100000;
static int file_mode;
static int file_fd = -1;
static long page;
static struct shared *sh;
static int cpus[MAX_WORKERS];

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [-m anon|file] [-t WORKERS] [-P] [-n OPS] [-r RUNS]\n"
		"  -m anon|file  tlb_flush2 (anonymous, default) or tlb_flush1 (private file mapping)\n"
		"  -t WORKERS    workers, one per usable CPU (default 1; clamped to usable CPUs)\n"
		"  -P            workers are processes (will-it-scale's processes mode), not threads\n"
		"  -n OPS        pages written, discarded and read back per worker per run (default 100000)\n"
		"  -r RUNS       timed runs (default 5)\n"
		"Prints one line per run: 'Run N: Total time T us, Avg latency L us/op'.\n",
		kit_prog);
}

static char *map_region(size_t bytes)
{
	char *p = file_mode
		? mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, file_fd, 0)
		: mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

/* One worker's timed ops; returns its elapsed time in us. */
static double worker_run(void)
{
	size_t bytes = file_mode ? FILE_BYTES : ANON_BYTES;
	char *addr = map_region(bytes);
	size_t off = 0;
	double start = kit_now_us();

	for (long i = 0; i < ops; i++) {
		volatile char *p = addr + off;

		*p = 1;
		if (madvise((void *)p, page, MADV_DONTNEED)) {
			perror("madvise");
			exit(1);
		}
		if (*p != 0) {
			fprintf(stderr, "%s: page reads %d after MADV_DONTNEED\n", kit_prog, *p);
			exit(1);
		}
		off += page;
		if (off == bytes) {
			munmap(addr, bytes);
			addr = map_region(bytes);
			off = 0;
		}
	}
	double elapsed = kit_now_us() - start;
	munmap(addr, bytes);
	return elapsed;
}

/* Waits until every worker is pinned, so no worker's ops overlap a start-up. */
static void worker(int id)
{
	kit_pin_self(cpus[id]);
	atomic_fetch_add(&sh->ready, 1);
	while (!atomic_load(&sh->go))
		sched_yield(); /* the unpinned main thread must get a CPU to start the run */
	sh->elapsed_us[id] = worker_run();
}

static void *thread_main(void *arg)
{
	worker((int)(long)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	long workers = 1, runs = 5;
	int processes = 0, opt, ncpus;
	char tmpl[] = "/tmp/tlbscope-tlb_flush.XXXXXX";

	kit_prog = argv[0];
	kit_usage = usage;
	page = sysconf(_SC_PAGESIZE);
	while ((opt = getopt(argc, argv, "m:t:Pn:r:h")) != -1) {
		switch (opt) {
		case 'm':
			if (strcmp(optarg, "anon") && strcmp(optarg, "file"))
				kit_usage_error("invalid value '%s' for -m (expected anon or file)", optarg);
			file_mode = !strcmp(optarg, "file");
			break;
		case 't': workers = kit_parse_long("t", optarg, 1, MAX_WORKERS); break;
		case 'P': processes = 1; break;
		case 'n': ops = kit_parse_long("n", optarg, 1, 1000000000L); break;
		case 'r': runs = kit_parse_long("r", optarg, 1, 1000); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc)
		kit_usage_error("unexpected argument '%s'", argv[optind]);

	/* Two workers on one CPU would not need an IPI between them: clamp instead. */
	ncpus = kit_allowed_cpus(cpus, MAX_WORKERS);
	if (workers > ncpus) {
		fprintf(stderr, "%s: asked for %ld workers but only %d CPU(s) are usable; using %d\n",
			kit_prog, workers, ncpus, ncpus);
		workers = ncpus;
	}
	if (file_mode) {
		file_fd = mkstemp(tmpl);
		if (file_fd < 0 || ftruncate(file_fd, FILE_BYTES)) {
			perror("temporary file");
			return 1;
		}
		unlink(tmpl);
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 1;
	}

	printf("# tlb_flush mode=%s workers=%ld processes=%d ops=%ld runs=%ld\n",
	       file_mode ? "file" : "anon", workers, processes, ops, runs);
	for (long r = 0; r < runs; r++) {
		pthread_t threads[MAX_WORKERS];
		pid_t pids[MAX_WORKERS];

		atomic_store(&sh->ready, 0);
		atomic_store(&sh->go, 0);
		for (long w = 0; w < workers; w++) {
			if (processes) {
				pids[w] = fork();
				if (pids[w] < 0) {
					perror("fork");
					return 1;
				}
				if (pids[w] == 0) {
					worker((int)w);
					_exit(0);
				}
			} else if (pthread_create(&threads[w], NULL, thread_main, (void *)w)) {
				fprintf(stderr, "%s: pthread_create failed\n", kit_prog);
				return 1;
			}
		}
		while (atomic_load(&sh->ready) < workers)
			sched_yield();
		double start = kit_now_us();
		atomic_store(&sh->go, 1);
		for (long w = 0; w < workers; w++) {
			if (processes) {
				int status;

				if (waitpid(pids[w], &status, 0) < 0 || !WIFEXITED(status) ||
				    WEXITSTATUS(status)) {
					fprintf(stderr, "%s: worker %ld failed\n", kit_prog, w);
					return 1;
				}
			} else {
				pthread_join(threads[w], NULL);
			}
		}
		double total = kit_now_us() - start, sum = 0;

		for (long w = 0; w < workers; w++)
			sum += sh->elapsed_us[w] / ops;
		printf("Run %ld: Total time %.2f us, Avg latency %.4f us/op\n", r + 1, total,
		       sum / workers);
		fflush(stdout);
	}
	return 0;
}
