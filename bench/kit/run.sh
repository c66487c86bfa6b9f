#!/usr/bin/env bash
# Builds the kit, runs each benchmark RUNS times and writes tidy CSV rows in the
# schema of content/datasets/README.md, plus a sources.json-shaped provenance
# entry. Only bash, awk, make and a C compiler are needed, so the kit can be
# copied to any Linux box (bare metal is what makes the numbers interesting).
#
#   bash bench/kit/run.sh [OUT.csv]
#
# Without OUT the CSV goes to stdout and the provenance JSON to stderr; with OUT
# the provenance goes to OUT.source.json. Knobs (environment): OPS, BUSY, ITERS,
# PAGES, RUNS, TLB_OPS; the C programs validate them. ONLY=madvise,pcid,tlb_flush
# picks benchmark groups (default all); TAG=name appends -name to the source id, so
# a second dataset from the same machine gets its own provenance entry.
set -euo pipefail

usage() { echo "usage: bash bench/kit/run.sh [OUT.csv]   (env: OPS BUSY ITERS PAGES RUNS TLB_OPS ONLY TAG)" >&2; }
if [[ ${1:-} == -h || ${1:-} == --help ]]; then usage 2>&1; exit 0; fi
if [[ $# -gt 1 ]]; then usage; exit 2; fi
OUT=${1:-}

KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OPS=${OPS:-200000}   # madvise-touch ops per run (the mail: 1000000; smaller keeps a VM run short)
BUSY=${BUSY:-3}      # busy threads as in the mail; the program clamps to CPUs - 1
ITERS=${ITERS:-100000}
PAGES=${PAGES:-512}
RUNS=${RUNS:-5}
TLB_OPS=${TLB_OPS:-20000} # tlb_flush ops per worker per run
ONLY=${ONLY:-madvise,pcid,tlb_flush}
TAG=${TAG:-}
want() { [[ ",$ONLY," == *",$1,"* ]]; }
for g in ${ONLY//,/ }; do
	case $g in madvise | pcid | tlb_flush) ;; *) echo "run.sh: ONLY: unknown group '$g' (madvise, pcid, tlb_flush)" >&2; exit 2 ;; esac
done

log() { echo "run.sh: $*" >&2; }

make -s -C "$KIT" >&2

# ---- the machine ---------------------------------------------------------
model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
[[ -n $model ]] || model=$(awk -F': *' '/^(Hardware|CPU part)/ { print $2; exit }' /proc/cpuinfo)
[[ -n $model ]] || model=unknown-cpu
ncpu=$(nproc)
kernel=$(uname -r)
case $(uname -m) in x86_64 | i?86) arch=x86 ;; aarch64 | arm64) arch=arm64 ;; *) arch=$(uname -m) ;; esac
slug=$(printf '%s' "$model" | tr 'A-Z' 'a-z' | sed -e 's/(r)//g' -e 's/(tm)//g' -e 's/cpu @.*//' \
	-e 's/[^a-z0-9]\{1,\}/-/g' -e 's/^-//' -e 's/-$//')
machine="local-$slug-$ncpu"
source_id=$machine${TAG:+-$TAG}
today=$(date -u +%Y-%m-%d)
# Variant values must not break the CSV or the ';'-joined key=value list.
kernel_v=$(printf '%s' "$kernel" | tr ',;=' '___')
flags=$(awk -F': *' '/^flags/ { print $2; exit }' /proc/cpuinfo)
has_flag() { [[ " $flags " == *" $1 "* ]] && echo yes || echo no; }
mitigations=$(cd /sys/devices/system/cpu/vulnerabilities 2>/dev/null &&
	for f in *; do printf '%s: %s; ' "$f" "$(cat "$f")"; done || true)
mitigations=${mitigations%; }

