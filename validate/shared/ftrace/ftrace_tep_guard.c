/* SPDX-License-Identifier: MIT */
/*
 * libtraceevent on a leash. Formats that passed our grammar are parsed by libtraceevent (the
 * parser trace-cmd and perf use) in a child process: a crash or a hang there becomes a finding
 * about the format being parsed, and checking goes on with the next one in a new child.
 * libtraceevent gets bounded, NUL-terminated copies only. The first child is started before
 * the page walk (td_parse_ahead) and runs beside it on another core; its answers are collected
 * where they always were, so the findings and their order do not depend on that. The fuzz
 * harnesses ask the same questions (ftrace_tep.c) in their own process instead
 * (ftrace_tep_inproc.c); only the process boundary differs.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <traceevent/event-parse.h>

#include "format_memo.h"
#include "sandbox.h"
#include "test_hooks.h"
#include "ftrace.h"
#include "ftrace_tep.h"

/* The libtraceevent this build links (pkg-config's word at build time; it has no call that says). */
#ifdef TFK_TRACEEVENT_VERSION
#define TEP_VERSION TFK_TRACEEVENT_VERSION
#else
#define TEP_VERSION "(version unknown)"
#endif

#define MAX_CHILDREN 32            /* crashes tolerated before the rest is left unparsed */
#define MAX_KEPT_TEXT (64u << 20)  /* formats of a real kernel are a few MiB */
/* Starting libtraceevent (allocating its handle, loading plugins) is not parsing a format: it
 * gets a deadline of its own, so that a slow start (a loaded machine, Valgrind) is never taken
 * for a hang in the first format. */
#define SETUP_MS 30000u
#define READY 'r'                  /* the child's first byte: set up, parsing begins */
/* The child's leash (sandbox.h): CPU seconds for all its formats (the per-format deadline, kept
 * by the parent, is the child's CPU time too: see collect), and memory on top of what it inherited. */
#define CHILD_CPU_SECONDS 120u
#define CHILD_EXTRA_MEMORY (1ull << 30)

void td_keep_format(struct td_check *td, const struct tfk_cursor *text, const char *system, const char *name)
{
	const uint8_t *p;
	if (td->ctx->limits->parser_timeout_ms == 0 || !tfk_cur_bytes_at(text, 0, text->len, &p))
		return;
	if (text->len > MAX_KEPT_TEXT - td->fmt_text_len)
		return; /* past the cap the remaining formats are checked by our grammar only */
	void *arr = td->fmt_text;
	if (!tfk_grow(td->ctx, &arr, &td->fmt_text_cap, td->fmt_text_len + text->len + 1, 1))
		return;
	td->fmt_text = arr;
	arr = td->fmt_refs;
	if (!tfk_grow(td->ctx, &arr, &td->fmt_refs_cap, td->nfmt_refs + 1, sizeof(struct td_fmt_ref)))
		return;
	td->fmt_refs = arr;
	struct td_fmt_ref *r = &td->fmt_refs[td->nfmt_refs++];
	memset(r, 0, sizeof(*r));
	r->start = td->fmt_text_len;
	r->len = (size_t)text->len;
	memcpy(td->fmt_text + td->fmt_text_len, p, r->len);
	td->fmt_text[td->fmt_text_len + r->len] = '\0';
	td->fmt_text_len += r->len + 1;
	if (text->origin & TFK_DECODED_BIT) {
		unsigned slot = (unsigned)((text->origin & ~TFK_DECODED_BIT) >> TFK_DECODED_SLOT_SHIFT);
		r->decoded = true;
		r->decoded_offset = text->origin & TFK_DECODED_POS_MASK;
		r->offset = slot < TFK_DECODED_SLOTS ? td->ctx->decoded_at[slot] : 0;
	} else {
		r->offset = text->origin;
	}
	snprintf(r->system, sizeof(r->system), "%s", system);
	snprintf(r->name, sizeof(r->name), "%s", name);
}

