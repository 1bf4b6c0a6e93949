/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_format.h"
#include "bench_mix.h"

/*
 * The events that make up most of a recording with every event enabled on a busy machine, and
 * their shares (per mille, roughly). Every other format of the kernel gets a weight of one
 * twentieth, so that the long tail is about a tenth of the events, as in such recordings.
 */
static const struct {
	const char *system, *name;
	unsigned share;
} common_events[] = {
	{ "raw_syscalls", "sys_enter", 90 }, { "raw_syscalls", "sys_exit", 90 },
	{ "syscalls", "sys_enter_read", 15 }, { "syscalls", "sys_exit_read", 15 },
	{ "syscalls", "sys_enter_write", 10 }, { "syscalls", "sys_exit_write", 10 },
	{ "syscalls", "sys_enter_futex", 12 }, { "syscalls", "sys_exit_futex", 12 },
	{ "syscalls", "sys_enter_openat", 4 }, { "syscalls", "sys_exit_openat", 4 },
	{ "syscalls", "sys_enter_close", 4 }, { "syscalls", "sys_exit_close", 4 },
	{ "syscalls", "sys_enter_mmap", 3 }, { "syscalls", "sys_exit_mmap", 3 },
	{ "syscalls", "sys_enter_epoll_wait", 6 }, { "syscalls", "sys_exit_epoll_wait", 6 },
	{ "syscalls", "sys_enter_nanosleep", 3 }, { "syscalls", "sys_exit_nanosleep", 3 },
	{ "sched", "sched_switch", 60 }, { "sched", "sched_waking", 30 }, { "sched", "sched_wakeup", 30 },
	{ "sched", "sched_stat_runtime", 30 }, { "sched", "sched_migrate_task", 5 },
	{ "sched", "sched_wakeup_new", 1 }, { "sched", "sched_process_fork", 1 }, { "sched", "sched_process_exec", 1 },
	{ "sched", "sched_process_exit", 1 }, { "sched", "sched_process_free", 1 },
	{ "irq", "irq_handler_entry", 10 }, { "irq", "irq_handler_exit", 10 }, { "irq", "softirq_raise", 15 },
	{ "irq", "softirq_entry", 15 }, { "irq", "softirq_exit", 15 },
	{ "irq_vectors", "local_timer_entry", 15 }, { "irq_vectors", "local_timer_exit", 15 },
	{ "irq_vectors", "reschedule_entry", 5 }, { "irq_vectors", "reschedule_exit", 5 },
	{ "irq_vectors", "call_function_single_entry", 3 }, { "irq_vectors", "call_function_single_exit", 3 },
	{ "timer", "hrtimer_start", 15 }, { "timer", "hrtimer_cancel", 15 }, { "timer", "hrtimer_expire_entry", 15 },
	{ "timer", "hrtimer_expire_exit", 15 }, { "timer", "timer_start", 5 }, { "timer", "timer_cancel", 5 },
	{ "timer", "timer_expire_entry", 5 }, { "timer", "timer_expire_exit", 5 }, { "timer", "tick_stop", 3 },
	{ "kmem", "kmalloc", 40 }, { "kmem", "kfree", 45 }, { "kmem", "kmem_cache_alloc", 40 },
	{ "kmem", "kmem_cache_free", 40 }, { "kmem", "mm_page_alloc", 10 }, { "kmem", "mm_page_free", 10 },
	{ "kmem", "rss_stat", 15 },
	{ "mmap_lock", "mmap_lock_start_locking", 20 }, { "mmap_lock", "mmap_lock_acquire_returned", 20 },
	{ "mmap_lock", "mmap_lock_released", 20 },
	{ "exceptions", "page_fault_user", 25 }, { "exceptions", "page_fault_kernel", 5 },
	{ "workqueue", "workqueue_queue_work", 5 }, { "workqueue", "workqueue_activate_work", 5 },
	{ "workqueue", "workqueue_execute_start", 5 }, { "workqueue", "workqueue_execute_end", 5 },
	{ "rcu", "rcu_utilization", 20 }, { "lock", "contention_begin", 8 }, { "lock", "contention_end", 8 },
	{ "filemap", "mm_filemap_add_to_page_cache", 5 }, { "writeback", "writeback_dirty_folio", 2 },
	{ "ext4", "ext4_es_lookup_extent_enter", 5 }, { "ext4", "ext4_es_lookup_extent_exit", 5 },
	{ "block", "block_bio_queue", 2 }, { "block", "block_rq_issue", 2 }, { "block", "block_rq_complete", 2 },
	{ "net", "net_dev_queue", 2 }, { "net", "net_dev_xmit", 2 }, { "net", "netif_receive_skb", 2 },
	{ "skb", "consume_skb", 4 }, { "skb", "kfree_skb", 1 }, { "sock", "inet_sock_set_state", 1 },
	{ "signal", "signal_generate", 1 }, { "signal", "signal_deliver", 1 }, { "task", "task_newtask", 1 },
	{ "task", "task_rename", 1 }, { "ipi", "ipi_send_cpu", 3 }, { "tlb", "tlb_flush", 5 },
	{ "power", "cpu_idle", 15 }, { "power", "cpu_frequency", 1 },
};
#define TAIL_WEIGHT 1u
#define COMMON_UNIT 20u /* a common event's weight per share point, against the tail's 1 */