# ---- perf (optional) ------------------------------------------------------
# The PCID mail counted dtlb_load_misses.miss_causes_a_walk; VMs often expose no PMU.
perf_event=
if command -v perf >/dev/null; then
	for ev in dtlb_load_misses.miss_causes_a_walk dTLB-load-misses; do
		v=$(perf stat -x, -e "$ev" -- true 2>&1 >/dev/null | awk -F, 'NF > 2 { print $1; exit }' || true)
		if [[ $v =~ ^[0-9]+$ ]]; then perf_event=$ev; break; fi
	done
fi
if [[ -n $perf_event ]]; then
	perf_note="dTLB misses counted with perf stat -e $perf_event (both processes, warm-up included)"
else
	perf_note="perf cannot count dTLB misses here (not installed, or event <not supported>, typical in a VM); dtlb_misses rows skipped"
fi
log "$perf_note"

# ---- running and summarising ----------------------------------------------
rows=()
raw_json=()

# summarise BENCH VARIANT FILE: turns the "Run N: ... L us/..." lines into a
# mean row (sample stddev, n-1) and a best-of row (the lutomirski-2017-x86-pcid statistic).
summarise() {
	local bench=$1 variant=$2 file=$3 stats
	stats=$(awk '/^Run [0-9]+:/ { v[++n] = $(NF - 1) }
		END {
			if (n == 0) exit 1
			for (i = 1; i <= n; i++) { s += v[i]; if (i == 1 || v[i] < m) m = v[i]; all = all (i > 1 ? "," : "") v[i] }
			mean = s / n
			for (i = 1; i <= n; i++) ss += (v[i] - mean) ^ 2
			sd = n > 1 ? sqrt(ss / (n - 1)) : 0
			printf "%.4f %.4f %.4f %d %s\n", mean, sd, m, n, all
		}' "$file") || { log "no 'Run N:' lines from $bench"; exit 1; }
	read -r mean sd best n all <<<"$stats"
	rows+=("$arch,$machine,$ncpu,$bench,$variant,op_latency,$mean,us,$sd,$n,$source_id")
	rows+=("$arch,$machine,$ncpu,$bench,$variant,op_latency_best,$best,us,,$n,$source_id")
	raw_json+=("\"$bench;$variant\": [$all]")
}

# Other load on the box (a build, the host) shows up as noise: record how idle
# the CPUs were just before the run (loadavg lags by minutes, so sample /proc/stat).
cpu_ticks() { awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
read -r idle0 total0 < <(cpu_ticks)
sleep 2
read -r idle1 total1 < <(cpu_ticks)
loadavg=$(cut -d" " -f1-3 /proc/loadavg)
idle_before=$(( 100 * (idle1 - idle0) / (total1 - total0 > 0 ? total1 - total0 : 1) ))
log "CPUs were ${idle_before}% idle in the 2 s before the run"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

want madvise && for b in 0 "$BUSY"; do
	log "madvise-touch: $OPS ops x $RUNS runs, $b busy thread(s) requested"
	"$KIT/madvise_touch" -n "$OPS" -b "$b" -r "$RUNS" >"$tmp/mt"
	eff=$(sed -n 's/^# madvise_touch .*busy_threads=\([0-9]*\).*/\1/p' "$tmp/mt")
	# With 1 CPU the requested-BUSY run repeats the 0 run: keep one.
	if [[ $b != 0 && $eff == 0 ]]; then continue; fi
	summarise madvise-touch "kernel=$kernel_v;busy_threads=$eff" "$tmp/mt"
done

want pcid && for p in 0 "$PAGES"; do
	bench=pcid-pingpong
	[[ $p == 0 ]] || bench=pcid-pingpong-$p
	log "$bench: $ITERS round trips x $RUNS runs, $p page(s) per side"
	cmd=("$KIT/pcid_pingpong" -n "$ITERS" -p "$p" -r "$RUNS")
	if [[ -n $perf_event ]]; then
		perf stat -x, -e "$perf_event" -o "$tmp/perf" -- "${cmd[@]}" >"$tmp/pp"
		misses=$(awk -F, '$1 ~ /^[0-9]+$/ { print $1; exit }' "$tmp/perf")
		[[ -z $misses ]] || rows+=("$arch,$machine,$ncpu,$bench,kernel=$kernel_v,dtlb_misses,$misses,count,,1,$source_id")
	else
		"${cmd[@]}" >"$tmp/pp"
	fi
	summarise "$bench" "kernel=$kernel_v" "$tmp/pp"
done

# will-it-scale's tlb_flush1 (file) and tlb_flush2 (anon): 1, 2, 4, ... workers up
# to the CPUs, in threads mode (one mm: flushes IPI the others) and processes mode.
tlb_workers=()
for ((w = 1; w < ncpu; w *= 2)); do tlb_workers+=("$w"); done
tlb_workers+=("$ncpu")
if want tlb_flush; then
	for m in file anon; do
		bench=wis-tlb-flush1
		[[ $m == file ]] || bench=wis-tlb-flush2
		for w in "${tlb_workers[@]}"; do
			for pm in off on; do
				log "$bench: $TLB_OPS ops x $RUNS runs, $w worker(s), processes=$pm"
				flag=()
				[[ $pm == off ]] || flag=(-P)
				"$KIT/tlb_flush" -m "$m" -t "$w" "${flag[@]}" -n "$TLB_OPS" -r "$RUNS" >"$tmp/tf"
				summarise "$bench" "kernel=$kernel_v;threads=$w;processes=$pm" "$tmp/tf"
			done
		done
	done
fi

# ---- output ---------------------------------------------------------------
json_str() { printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"; }
vm=$([[ $(has_flag hypervisor) == yes ]] && echo "a virtual machine guest (cpuinfo flag 'hypervisor')" || echo "no 'hypervisor' cpuinfo flag")
machine_desc="$model, $ncpu CPUs (nproc), $vm; cpuinfo flags pcid=$(has_flag pcid) invpcid=$(has_flag invpcid)"
conditions="benchmark groups: $ONLY; madvise-touch: $OPS ops per run, main thread and each busy thread pinned to distinct CPUs with sched_setaffinity; pcid-pingpong: $ITERS round trips per run, both processes pinned to one CPU, $PAGES zero-page reads per side per iteration in the -$PAGES variant; wis-tlb-flush1/2 (bench/kit/tlb_flush.c -m file/anon): $TLB_OPS ops (write, MADV_DONTNEED, read back one page) per worker per run, workers ${tlb_workers[*]} each pinned to its own CPU, as threads of one process (processes=off) or as processes (processes=on), latency = mean over workers of elapsed / ops; $perf_note; CPU idle in the 2 s before the run: ${idle_before}%; load average (1, 5, 15 min) before the run: $loadavg; mitigations (sysfs vulnerabilities): $mitigations"
# The raw per-run values make every mean/stddev in the CSV re-computable.
raw=$(IFS=,; printf '%s' "${raw_json[*]}")
provenance=$(
	cat <<EOF
{
  "$source_id": {
    "kind": "local",
    "excerpt_file": null,
    "title": $(json_str "tlbscope bench kit (bench/kit/run.sh) measured on $model"),
    "mail": null,
    "author": "bench/kit/run.sh",
    "date": "$today",
    "machine": $(json_str "$machine_desc"),
    "kernel_baseline": $(json_str "$kernel"),
    "conditions": $(json_str "$conditions"),
    "runs": $RUNS,
    "notes": "Measured by the kit, not taken from a mail. op_latency = mean over runs with sample stddev (n-1); op_latency_best = fastest run. The kernel cannot be switched here, so variants name the running kernel instead of a design choice.",
    "raw_runs_us": {$raw}
  }
}
EOF
)

header=arch,machine,cpus,benchmark,variant,metric,value,unit,stddev,runs,source
if [[ -n $OUT ]]; then
	printf '%s\n' "$header" "${rows[@]}" >"$OUT"
	printf '%s\n' "$provenance" >"$OUT.source.json"
	log "wrote $OUT (${#rows[@]} rows) and $OUT.source.json"
else
	printf '%s\n' "$header" "${rows[@]}"
	printf '%s\n' "$provenance" >&2
fi