static struct tfk_finding *ref_fault(struct td_check *td, enum tfk_fault_code code, const struct td_fmt_ref *r)
{
	const struct tfk_pctx pc = { .tmpl = "format %s/%s", .str = { r->system, r->name } };
	struct tfk_finding *f = tfk_raise(td->ctx, &pc, code, r->offset, r->len, NULL);
	if (f && r->decoded) {
		f->in_decoded = true;
		f->decoded_offset = r->decoded_offset;
	}
	return f;
}

/*
 * The child's progress, in memory shared with the parent: the answers are written there, not
 * sent one pipe message each (a real kernel has about 1,500 formats, and a write and a wake-up
 * per format cost more than parsing them). The pipe carries only READY and, by closing, the
 * child's end; the parent reads `done` and `at_ms` to tell how far the child got and when it last
 * made progress, so that a crash or hang is still laid on the format being parsed.
 */
struct tep_progress {
	_Atomic uint64_t done;  /* formats answered, counted from the child's first */
	_Atomic int64_t at_ms;  /* CLOCK_MONOTONIC ms of the last answer (or of READY) */
	_Atomic int64_t started_ms; /* when the child first ran: its start-up deadline counts from there */
	_Atomic int64_t at_cpu_ms;  /* the child's own CPU time at its last answer (or at READY) */
	uint8_t answer[];       /* 'o' parsed, 'e' rejected, one per format answered */
};

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* CPU time (ms) of this process (pid 0), or of the child pid as its parent sees it; -1 unknown. */
static int64_t cpu_ms(pid_t pid)
{
	clockid_t id = CLOCK_PROCESS_CPUTIME_ID;
	struct timespec ts;
	if ((pid && clock_getcpuclockid(pid, &id) != 0) || clock_gettime(id, &ts) != 0)
		return -1;
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * A child past its deadline in wall time that has not used the deadline in CPU time since its
 * last answer was starved (a page walk beside it, other jobs, a sanitizer's threads), not hung:
 * its limit is its own work. A child that uses no CPU at all and answers nothing is blocked, and
 * is given up after this many deadlines of wall time (never less than a minute).
 */
#define STARVED_WALL_FACTOR 6
#define STARVED_WALL_MIN_MS 60000

/*
 * The run's format memo (tracefsck/format_memo.h): every kept format not yet looked up is, under
 * a key of all its verdict depends on (the libtraceevent version, the handle's byte order, long
 * and page size as td_tep_open sets them, its system and its text). A format found there is
 * `known`: no child parses it, and its answer is the one libtraceevent gave before.
 */
static void memo_ask(struct td_check *td)
{
	struct tfk_format_memo *memo = td->ctx->limits->format_memo;
	if (!memo)
		return;
	const uint8_t order = td->file.big_endian ? 'B' : 'L';
	const uint32_t lsz = td->geo.commit_size ? (uint32_t)td->geo.commit_size : 8;
	const uint32_t psz = (uint32_t)td->geo.page_size;
	for (; td->memo_upto < td->nfmt_refs; td->memo_upto++) {
		struct td_fmt_ref *r = &td->fmt_refs[td->memo_upto];
		struct tfk_sip s;
		tfk_memo_key_begin(memo, &s);
		tfk_sip_update(&s, "libtraceevent tep_parse_format", 31);
		tfk_sip_update(&s, TEP_VERSION, sizeof(TEP_VERSION));
		tfk_sip_update(&s, &order, 1);
		tfk_sip_update(&s, &lsz, sizeof(lsz));
		tfk_sip_update(&s, &psz, sizeof(psz));
		tfk_sip_update(&s, r->system, strlen(r->system) + 1);
		const uint64_t len = r->len;
		tfk_sip_update(&s, &len, sizeof(len));
		tfk_sip_update(&s, td->fmt_text + r->start, r->len);
		tfk_sip_final128(&s, r->key);
		int v = tfk_memo_get(memo, r->key);
		if (v) {
			r->known = true;
			r->rejected = v != TFK_MEMO_PARSES;
		}
	}
}

/* A child's answers, remembered for the later checks of the run. */
static void memo_learn(struct td_check *td, size_t from, size_t n)
{
	struct tfk_format_memo *memo = td->ctx->limits->format_memo;
	for (size_t i = from; memo && i < from + n; i++)
		if (!td->fmt_refs[i].known && i < td->memo_upto)
			tfk_memo_put(memo, td->fmt_refs[i].key,
				     td->fmt_refs[i].rejected ? TFK_MEMO_REJECTS : TFK_MEMO_PARSES);
}

/* The first format from `from` on whose verdict the memo does not hold. */
static size_t first_unknown(const struct td_check *td, size_t from)
{
	while (from < td->nfmt_refs && td->fmt_refs[from].known)
		from++;
	return from;
}

/* The child: one READY byte once libtraceevent is set up, then formats [from, end), each answer
 * in `prog`. The per-format deadline starts at READY. */
static void child(struct td_check *td, size_t from, size_t end, struct tep_progress *prog, int out)
{
	atomic_store_explicit(&prog->started_ms, now_ms(), memory_order_release);
	/* A crash must end this process, whatever handlers the host program installed. */
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], SIG_DFL);
	/* the pipe above standard input, output and error, which the leash makes /dev/null (a
	 * caller that started with them closed has its pipe there) */
	if (out <= STDERR_FILENO && (out = fcntl(out, F_DUPFD_CLOEXEC, STDERR_FILENO + 1)) < 0)
		_exit(4);
	/* Before libtraceevent sees a byte: no descriptor but the pipe (another thread's pipes
	 * would keep that thread's parent waiting), no new privileges, limits, a syscall filter.
	 * A leash the kernel refuses means no parse: the parent then leaves the formats to our
	 * grammar and says so (a limit finding), never runs the parser unleashed. */
	if (tfk_sandbox_enter(out, CHILD_CPU_SECONDS, CHILD_EXTRA_MEMORY) == TFK_SANDBOX_FAILED)
		_exit(4);
	struct tep_handle *tep = td_tep_open(td);
	if (!tep)
		_exit(2);
	atomic_store_explicit(&prog->at_cpu_ms, cpu_ms(0), memory_order_relaxed);
	atomic_store_explicit(&prog->at_ms, now_ms(), memory_order_release);
	const char ready = READY;
	if (write(out, &ready, 1) != 1)
		_exit(3);
	const struct tfk_limits *lim = td->ctx->limits;
	for (size_t i = from; i < end; i++) {
		const struct td_fmt_ref *r = &td->fmt_refs[i];
		/* Fault injection for the tests: behave as a parser crash or hang would. */
		if (TFK_HOOK(lim, parser_crash_at) && i + 1 == TFK_HOOK(lim, parser_crash_at))
			raise(SIGSEGV);
		if (TFK_HOOK(lim, parser_hang_at) && i + 1 == TFK_HOOK(lim, parser_hang_at))
			for (volatile uint64_t spin = 0;; spin++) /* libtraceevent's hangs are loops: they burn CPU */
				;
		if (TFK_HOOK(lim, parser_stall_at) && i + 1 == TFK_HOOK(lim, parser_stall_at)) {
			/* a child the machine does not run for a while: late, but not hung */
			struct timespec d = { TFK_HOOK(lim, parser_stall_ms) / 1000,
					      (long)(TFK_HOOK(lim, parser_stall_ms) % 1000) * 1000000L };
			while (nanosleep(&d, &d) != 0 && errno == EINTR)
				;
		}
		if (TFK_HOOK(lim, parser_escape_at) && i + 1 == TFK_HOOK(lim, parser_escape_at))
			syscall(SYS_socket, AF_INET, SOCK_STREAM, 0);
		if (r->known) /* the memo's answer: libtraceevent gave it before, to this very text */
			prog->answer[i - from] = r->rejected ? 'e' : 'o';
		else
			prog->answer[i - from] = td_tep_parses(tep, td, r) ? 'o' : 'e';
		atomic_store_explicit(&prog->at_cpu_ms, cpu_ms(0), memory_order_relaxed);
		atomic_store_explicit(&prog->at_ms, now_ms(), memory_order_relaxed);
		atomic_store_explicit(&prog->done, i - from + 1, memory_order_release);
	}
	/* Nothing here outlives the child, but a child that leaves its memory behind is a leak
	 * report under Valgrind (which follows forks) and a changed exit status with it. */
	tep_free(tep);
	_exit(0);
}