/* The tasks events come from: pid 0 (the idle task) and a pool of named ones. */
static const char *const task_names[] = {
	"systemd", "kworker/0:1", "kworker/1:2", "kworker/u4:3", "ksoftirqd/0", "ksoftirqd/1", "rcu_preempt",
	"migration/0", "jbd2/vda1-8", "sshd", "bash", "make", "cc1", "as", "ld", "python3", "containerd", "node",
	"java", "postgres", "nginx", "systemd-journal", "dbus-daemon", "cron", "rsyslogd", "git", "trace-cmd",
};
#define NTASKS 64
#define IDLE_SHARE 8 /* one event in IDLE_SHARE from the idle task */

struct template {
	uint8_t bytes[512];
	uint32_t len, pid_offset;
};

struct pending {
	bool ready;
	uint8_t bytes[512];
	struct tdw_record r;
	uint64_t rng;
};

struct bench_mix {
	struct template *templates;
	uint64_t *cumulative; /* running sum of the weights, one per template */
	uint32_t n, common;
	uint32_t pids[NTASKS];
	char cmdlines[NTASKS * 40];
	struct pending cpu[TDW_MAX_CPUS];
	uint32_t ncpus;
	struct tdw_event_source source;
};

static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned common_share(const char *system, const char *name)
{
	for (size_t i = 0; i < sizeof(common_events) / sizeof(common_events[0]); i++)
		if (strcmp(common_events[i].system, system) == 0 && strcmp(common_events[i].name, name) == 0)
			return common_events[i].share;
	return 0;
}

static void peek(void *ctx, uint32_t cpu, struct tdw_record *r)
{
	struct bench_mix *x = ctx;
	struct pending *p = &x->cpu[cpu % TDW_MAX_CPUS];
	if (!p->ready) {
		uint64_t pick = next_random(&p->rng), total = x->cumulative[x->n - 1];
		uint64_t want = pick % total;
		uint32_t lo = 0, hi = x->n - 1;
		while (lo < hi) { /* the first template whose running sum passes want */
			uint32_t mid = lo + (hi - lo) / 2;
			if (x->cumulative[mid] > want)
				hi = mid;
			else
				lo = mid + 1;
		}
		const struct template *t = &x->templates[lo];
		memcpy(p->bytes, t->bytes, t->len);
		uint32_t pid = (pick >> 40) % IDLE_SHARE == 0 ? 0 : x->pids[(pick >> 48) % NTASKS];
		for (int i = 0; i < 4; i++)
			p->bytes[t->pid_offset + i] = (uint8_t)(pid >> (8 * i));
		/* gaps from tens of nanoseconds to a few microseconds, as on a busy CPU */
		p->r = (struct tdw_record){ p->bytes, t->len, 20 + (uint32_t)((pick >> 8) % 4000) };
		p->ready = true;
	}
	*r = p->r;
}

static void take(void *ctx, uint32_t cpu)
{
	struct bench_mix *x = ctx;
	x->cpu[cpu % TDW_MAX_CPUS].ready = false;
}

static void task_pool(struct bench_mix *x)
{
	size_t at = 0, names = sizeof(task_names) / sizeof(task_names[0]);
	for (uint32_t i = 0; i < NTASKS; i++) {
		x->pids[i] = 1 + (i * 7919u) % 30000u;
		at += (size_t)snprintf(x->cmdlines + at, sizeof(x->cmdlines) - at, "%u %s\n", x->pids[i],
				       task_names[i % names]);
	}
}

struct bench_mix *bench_mix_new(const struct kmeta *m, uint32_t ncpus, uint64_t seed)
{
	struct bench_mix *x = calloc(1, sizeof(*x));
	if (!x || ncpus == 0 || ncpus > TDW_MAX_CPUS)
		goto fail;
	x->templates = calloc(m->nformats ? m->nformats : 1, sizeof(*x->templates));
	x->cumulative = calloc(m->nformats ? m->nformats : 1, sizeof(*x->cumulative));
	if (!x->templates || !x->cumulative)
		goto fail;
	task_pool(x);
	uint64_t sum = 0;
	for (size_t i = 0; i < m->nformats; i++) {
		struct bfmt f;
		if (strcmp(m->formats[i].system, "ftrace") == 0 || bfmt_parse(m->formats[i].text, &f) != 0)
			continue; /* ftrace's own records are the tracers', not events' */
		/* text fields (prev_comm, ...) hold a name of the pool, not always the pid's own */
		struct template *t = &x->templates[x->n];
		t->len = bfmt_record(&f, task_names[i % (sizeof(task_names) / sizeof(task_names[0]))], t->bytes,
				     sizeof(t->bytes));
		if (t->len == 0)
			continue;
		t->pid_offset = (uint32_t)f.pid_offset;
		unsigned share = common_share(m->formats[i].system, f.name);
		x->common += share > 0;
		sum += share ? share * COMMON_UNIT : TAIL_WEIGHT;
		x->cumulative[x->n++] = sum;
	}
	if (x->n == 0)
		goto fail;
	x->ncpus = ncpus;
	for (uint32_t c = 0; c < ncpus; c++)
		x->cpu[c].rng = seed + c;
	x->source = (struct tdw_event_source){ peek, take, x };
	return x;
fail:
	bench_mix_free(x);
	return NULL;
}

const struct tdw_event_source *bench_mix_source(struct bench_mix *x)
{
	return &x->source;
}

const char *bench_mix_cmdlines(const struct bench_mix *x)
{
	return x->cmdlines;
}

uint32_t bench_mix_formats(const struct bench_mix *x, uint32_t *common)
{
	if (common)
		*common = x->common;
	return x->n;
}

void bench_mix_free(struct bench_mix *x)
{
	if (!x)
		return;
	free(x->templates);
	free(x->cumulative);
	free(x);
}
