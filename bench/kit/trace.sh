#!/usr/bin/env bash
# Records the kernel's TLB-shootdown tracepoints while the kit's benchmarks run, as text that
# `tlbscope import` and the site's explorer read. Uses tracefs directly (a private instance,
# so the global trace buffer is left alone); trace-cmd and perf are used only when asked for.
#
#   bash bench/kit/trace.sh [OUT.trace]
#
# Writes OUT.trace (default tlbscope.trace) and OUT.trace.source.json (machine, kernel,
# command, date). Knobs (environment):
#   TRACER=tracefs|trace-cmd|perf   tracefs: the instance's `trace` file (default);
#                                   trace-cmd: the same buffer through `trace-cmd extract` + `report`;
#                                   perf: `perf record -a` + `perf script --ns`
#   LATENCY=1       tracefs only: write the latency format (flags column, relative µs times)
#   BENCH=madvise-touch|pcid-pingpong|both (default madvise-touch)
#   OPS BUSY ITERS PAGES  as in run.sh, but small by default: a trace grows by ~4 lines per op
#   BUFFER_KB       per-CPU ring buffer size (default 8192); older events are overwritten
#   FIFO=1          run the benchmarks as SCHED_FIFO priority 1 (chrt), so that other load on a
#                   busy machine does not preempt their threads (the kernel's RT throttling
#                   still leaves other tasks 5% of each CPU)
#   CONSOLE=1       madvise-touch's busy threads print long lines to the kernel console (its -k)
#                   instead of spinning: a serial console writes with interrupts off, so the
#                   shootdowns aimed at those CPUs wait. Sets printk_devkmsg to "on" for the
#                   run (restored after) and fills the kernel log; needs a console in
#                   /proc/consoles
#   MADV_PAGES="1 8 32"  madvise-touch's pages per op (its -p), one run per value: flushes of
#                   several sizes, from which fit-recording estimates the cost per page
set -euo pipefail

usage() { echo "usage: bash bench/kit/trace.sh [OUT.trace]   (env: TRACER LATENCY BENCH OPS BUSY ITERS PAGES MADV_PAGES CONSOLE BUFFER_KB)" >&2; }
if [[ ${1:-} == -h || ${1:-} == --help ]]; then usage 2>&1; exit 0; fi
if [[ $# -gt 1 ]]; then usage; exit 2; fi
OUT=${1:-tlbscope.trace}

KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TRACER=${TRACER:-tracefs}
LATENCY=${LATENCY:-0}
BENCH=${BENCH:-madvise-touch}
OPS=${OPS:-2000}
BUSY=${BUSY:-1}
ITERS=${ITERS:-2000}
PAGES=${PAGES:-0}
BUFFER_KB=${BUFFER_KB:-8192}
FIFO=${FIFO:-0}
CONSOLE=${CONSOLE:-0}
MADV_PAGES=${MADV_PAGES:-1}

log() { echo "trace.sh: $*" >&2; }
die() { echo "trace.sh: $*" >&2; exit 1; }

case $TRACER in tracefs | trace-cmd | perf) ;; *) die "TRACER must be tracefs, trace-cmd or perf, got '$TRACER'" ;; esac
case $BENCH in madvise-touch | pcid-pingpong | both) ;; *) die "BENCH must be madvise-touch, pcid-pingpong or both, got '$BENCH'" ;; esac

# What a shootdown leaves in the trace: the flush with its reason and page count, the IPI
# send, the csd queued for the target (pairs sender and handler by csd address), the handler
# on the target (call_function*_entry/exit on x86, ipi_entry/exit on arm64) and who ran.
# x86's timer interrupt (local_timer_entry) is there as a witness: a tick that comes late,
# just after a late IPI, says the CPU had interrupts off for both.
EVENTS=(
	tlb/tlb_flush
	ipi/ipi_send_cpu ipi/ipi_send_cpumask ipi/ipi_entry ipi/ipi_exit
	csd/csd_queue_cpu csd/csd_function_entry csd/csd_function_exit
	irq_vectors/call_function_entry irq_vectors/call_function_exit
	irq_vectors/call_function_single_entry irq_vectors/call_function_single_exit
	irq_vectors/local_timer_entry
	sched/sched_switch
)
# The syscalls the benchmarks flush from (x86-64 numbers: madvise 28, munmap 11), so that
# fit-recording can time the syscall path around a shootdown; filtered in the kernel, or every
# syscall of every process would be in the trace.
declare -A FILTERS=()
if [[ $(uname -m) == x86_64 ]]; then
	EVENTS+=(raw_syscalls/sys_enter raw_syscalls/sys_exit)
	FILTERS[raw_syscalls/sys_enter]='id == 28 || id == 11'
	FILTERS[raw_syscalls/sys_exit]='id == 28 || id == 11'