static void parse_in_children(struct td_check *td);

/*
 * Formats libtraceevent cannot parse are that library's limitation, not damage (every kernel
 * ships some: dma, kvm, maple_tree ...): one note for the file names them all, at the first.
 */
static void report_rejected(struct td_check *td)
{
	size_t n = 0, first = 0;
	for (size_t i = 0; i < td->nfmt_refs; i++)
		if (td->fmt_refs[i].rejected && !n++)
			first = i;
	if (!n)
		return;
	struct tfk_finding *f = ref_fault(td, TFK_TRACEDAT_FORMAT_UNPARSABLE, &td->fmt_refs[first]);
	tfk_set_path(f, "event formats");
	tfk_set_expected(f, "formats libtraceevent %s parses (newer ones parse more)", TEP_VERSION);
	char list[TFK_FINDING_TEXT_MAX - 56]; /* the found text holds the count and " and N more" too */
	size_t len = 0, named = 0;
	list[0] = '\0';
	for (size_t i = first; i < td->nfmt_refs; i++) {
		const struct td_fmt_ref *r = &td->fmt_refs[i];
		if (!r->rejected)
			continue;
		/* room for this name and for the " and N more" that may follow it */
		size_t need = strlen(r->system) + strlen(r->name) + 3;
		if (len + need >= sizeof(list))
			break;
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s/%s", named ? ", " : "", r->system, r->name);
		named++;
	}
	if (named < n)
		tfk_set_found(f, "%zu rejected by libtraceevent %s: %s and %zu more", n, TEP_VERSION, list, n - named);
	else
		tfk_set_found(f, "%zu rejected by libtraceevent %s: %s", n, TEP_VERSION, list);
}

void td_guarded_parse(struct td_check *td)
{
	const uint32_t late = TFK_HOOK(td->ctx->limits, parse_collect_delay_ms);
	if (late) {
		struct timespec ts = { late / 1000, (long)(late % 1000) * 1000000L };
		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
	}
	if (TFK_HOOK(td->ctx->limits, parse_in_process))
		td_parse_in_process(td);
	else
		parse_in_children(td);
	report_rejected(td);
}

/* Fork a child in slot on formats [from, end); false when no child could be started. */
static bool spawn(struct td_check *td, unsigned slot, size_t from, size_t end)
{
	struct td_tep_child *c = &td->tep[slot];
	size_t len = sizeof(struct tep_progress) + (end - from);
	void *shared = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return false;
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0) {
		munmap(shared, len);
		return false;
	}
	fflush(NULL);
	c->forked_ms = now_ms();
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		munmap(shared, len);
		return false;
	}
	if (pid == 0) {
		close(fds[0]);
		child(td, from, end, shared, fds[1]);
	}
	close(fds[1]);
	c->pid = pid;
	c->fd = fds[0];
	c->shared = shared;
	c->shared_len = len;
	c->from = from;
	c->end = end;
	return true;
}

/* Below this many formats one child parses them all: a second costs more than it saves. */
#define SPLIT_MIN_FORMATS 256