fi

# ---- tracefs: where, and whether we may use it -----------------------------
TRACEFS=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	if [[ -e $d/events ]]; then TRACEFS=$d; break; fi
done
if [[ -z $TRACEFS ]]; then
	if [[ $(id -u) != 0 ]]; then
		die "tracefs is not mounted, or not readable by $(id -un); as root: mount -t tracefs nodev /sys/kernel/tracing, then run this again as root"
	fi
	die "tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing (needs CONFIG_FTRACE)"
fi
if [[ ! -w $TRACEFS/instances ]]; then
	die "tracefs at $TRACEFS is not writable by $(id -un): recording needs root (or CAP_SYS_ADMIN and write access to $TRACEFS)"
fi
[[ -e $TRACEFS/events/tlb/tlb_flush ]] ||
	die "this kernel has no tlb:tlb_flush tracepoint ($TRACEFS/events/tlb/tlb_flush is missing; arm64 kernels do not define it, x86 ones do)"

make -s -C "$KIT" >&2

# ---- the workload ----------------------------------------------------------
commands=()
prefix=
if [[ $FIFO == 1 ]]; then
	command -v chrt >/dev/null || die "FIFO=1 needs chrt (util-linux)"
	prefix="chrt -f 1 "
fi
console_flag=
devkmsg_before=
if [[ $CONSOLE == 1 ]]; then
	[[ $BENCH != pcid-pingpong ]] || die "CONSOLE=1 acts on madvise-touch's busy threads; BENCH is pcid-pingpong"
	grep -q . /proc/consoles 2>/dev/null || die "CONSOLE=1 needs a kernel console, and /proc/consoles lists none"
	[[ -w /proc/sys/kernel/printk_devkmsg ]] || die "CONSOLE=1 needs root (it sets /proc/sys/kernel/printk_devkmsg)"
	# By default the kernel rate-limits /dev/kmsg writers to a few lines; the run needs them all.
	devkmsg_before=$(cat /proc/sys/kernel/printk_devkmsg)
	console_flag=" -k"
fi
if [[ $BENCH == madvise-touch || $BENCH == both ]]; then
	for p in $MADV_PAGES; do
		[[ $p =~ ^[0-9]+$ && $p -ge 1 && $p -le 33 ]] || die "MADV_PAGES holds '$p': each must be a page count from 1 to 33"
		pages_flag=
		[[ $p == 1 ]] || pages_flag=" -p $p"
		commands+=("${prefix}$KIT/madvise_touch -n $OPS -b $BUSY -r 1$pages_flag$console_flag")
	done
fi
if [[ $BENCH == pcid-pingpong || $BENCH == both ]]; then
	commands+=("${prefix}$KIT/pcid_pingpong -n $ITERS -p $PAGES -r 1")
fi
workload() {
	local c
	for c in "${commands[@]}"; do $c >&2; done
}