void td_parse_ahead(struct td_check *td)
{
	const struct tfk_limits *lim = td->ctx->limits;
	/* In process (the fuzz harnesses), the formats are parsed when td_guarded_parse asks. */
	if (!lim->parser_timeout_ms || !td->nfmt_refs || td->tep[0].pid || td->tep[1].pid ||
	    TFK_HOOK(lim, parse_in_process))
		return;
	memo_ask(td);
	size_t n = td->nfmt_refs, from = first_unknown(td, 0), unknown = 0;
	if (from == n)
		return; /* the memo knows every one: no child at all */
	for (size_t i = from; i < n; i++)
		unknown += !td->fmt_refs[i].known;
	/* A real kernel's thousands of formats are most of a check's time: with threads allowed,
	 * half of those to parse on each of two cores (the findings are collected in format order
	 * all the same). */
	size_t mid = n;
	if (lim->threads >= 2 && unknown >= SPLIT_MIN_FORMATS) {
		size_t seen = 0;
		for (mid = from; mid < n && seen < unknown / 2; mid++)
			seen += !td->fmt_refs[mid].known;
		mid = first_unknown(td, mid);
	}
	if (spawn(td, 0, from, mid) && mid < n)
		spawn(td, 1, mid, n);
}

static void end_child(struct td_tep_child *c, int *status)
{
	close(c->fd);
	while (waitpid(c->pid, status, 0) < 0 && errno == EINTR)
		;
	munmap(c->shared, c->shared_len);
	memset(c, 0, sizeof(*c));
}

void td_parse_abandon(struct td_check *td)
{
	for (unsigned i = 0; i < TD_TEP_CHILDREN; i++) {
		if (!td->tep[i].pid)
			continue;
		int status;
		kill(td->tep[i].pid, SIGKILL);
		end_child(&td->tep[i], &status);
	}
}

/* What became of a child: how many answers it left, whether it started and whether it hung. */
struct outcome {
	size_t done;
	bool ready, hung;
	int status;
};

/*
 * Wait for the running child to end, or to make no progress within the deadline (then it is
 * killed as hung). The child's own clock stamps say when it last made progress, so a child that
 * ran while the parent was walking pages is judged exactly as one watched all along.
 */
static struct outcome collect(struct td_check *td, unsigned slot)
{
	struct td_tep_child *c = &td->tep[slot];
	struct tep_progress *prog = c->shared;
	const uint32_t timeout = td->ctx->limits->parser_timeout_ms;
	const uint32_t setup = TFK_HOOK(td->ctx->limits, parser_setup_ms) ? TFK_HOOK(td->ctx->limits, parser_setup_ms) : SETUP_MS;
	struct outcome o = { 0 };
	for (;;) {
		/* The start-up deadline counts from the child's own start (a child the machine was slow
		 * to run is not late), and both are measured against the child's stamps: a parent that
		 * comes to collect after a long page walk finds what the child did meanwhile. */
		int64_t started = atomic_load_explicit(&prog->started_ms, memory_order_acquire);
		int64_t deadline = o.ready ? atomic_load_explicit(&prog->at_ms, memory_order_acquire) + timeout
					   : (started ? started : c->forked_ms) + (timeout > setup ? timeout : setup);
		int64_t left = deadline - now_ms();
		bool starved = false;
		if (left <= 0 && o.ready) {
			const int64_t used = cpu_ms(c->pid) - atomic_load_explicit(&prog->at_cpu_ms, memory_order_acquire);
			const int64_t waited = now_ms() - atomic_load_explicit(&prog->at_ms, memory_order_acquire);
			const int64_t cap = (int64_t)timeout * STARVED_WALL_FACTOR > STARVED_WALL_MIN_MS
						    ? (int64_t)timeout * STARVED_WALL_FACTOR
						    : STARVED_WALL_MIN_MS;
			if (used >= 0 && used < (int64_t)timeout && waited < cap) {
				starved = true; /* wait for the rest of its CPU deadline (in wall time, at least) */
				left = (int64_t)timeout - used;
			}
		}
		struct pollfd pfd = { c->fd, POLLIN, 0 };
		/* past the deadline still a look (timeout 0): what the child sent in time counts */
		int pr = poll(&pfd, 1, left > 0 ? (int)(left < INT32_MAX ? left : INT32_MAX) : 0);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr == 0 && o.ready && atomic_load_explicit(&prog->at_ms, memory_order_acquire) + timeout > now_ms())
			continue; /* progress since the deadline was computed */
		if (pr == 0 && (starved || left > 0))
			continue; /* the deadline reached: judged again, on the child's CPU time */
		/* Every answer given yet no end seen: another thread's child, forked while this pipe was
		 * open, holds its write end. The answers are what counts; this child is not hung. */
		if (pr == 0 && o.ready && atomic_load_explicit(&prog->done, memory_order_acquire) >= c->end - c->from) {
			kill(c->pid, SIGKILL); /* nothing is left to do (a child stuck in its clean-up included) */
			break;
		}
		if (pr <= 0) {
			o.hung = true;
			kill(c->pid, SIGKILL);
			break;
		}
		char b;
		ssize_t n = read(c->fd, &b, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || o.ready || b != READY)
			break; /* the child's end, or not our child's protocol (a failed start below) */
		o.ready = true;
	}
	if (o.ready) {
		uint64_t done = atomic_load_explicit(&prog->done, memory_order_acquire);
		o.done = done < c->end - c->from ? (size_t)done : c->end - c->from; /* a wild child's count */
		for (size_t i = 0; i < o.done; i++)
			if (!td->fmt_refs[c->from + i].known)
				td->fmt_refs[c->from + i].rejected = prog->answer[i] != 'o';
		memo_learn(td, c->from, o.done);
	}
	end_child(c, &o.status);
	return o;
}