tmp=$(mktemp -d)
inst=
cleanup() {
	if [[ -n $devkmsg_before ]]; then echo "$devkmsg_before" >/proc/sys/kernel/printk_devkmsg || true; fi
	if [[ -n $inst && -d $inst ]]; then
		echo 0 >"$inst/tracing_on" 2>/dev/null || true
		rmdir "$inst" 2>/dev/null || log "could not remove the tracefs instance $inst"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
[[ -z $devkmsg_before ]] || echo on >/proc/sys/kernel/printk_devkmsg

enabled=()
if [[ $TRACER == perf ]]; then
	command -v perf >/dev/null || die "TRACER=perf but perf is not installed (Debian: apt-get install linux-perf)"
	perf_args=()
	for e in "${EVENTS[@]}"; do
		if [[ -e $TRACEFS/events/$e ]]; then
			perf_args+=(-e "${e/\//:}")
			[[ -z ${FILTERS[$e]:-} ]] || perf_args+=(--filter "${FILTERS[$e]}")
			enabled+=("$e")
		fi
	done
	log "perf record -a ${perf_args[*]}"
	# perf prints harmless libtraceevent warnings about print formats it cannot evaluate.
	perf record -q -a "${perf_args[@]}" -o "$tmp/perf.data" -- bash -c "$(declare -p commands); $(declare -f workload); workload" 2>"$tmp/perf.err" ||
		die "perf record failed: $(tail -3 "$tmp/perf.err")"
	perf script --ns -i "$tmp/perf.data" >"$OUT" 2>>"$tmp/perf.err"
else
	inst=$TRACEFS/instances/tlbscope-$$
	mkdir "$inst" || die "cannot create a tracefs instance at $inst"
	# A new instance records at once; enabling tracepoints patches kernel text (with IPIs of its
	# own), which should not be in the recording.
	echo 0 >"$inst/tracing_on"
	echo "$BUFFER_KB" >"$inst/buffer_size_kb"
	for e in "${EVENTS[@]}"; do
		if [[ -e $inst/events/$e/enable ]]; then
			[[ -z ${FILTERS[$e]:-} ]] || echo "${FILTERS[$e]}" >"$inst/events/$e/filter"
			echo 1 >"$inst/events/$e/enable" && enabled+=("$e")
		fi
	done
	log "recording ${enabled[*]} in $inst"
	echo 1 >"$inst/tracing_on"
	workload
	echo 0 >"$inst/tracing_on"
	if [[ $TRACER == trace-cmd ]]; then
		command -v trace-cmd >/dev/null || die "TRACER=trace-cmd but trace-cmd is not installed"
		# `trace-cmd record` wants to write /proc/sys/kernel/ftrace_enabled, which some VMs refuse;
		# extracting the instance we filled ourselves does not.
		trace-cmd extract -B "$(basename "$inst")" -o "$tmp/trace.dat" >/dev/null 2>"$tmp/tc.err" ||
			die "trace-cmd extract failed: $(tail -3 "$tmp/tc.err")"
		trace-cmd report -i "$tmp/trace.dat" >"$OUT" 2>>"$tmp/tc.err"
	else
		[[ $LATENCY == 1 ]] && echo 1 >"$inst/options/latency-format"
		cat "$inst/trace" >"$OUT"
	fi
fi
lines=$(wc -l <"$OUT")
flushes=$(grep -c 'tlb_flush:' "$OUT" || true)
log "wrote $OUT: $lines lines, $flushes tlb_flush events"
[[ $flushes -gt 0 ]] || log "no tlb_flush events were recorded: is the workload running on this machine's CPUs?"

# ---- provenance ------------------------------------------------------------
model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
[[ -n $model ]] || model=unknown-cpu
flags=$(awk -F': *' '/^flags/ { print $2; exit }' /proc/cpuinfo)
vm=$([[ " $flags " == *" hypervisor "* ]] && echo "a virtual machine guest (cpuinfo flag 'hypervisor')" || echo "no 'hypervisor' cpuinfo flag")
json_str() { printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"; }
format=$TRACER
[[ $TRACER == tracefs && $LATENCY == 1 ]] && format="tracefs (latency-format)"
cmdline=$(IFS=';'; printf '%s' "${commands[*]//$KIT\//bench/kit/}")
cat >"$OUT.source.json" <<EOF
{
  "kind": "recording",
  "title": $(json_str "TLB shootdowns recorded by bench/kit/trace.sh"),
  "date": "$(date -u +%Y-%m-%dT%H:%MZ)",
  "machine": $(json_str "$model, $(nproc) CPUs (nproc), $vm"),
  "kernel": $(json_str "$(uname -r)"),
  "recorder": $(json_str "bench/kit/trace.sh with TRACER=$TRACER LATENCY=$LATENCY"),
  "format": $(json_str "$format"),
  "command": $(json_str "$cmdline"),
  "events": $(json_str "${enabled[*]}")
}
EOF
log "wrote $OUT.source.json"