/*
 * The child that parses format `next`: one started ahead on a range beginning there, or a new
 * one up to the next range a running child holds (or the end). TD_TEP_CHILDREN when none can run.
 */
static unsigned child_for(struct td_check *td, size_t next)
{
	size_t end = td->nfmt_refs;
	unsigned idle = TD_TEP_CHILDREN;
	for (unsigned i = 0; i < TD_TEP_CHILDREN; i++) {
		const struct td_tep_child *c = &td->tep[i];
		if (c->pid && c->from == next)
			return i;
		if (c->pid && c->from > next && c->from < end)
			end = c->from;
		if (!c->pid && idle == TD_TEP_CHILDREN)
			idle = i;
	}
	return idle < TD_TEP_CHILDREN && spawn(td, idle, next, end) ? idle : TD_TEP_CHILDREN;
}

static void parse_in_children(struct td_check *td)
{
	const uint32_t timeout = td->ctx->limits->parser_timeout_ms;
	if (!timeout || !td->nfmt_refs)
		return;
	memo_ask(td);
	size_t next = first_unknown(td, 0);
	for (unsigned children = 0; next < td->nfmt_refs; children++) {
		if (children == MAX_CHILDREN) {
			td_parse_abandon(td);
			tfk_limit_hit(td->ctx, td->fmt_refs[next].offset, "libtraceevent crashes", children, MAX_CHILDREN);
			return;
		}
		unsigned slot = child_for(td, next);
		if (slot == TD_TEP_CHILDREN) {
			td_parse_abandon(td);
			return;
		}
		size_t end = td->tep[slot].end;
		struct outcome o = collect(td, slot);
		next += o.done;
		if (next >= td->nfmt_refs)
			return;
		if (next == end && !o.hung && WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0) {
			next = first_unknown(td, next);
			continue; /* a child started ahead, before the last formats were kept: the rest in another */
		}
		if (!o.ready) {
			td_parse_abandon(td);
			td_tep_start_failed(td, next);
			return;
		}
		/* The child died (or hung) on format `next`: report it and go on after it. */
		struct tfk_finding *f = ref_fault(td, TFK_TRACEDAT_FORMAT_PARSER_CRASH, &td->fmt_refs[next]);
		tfk_set_expected(f, "a format libtraceevent parses without crashing");
		if (o.hung)
			tfk_set_found(f, "no answer within %u ms (hang)", timeout);
		else if (WIFSIGNALED(o.status))
			tfk_set_found(f, "the parser died with signal %d", WTERMSIG(o.status));
		else
			tfk_set_found(f, "the parser exited with status %d", WEXITSTATUS(o.status));
		next = first_unknown(td, next + 1);
	}
}
