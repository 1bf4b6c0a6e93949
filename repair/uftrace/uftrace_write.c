/* SPDX-License-Identifier: MIT */
/*
 * Writing a repaired uftrace data directory (spec §2.10): each <tid>.dat cut after its last
 * whole valid record, each perf-cpu<N>.dat after its last record uftrace reads safely,
 * malformed lines of task.txt, the maps, the symbol files and events.txt dropped, a .sym count
 * rewritten first, a missing or damaged info rebuilt, the FIFO of a killed recording and
 * members that cannot be fixed left out. Every other member is copied byte for byte.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dir_output.h"
#include "input.h"
#include "uftrace_repair.h"

#define UR_FEAT_KERNEL (1ull << 2) /* info's feature bit: kernel_header and kernel-cpu<N>.dat */
#define UR_INFO_FEAT_AT 16         /* info's u64 feature mask, after magic, version, header size, endian, class */

/* What the writer decided, on top of the model. */
struct plan {
	const struct ur_model *m;
	bool rebuild_info;
	bool perf_kept;        /* some perf-cpu file is written */
	int64_t *tids;         /* tids of the rebuilt info: a TASK/FORK line and records kept */
	size_t ntids, cap_tids;
	/* task.txt rebuilt (no SESS line left): the one session's sid, its tasks' first times */
	bool rebuild_task;
	char sid[17];
	uint64_t *firsts;      /* parallel to tids when rebuild_task: the earliest record kept, or UINT64_MAX */
	/* the one session map no SESS line names, written as the map of the one session without one */
	char map_from[32], map_to[32];
	bool task_remade;      /* task.txt's last line, a TASK line cut by the end, is made whole */
};

static bool ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);
	return n >= k && strcmp(s + n - k, suf) == 0;
}

static bool starts_with(const char *s, const char *pre)
{
	return strncmp(s, pre, strlen(pre)) == 0;
}

/* A new entry of rep->members for name, or NULL when out of memory. */
static struct tfk_salvage_member *salvage(struct tfk_repair_report *rep, size_t *cap, const char *name)
{
	if (!rp_grow((void **)&rep->members, cap, rep->nmembers + 1, sizeof(*rep->members)))
		return NULL;
	struct tfk_salvage_member *s = &rep->members[rep->nmembers++];
	memset(s, 0, sizeof(*s));
	snprintf(s->member, sizeof(s->member), "%s", name);
	s->action = rp_action_name(RP_ACTION_COPIED);
	return s;
}

/* Where a task file is cut, and the records before the cut. */
static uint64_t task_cut(const struct plan *p, const struct tfk_uftrace_task *t, uint64_t *kept)
{
	*kept = t->records_good;
	uint64_t cut = t->good_end <= t->size ? t->good_end : t->size;
	(void)p; /* records with arguments under a rebuilt info keep all but their values (strips) */
	return cut;
}

/*
 * Can task.txt be made again? When no SESS line of it is left (it is missing, or cut or
 * damaged in its first line) uftrace replay finds no task. One session can be told from what
 * is left: exactly one sid-<16 hex digits>.map names it, info its executable. sid: its sid.
 */
static bool task_rebuildable(const struct ur_model *m, const struct tfk_input *in, char sid[17])
{
	if (m->exename[0] || !m->have_info || !m->info.exename[0])
		return false;
	size_t maps = 0;
	for (size_t i = 0; i < in->n; i++) {
		const char *name = in->members[i].name;
		if (!starts_with(name, "sid-") || !ends_with(name, ".map"))
			continue;
		if (in->members[i].kind != TFK_MEMBER_FILE || strlen(name) != 4 + 16 + 4 ||
		    strspn(name + 4, "0123456789abcdef") != 16)
			return false;
		memcpy(sid, name + 4, 16);
		sid[16] = '\0';
		maps++;
	}
	return maps == 1;
}

/* Are all the errors raised at info tasks that task.txt lacks (which a rebuilt task.txt names)? */
static bool info_errors_only_tasks(const struct tfk_repair_report *rep)
{
	for (size_t i = 0; i < rep->before.count; i++) {
		const struct tfk_finding *f = &rep->before.findings[i];
		if (f->severity == TFK_SEV_ERROR && strcmp(f->member, "info") == 0 &&
		    strcmp(f->fault->id, "uftrace.task.tid-mismatch") != 0)
			return false;
	}
	return true;
}

static bool is_map_name(const char *name)
{
	return starts_with(name, "sid-") && ends_with(name, ".map") && strlen(name) == 4 + 16 + 4 &&
	       strspn(name + 4, "0123456789abcdef") == 16;
}

static bool sess_named(const struct ur_model *m, const char *sid16)
{
	for (size_t i = 0; i < m->nsids; i++)
		if (memcmp(m->sids[i], sid16, 16) == 0)
			return true;
	return false;
}

/*
 * A session whose map is missing, and a map no session names: when there is exactly one of
 * each (a map file renamed, or its SESS line's sid damaged in a way the grammar passes), they
 * are the same session, and the map is written under the session's name. *from, *to: the
 * member names; false when they cannot be paired so.
 */
static bool pair_orphan_map(const struct ur_model *m, const struct tfk_input *in, char from[32], char to[32])
{
	size_t missing = 0, orphans = 0;
	for (size_t i = 0; i < m->nsids; i++) {
		char name[32];
		snprintf(name, sizeof(name), "sid-%s.map", m->sids[i]);
		const struct tfk_member *mem = tfk_input_find(in, name);
		if (!mem) {
			bool again = false; /* a sid twice in task.txt counts once */
			for (size_t k = 0; k < i; k++)
				again |= strcmp(m->sids[k], m->sids[i]) == 0;
			if (!again && missing++ == 0)
				snprintf(to, 32, "%s", name);
		}
	}
	for (size_t i = 0; i < in->n; i++) {
		const char *name = in->members[i].name;
		if (in->members[i].kind != TFK_MEMBER_FILE || !is_map_name(name) || sess_named(m, name + 4))
			continue;
		if (orphans++ == 0)
			snprintf(from, 32, "%s", name);
	}
	return missing == 1 && orphans == 1;
}

/* The refusals: what repair cannot fix (the check could not finish, a session has no map, ...). */
static const char *refusal(const struct ur_model *m, const struct tfk_input *in, const struct tfk_repair_report *rep)
{
	char from[32], to[32];
	const bool paired = pair_orphan_map(m, in, from, to);
	char sid[17];
	const bool task_again = task_rebuildable(m, in, sid);
	for (size_t i = 0; i < in->n; i++)
		if (in->members[i].kind != TFK_MEMBER_FILE && starts_with(in->members[i].name, "sid-") &&
		    ends_with(in->members[i].name, ".map"))
			return "a session map is not a regular file, and uftrace cannot read its tasks without it";
	if (m->oom)
		return "out of memory while keeping the check's model";
	if (m->too_many)
		return "more malformed lines or tasks than repair keeps track of";
	if (rep->before.incomplete)
		return "part of it could not be checked (a limit, or an unreadable member), so no repaired copy could be "
		       "proven";
	for (size_t i = 0; i < rep->before.count; i++) {
		const char *id = rep->before.findings[i].fault->id;
		if (strcmp(id, "uftrace.map.missing") == 0 && !paired)
			return "a session has no sid-<sid>.map, and uftrace cannot read its tasks without it";
		if (strcmp(id, "uftrace.task.missing") == 0 && !task_again)
			return "there is no task.txt, and uftrace finds no task without it (nor can it be made again: "
			       "that needs info's executable and exactly one session map)";
	}
	return NULL;
}

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static bool add_tid(struct plan *p, int64_t tid)
{
	for (size_t i = 0; i < p->ntids; i++)
		if (p->tids[i] == tid)
			return true;
	if (!rp_grow((void **)&p->tids, &p->cap_tids, p->ntids + 1, sizeof(*p->tids)))
		return false;
	p->tids[p->ntids++] = tid;
	return true;
}

/*
 * The tasks of a rebuilt task.txt: every <tid>.dat of the directory, and every tid info names,
 * by tid; a task file with no whole record
 * left keeps its TASK line, so that info's list and the files stay named. The session begins
 * before the earliest record kept: records may go back in time (a warning), the first is not
 * always the earliest.
 */
static int plan_tasks(struct plan *p, const struct ur_model *m, const struct tfk_input *in,
		      struct tfk_repair_report *rep)
{
	for (size_t i = 0; i < m->ntasks; i++) {
		const struct tfk_uftrace_task *t = &m->tasks[i];
		const struct tfk_member *mem = tfk_input_find(in, t->member);
		if (t->tid > 0 && mem && mem->kind == TFK_MEMBER_FILE && !add_tid(p, t->tid))
			return -1;
	}
	for (size_t i = 0; m->have_info && i < m->info.ntids; i++)
		if (m->info.tids[i] > 0 && !add_tid(p, m->info.tids[i]))
			return -1;
	if (m->have_info && !m->info.tids_all)
		p->rebuild_info = true; /* info names more tasks than the model keeps: made again from these */
	if (p->ntids > 1)
		qsort(p->tids, p->ntids, sizeof(*p->tids), by_value);
	p->firsts = calloc(p->ntids ? p->ntids : 1, sizeof(*p->firsts));
	if (!p->firsts)
		return -1;
	size_t with_records = 0;
	for (size_t i = 0; i < p->ntids; i++) {
		char name[40];
		snprintf(name, sizeof(name), "%" PRId64 ".dat", p->tids[i]);
		const struct tfk_uftrace_task *t = ur_task(m, name);
		uint64_t records;
		if (t && t->min_time != UINT64_MAX && task_cut(p, t, &records) > 0) {
			p->firsts[i] = t->min_time;
			with_records++;
		} else {
			p->firsts[i] = UINT64_MAX;
		}
	}
	if (with_records == 0) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = "task.txt must be made again, and no task file has a whole valid record left";
		return 1;
	}
	return 0;
}

/*
 * task.txt made again: one SESS line (the first task's tid as its pid, the session's sid,
 * info's executable) a nanosecond before the earliest record, and a TASK line per task at its
 * first record, in the process of the SESS line. Threads are that; a forked child is read the
 * same way, its records found through the session whose maps it inherited.
 */
static int write_task_txt(const struct plan *p, struct rp_dir *dir, struct tfk_salvage_member *s)
{
	/* a nanosecond before the earliest record (a record of time 0 makes it 0: no session
	 * time then, as for a recording whose session is unknown) */
	uint64_t t0 = UINT64_MAX;
	for (size_t i = 0; i < p->ntids; i++)
		if (p->firsts[i] < t0)
			t0 = p->firsts[i];
	t0 = t0 > 0 ? t0 - 1 : 0;
	struct rp_out o;
	memset(&o, 0, sizeof(o));
	char line[TFK_UFTRACE_PATH_MAX + 128];
	int n = snprintf(line, sizeof(line), "SESS timestamp=%" PRIu64 ".%09" PRIu64 " pid=%" PRId64 " sid=%s exename=\"%s\"\n",
			 t0 / 1000000000u, t0 % 1000000000u, p->tids[0], p->sid, p->m->info.exename);
	rp_out_put(&o, line, n > 0 && (size_t)n < sizeof(line) ? (size_t)n : 0);
	for (size_t i = 0; i < p->ntids; i++) {
		uint64_t t = p->firsts[i] != UINT64_MAX && p->firsts[i] > t0 ? p->firsts[i] - 1 : t0;
		n = snprintf(line, sizeof(line), "TASK timestamp=%" PRIu64 ".%09" PRIu64 " tid=%" PRId64 " pid=%" PRId64 "\n",
			     t / 1000000000u, t % 1000000000u, p->tids[i], p->tids[0]);
		rp_out_put(&o, line, n > 0 && (size_t)n < sizeof(line) ? (size_t)n : 0);
	}
	s->action = rp_action_name(RP_ACTION_REBUILT);
	s->bytes_out = o.len;
	snprintf(s->note, sizeof(s->note),
		 "no SESS line left: made from info's executable, the one session map and %zu task%s", p->ntids,
		 p->ntids == 1 ? "" : "s");
	int rc = o.oom ? (errno = ENOMEM, -1) : rp_dir_member(dir, "task.txt", &o);
	rp_out_free(&o);
	return rc;
}

static bool task_line_again(const struct ur_model *m, const struct tfk_input *in, const uint8_t *s, size_t len,
			    struct rp_out *o);

/* Can task.txt's last line, when repair drops it, be made whole (task_line_again)? */
static bool task_line_remade(const struct ur_model *m, const struct tfk_input *in)
{
	const struct tfk_member *mem = tfk_input_find(in, "task.txt");
	size_t idx = ur_name(m, "task.txt");
	struct tfk_member_map map;
	if (!mem || mem->kind != TFK_MEMBER_FILE || idx == SIZE_MAX || tfk_member_open(in, mem, &map) != 0)
		return false;
	bool ok = false;
	if (map.size > 0 && map.data[map.size - 1] != '\n') {
		uint64_t start = map.size;
		while (start > 0 && map.data[start - 1] != '\n')
			start--;
		bool condemned = false;
		for (size_t j = m->names[idx].first; j < m->nlines && m->lines[j].name == idx; j++)
			condemned |= m->lines[j].offset == start;
		struct rp_out o;
		memset(&o, 0, sizeof(o));
		ok = condemned && task_line_again(m, in, map.data + start, (size_t)(map.size - start), &o);
		rp_out_free(&o);
	}
	tfk_member_close(&map);
	return ok;
}

/* How many findings of that id were raised at that member before repair? */
static size_t findings_of(const struct tfk_repair_report *rep, const char *id)
{
	size_t n = 0;
	for (size_t i = 0; i < rep->before.count; i++)
		n += strcmp(rep->before.findings[i].fault->id, id) == 0;
	return n;
}

static int plan_make(struct plan *p, const struct ur_model *m, const struct tfk_input *in, struct tfk_repair_report *rep)
{
	memset(p, 0, sizeof(*p));
	p->m = m;
	p->rebuild_task = task_rebuildable(m, in, p->sid);
	if (!pair_orphan_map(m, in, p->map_from, p->map_to))
		p->map_from[0] = p->map_to[0] = '\0';
	const struct tfk_uftrace_member *info = ur_member(m, "info");
	/* info's errors that a header byte answers (magic, endian, class) leave it as it is, patched */
	const uint32_t fixed = m->have_info && m->info.header_ok ? m->info.header_fixes : 0;
	/* a TASK line made whole names the one task info missed in task.txt */
	p->task_remade = task_line_remade(m, in) && findings_of(rep, "uftrace.task.tid-mismatch") <= 1;
	p->rebuild_info = !m->have_info || !m->info.present || !info ||
			  (info->errors > fixed && !((p->rebuild_task || p->task_remade) && info_errors_only_tasks(rep)));
	for (size_t i = 0; i < m->nperfs; i++)
		p->perf_kept |= m->perfs[i].good_end > 0;
	if (p->rebuild_task)
		return plan_tasks(p, m, in, rep);
	if (!p->rebuild_info)
		return 0;
	for (size_t i = 0; i < m->ntids; i++) {
		char name[40];
		snprintf(name, sizeof(name), "%" PRId64 ".dat", m->tids[i]);
		const struct tfk_uftrace_task *t = ur_task(m, name);
		const struct tfk_member *mem = tfk_input_find(in, name);
		uint64_t kept;
		if (!t || !mem || mem->kind != TFK_MEMBER_FILE || task_cut(p, t, &kept) == 0)
			continue;
		if (!rp_grow((void **)&p->tids, &p->cap_tids, p->ntids + 1, sizeof(*p->tids)))
			return -1;
		p->tids[p->ntids++] = m->tids[i];
	}
	if (!m->exename[0] || p->ntids == 0) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = !m->exename[0] ? "info must be rebuilt, and no SESS line of task.txt names the executable"
					     : "info must be rebuilt, and no task of task.txt has a whole record left";
		return 1;
	}
	return 0;
}

static bool tid_listed(const struct ur_model *m, int64_t tid)
{
	for (size_t i = 0; i < m->ntids; i++)
		if (m->tids[i] == tid)
			return true;
	return false;
}

/* Does the decimal of v begin with the n digits at s? */
static bool dec_prefix(int64_t v, const char *s, size_t n)
{
	char d[24];
	int k = snprintf(d, sizeof(d), "%lld", (long long)v);
	return k > 0 && (size_t)k >= n && memcmp(d, s, n) == 0;
}

/*
 * The last line of task.txt, cut by the end of the file inside a TASK line ("TASK
 * timestamp=S.N tid=1"), made whole again where the rest of the recording tells it: its
 * timestamp whole, exactly one task that info's taskinfo or a task file names, that no TASK
 * or FORK line names and whose tid begins with the digits left, and one session, whose pid is
 * the task's (threads are recorded in the session's process; a forked child would have a
 * FORK line). The line goes to o; false when it cannot be told.
 */
static bool task_line_again(const struct ur_model *m, const struct tfk_input *in, const uint8_t *s, size_t len,
			    struct rp_out *o)
{
	static const char head[] = "TASK timestamp=";
	const size_t hn = sizeof(head) - 1;
	if (len <= hn || memcmp(s, head, hn) != 0 || m->nsids != 1 || m->sess_pid <= 0)
		return false;
	size_t i = hn, dot = 0;
	while (i < len && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')) {
		if (s[i] == '.') {
			if (dot)
				return false;
			dot = i;
		}
		i++;
	}
	if (!dot || dot == hn || i - dot - 1 != 9 || i + 5 > len || memcmp(s + i, " tid=", 5) != 0)
		return false;
	const size_t ts_end = i;
	i += 5;
	size_t d0 = i;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i != len || i - d0 > 19)
		return false; /* more than the tid's digits was left: not a cut this reads */
	int64_t found = 0;
	size_t n = 0;
	for (size_t k = 0; m->have_info && k < m->info.ntids; k++)
		if (m->info.tids[k] > 0 && !tid_listed(m, m->info.tids[k]) && dec_prefix(m->info.tids[k], (const char *)s + d0, i - d0) &&
		    m->info.tids[k] != found) {
			found = m->info.tids[k];
			n++;
		}
	for (size_t k = 0; k < in->n; k++) {
		const char *name = in->members[k].name;
		int64_t tid = 0;
		size_t j = 0;
		for (; name[j] >= '0' && name[j] <= '9' && j < 10; j++)
			tid = tid * 10 + (name[j] - '0');
		if (j == 0 || strcmp(name + j, ".dat") != 0 || tid == found || tid_listed(m, tid) ||
		    !dec_prefix(tid, (const char *)s + d0, i - d0))
			continue;
		found = tid;
		n++;
	}
	if (n != 1)
		return false;
	char line[96];
	int k = snprintf(line, sizeof(line), " tid=%lld pid=%lld\n", (long long)found, (long long)m->sess_pid);
	rp_out_put(o, s, ts_end);
	rp_out_put(o, line, (size_t)k);
	return true;
}

/* A text member without its condemned lines (and, for a .sym, with its count rewritten first). */
static int write_text(const struct plan *p, const struct tfk_input *in, struct rp_dir *dir, const char *name,
		      const struct tfk_member_map *map, struct tfk_salvage_member *s)
{
	bool remade = false;
	const struct ur_model *m = p->m;
	const struct tfk_uftrace_sym *sym = ends_with(name, ".sym") ? ur_sym(m, name) : NULL;
	const size_t idx = ur_name(m, name);
	const bool rewrite_count = sym && !sym->count_ok;
	struct rp_out o;
	memset(&o, 0, sizeof(o));
	if (rewrite_count) {
		char hdr[48];
		snprintf(hdr, sizeof(hdr), "# symbols: %" PRIu64 "\n", sym->counted);
		rp_out_put(&o, hdr, strlen(hdr));
	}
	uint64_t kept = rewrite_count ? 1 : 0, dropped = 0;
	/* The next condemned line of this member (they come together, in file order). */
	size_t j = idx != SIZE_MAX ? m->names[idx].first : m->nlines;
	for (uint64_t pos = 0; pos < map->size;) {
		const uint8_t *nl = memchr(map->data + pos, '\n', (size_t)(map->size - pos));
		uint64_t len = nl ? (uint64_t)(nl - (map->data + pos)) : map->size - pos;
		bool drop = false;
		while (j < m->nlines && m->lines[j].name == idx && m->lines[j].offset < pos)
			j++;
		if (idx != SIZE_MAX && j < m->nlines && m->lines[j].name == idx && m->lines[j].offset == pos)
			drop = true;
		/* Count lines are replaced by the one written first: not lost. */
		const bool count_line = rewrite_count && len >= 11 && memcmp(map->data + pos, "# symbols: ", 11) == 0;
		if (count_line) {
		} else if (drop && !nl && pos + len == map->size && strcmp(name, "task.txt") == 0 &&
			   task_line_again(m, in, map->data + pos, (size_t)len, &o)) {
			kept++;
			remade = true;
		} else if (drop) {
			dropped++;
		} else {
			rp_out_put(&o, map->data + pos, (size_t)len + (nl ? 1 : 0));
			kept++;
		}
		pos += len + (nl ? 1 : 0);
	}
	rp_set_unit(s, RP_UNIT_LINES);
	s->kept = kept;
	s->lost = dropped;
	s->bytes_out = o.len;
	s->bytes_dropped = map->size > o.len ? map->size - o.len : 0;
	s->action = rp_action_name(RP_ACTION_REWRITTEN);
	snprintf(s->note, sizeof(s->note), "%s%s%s", dropped ? "malformed lines dropped" : "",
		 rewrite_count ? (dropped ? "; symbol count rewritten first" : "symbol count rewritten first") : "",
		 remade ? (dropped || rewrite_count ? "; the TASK line cut by the end made whole from info and the session"
						    : "the TASK line cut by the end made whole from info and the session")
			: "");
	int rc = o.oom ? (errno = ENOMEM, -1) : rp_dir_member(dir, name, &o);
	rp_out_free(&o);
	return rc;
}

/* Does this text member need rewriting? */
static bool text_damaged(const struct ur_model *m, const char *name)
{
	const struct tfk_uftrace_sym *sym = ends_with(name, ".sym") ? ur_sym(m, name) : NULL;
	return ur_name(m, name) != SIZE_MAX || (sym && !sym->count_ok);
}

static bool is_text(const char *name)
{
	return strcmp(name, "task.txt") == 0 || strcmp(name, "events.txt") == 0 ||
	       (starts_with(name, "sid-") && ends_with(name, ".map")) || ends_with(name, ".sym");
}

/* The first bytes of a member (a task cut, a perf file cut, or the whole of it) into dir. */
static int write_prefix(struct rp_dir *dir, const char *name, const struct tfk_member_map *map, uint64_t n)
{
	struct rp_out o;
	memset(&o, 0, sizeof(o));
	if (n)
		rp_out_keep(&o, map->data, (size_t)n);
	int rc = o.oom ? (errno = ENOMEM, -1) : rp_dir_member(dir, name, &o);
	rp_out_free(&o);
	return rc;
}

/*
 * Must the task's arguments and return values be left out? A rebuilt info has no spec for
 * them. And a task the check walked without its session (task.txt lost, rebuilt by repair),
 * which ends in an invalid record, may have had its values walked by lengths the rebuilt
 * session's symbols would not give: the output would be read apart differently from what the
 * check saw. Its kept records then lose their values rather than the output its framing.
 */
static bool strips(const struct plan *p, const struct tfk_uftrace_task *t, uint64_t cut)
{
	return (p->rebuild_info || (p->rebuild_task && t->cut == TFK_UFTRACE_CUT_INVALID)) && t->payload_at < cut;
}

static void task_salvage(const struct plan *p, const struct tfk_uftrace_task *t, struct tfk_salvage_member *s,
			 uint64_t cut, uint64_t kept, uint64_t stripped)
{
	rp_set_unit(s, RP_UNIT_RECORDS);
	s->kept = kept;
	/* A record cut by the end of the file is lost too (its bytes are there, not whole). */
	s->lost = t->records_good - kept + t->records_after + (t->cut == TFK_UFTRACE_CUT_PARTIAL ? 1 : 0);
	s->lost_unknown = t->cut == TFK_UFTRACE_CUT_MAGIC || t->cut == TFK_UFTRACE_CUT_PAYLOAD;
	s->bytes_out = cut;
	s->bytes_dropped = t->size - cut;
	static const char *const why[] = { "", "a record cut by the end of the file", "a record with a bad magic",
					   "a payload whose length cannot be known", "an invalid record" };
	if (stripped) {
		snprintf(s->note, sizeof(s->note), "the arguments or return values of %" PRIu64 " records left out (the "
						    "argument spec was lost with info)%s%s",
			 stripped, t->cut ? "; cut at " : "", t->cut ? why[t->cut] : "");
	} else if (kept < t->records_good) {
		s->lost_time_known = true;
		s->lost_from = t->payload_time;
		s->lost_to = t->last_time;
		snprintf(s->note, sizeof(s->note), "cut at a record whose arguments could not be stepped over%s%s",
			 t->cut ? "; then " : "", t->cut ? why[t->cut] : "");
	} else if (t->cut) {
		if (t->cut_time)
			snprintf(s->note, sizeof(s->note), "cut at %s (time %" PRIu64 ")", why[t->cut], t->cut_time);
		else
			snprintf(s->note, sizeof(s->note), "cut at %s", why[t->cut]);
	}
	(void)p;
}

/* Is kernel_header there with errors? Its pages cannot be read without it, and are left out. */
static bool kernel_header_damaged(const struct ur_model *m)
{
	const struct tfk_uftrace_member *um = ur_member(m, "kernel_header");
	return um && um->errors;
}

/*
 * info as it is but for header bytes: the KERNEL feature bit cleared when the kernel data is
 * left out (uftrace would look for it, and print that it cannot find it, on every replay), and
 * the magic, endian byte and ELF class the check told right from the rest of the recording.
 * Everything else (the argument spec, the command line, the task list) stays.
 */
static bool info_patchable(const struct ur_model *m)
{
	return m->have_info && m->info.header_fixes > 0;
}

static int write_info_patched(const struct ur_model *m, struct rp_dir *dir, const struct tfk_member_map *map,
			      struct tfk_salvage_member *s)
{
	struct rp_out o;
	memset(&o, 0, sizeof(o));
	o.be = m->info.big_endian;
	rp_out_keep(&o, map->data, (size_t)map->size);
	char note[sizeof(s->note)] = "";
	size_t n = 0;
	if (kernel_header_damaged(m) && (m->info.feat & UR_FEAT_KERNEL) && map->size >= UR_INFO_FEAT_AT + 8) {
		rp_out_patch_at(&o, UR_INFO_FEAT_AT, m->info.feat & ~UR_FEAT_KERNEL, 8);
		n += (size_t)snprintf(note + n, sizeof(note) - n, "the KERNEL feature cleared: the kernel data is left out");
	}
	if (m->info.fix_magic && map->size >= 8) {
		rp_out_overwrite(&o, 0, "Ftrace!", 8);
		n += (size_t)snprintf(note + n, sizeof(note) - n, "%sthe magic written", n ? "; " : "");
	}
	if (m->info.fix_endian && map->size >= 15 && n < sizeof(note)) {
		rp_out_overwrite(&o, 14, &m->info.fix_endian, 1);
		n += (size_t)snprintf(note + n, sizeof(note) - n, "%sthe endian byte set to %u, the order its header and records are written in",
				      n ? "; " : "", m->info.fix_endian);
	}
	if (m->info.fix_class && map->size >= 16 && n < sizeof(note)) {
		rp_out_overwrite(&o, 15, &m->info.fix_class, 1);
		n += (size_t)snprintf(note + n, sizeof(note) - n, "%sthe ELF class set to %u, as wide as the session maps' addresses",
				      n ? "; " : "", m->info.fix_class);
	}
	if (m->info.fix_max_stack && map->size >= 34 && n < sizeof(note)) {
		rp_out_patch_at(&o, 32, m->info.fix_max_stack, 2);
		snprintf(note + n, sizeof(note) - n, "%smax_stack raised to %u, above the depth the records reach",
			 n ? "; " : "", m->info.fix_max_stack);
	}
	s->bytes_out = map->size;
	s->action = rp_action_name(RP_ACTION_REWRITTEN);
	snprintf(s->note, sizeof(s->note), "%s", note);
	int rc = o.oom ? (errno = ENOMEM, -1) : rp_dir_member(dir, "info", &o);
	rp_out_free(&o);
	return rc;
}

/* A kernel-cpu<N>.dat: its whole pages, the damaged ones dropped or cut at their damage. */
static int write_kernel_pages(const struct ur_kernel *k, struct rp_dir *dir, const char *name,
			      const struct tfk_member_map *map, struct tfk_salvage_member *s)
{
	struct rp_out o;
	memset(&o, 0, sizeof(o));
	int rc = ur_kernel_write(k, map->data, map->size, &o);
	if (rc != 0) {
		rp_out_free(&o);
		errno = ENOMEM;
		return -1;
	}
	rp_set_unit(s, RP_UNIT_EVENTS);
	s->kept = k->events_kept;
	s->lost = k->events_lost;
	s->lost_unknown = k->lost_unknown;
	s->bytes_out = o.len;
	s->bytes_dropped = map->size > o.len ? map->size - o.len : 0;
	s->action = k->npages ? rp_action_name(RP_ACTION_REWRITTEN) : o.len < map->size ? rp_action_name(RP_ACTION_TRUNCATED) : rp_action_name(RP_ACTION_COPIED);
	if (k->pages_dropped || o.len < map->size || k->npages)
		snprintf(s->note, sizeof(s->note), "%llu of %llu whole pages dropped, %zu rebuilt%s",
			 (unsigned long long)k->pages_dropped, (unsigned long long)k->whole_pages,
			 k->npages - (size_t)k->pages_dropped,
			 k->whole_pages * k->k.page_size < map->size ? "; the part of a page the file ends with left out" : "");
	rc = rp_dir_member(dir, name, &o);
	rp_out_free(&o);
	return rc;
}

/* One regular member: copied, cut, rewritten, rebuilt or left out. */
static int write_member(const struct plan *p, const struct tfk_input *in, const struct tfk_member *mem,
			struct rp_dir *dir, struct tfk_salvage_member *s)
{
	const struct ur_model *m = p->m;
	const char *name = mem->name;
	s->bytes_in = mem->size;
	if (strcmp(name, "info") == 0 && p->rebuild_info) {
		s->action = rp_action_name(RP_ACTION_REBUILT);
		s->bytes_dropped = mem->size;
		snprintf(s->note, sizeof(s->note), "damaged: replaced by a minimal info (exename, taskinfo)");
		return 0; /* written once, with the others (see ur_write_dir) */
	}
	if (strcmp(name, "task.txt") == 0 && p->rebuild_task) {
		s->bytes_dropped = mem->size;
		return 0; /* written once, with the others (see ur_write_dir) */
	}
	const struct tfk_uftrace_member *um = ur_member(m, name);
	const struct tfk_uftrace_task *t = ur_task(m, name);
	const struct tfk_uftrace_perf *pf = ur_perf(m, name);
	const struct ur_kernel *kk = ur_kernel(m, name);
	if (starts_with(name, "kernel-cpu") && ends_with(name, ".dat") && kernel_header_damaged(m)) {
		s->action = rp_action_name(RP_ACTION_LEFT_OUT);
		s->bytes_dropped = mem->size;
		s->lost_unknown = mem->size > 0;
		rp_set_unit(s, RP_UNIT_EVENTS);
		snprintf(s->note, sizeof(s->note), "kernel_header, which describes its pages, is damaged");
		return 0;
	}
	const bool text = is_text(name) && text_damaged(m, name);
	/* an info whose only errors are the tasks task.txt lost is kept when task.txt is made again */
	const bool info_kept = strcmp(name, "info") == 0 && !p->rebuild_info &&
			       (p->rebuild_task || p->task_remade || info_patchable(m));
	/* task.txt whose one error is the session whose map is written under its name now */
	const bool task_kept = strcmp(name, "task.txt") == 0 && p->map_from[0] && um && um->errors == 1;
	if (um && um->errors && !t && !pf && !kk && !text && !info_kept && !task_kept) {
		s->action = rp_action_name(RP_ACTION_LEFT_OUT);
		s->bytes_dropped = mem->size;
		snprintf(s->note, sizeof(s->note), "damaged beyond what repair fixes");
		return 0;
	}
	struct tfk_member_map map;
	if (tfk_member_open(in, mem, &map) != 0)
		return -1;
	int rc = 0;
	if (t) {
		uint64_t kept, cut = task_cut(p, t, &kept);
		if (cut > map.size)
			cut = map.size;
		if (cut > 0 && strips(p, t, cut)) {
			struct rp_out o;
			memset(&o, 0, sizeof(o));
			uint64_t records, stripped;
			rc = ur_strip_payloads(map.data, map.size, cut, m->have_info && m->info.big_endian, &o, &records,
					       &stripped);
			if (rc == 0) {
				task_salvage(p, t, s, cut, records < kept ? records : kept, stripped);
				s->bytes_out = o.len;
				s->bytes_dropped = map.size - o.len;
				s->action = o.len < map.size ? rp_action_name(RP_ACTION_REWRITTEN) : rp_action_name(RP_ACTION_COPIED);
				rc = rp_dir_member(dir, name, &o);
			} else {
				errno = ENOMEM;
			}
			rp_out_free(&o);
			tfk_member_close(&map);
			return rc;
		}
		task_salvage(p, t, s, cut, kept, 0);
		if (cut == 0 && map.size > 0) {
			s->action = rp_action_name(RP_ACTION_LEFT_OUT);
			char why[sizeof(s->note)];
			memcpy(why, s->note, sizeof(why));
			snprintf(s->note, sizeof(s->note), "no whole valid record%s%s", why[0] ? ": " : "", why);
		} else {
			s->action = cut < map.size ? rp_action_name(RP_ACTION_TRUNCATED) : rp_action_name(RP_ACTION_COPIED);
			rc = write_prefix(dir, name, &map, cut);
		}
	} else if (pf) {
		uint64_t cut = pf->good_end < map.size ? pf->good_end : map.size;
		rp_set_unit(s, RP_UNIT_RECORDS);
		s->kept = pf->records_good;
		s->lost = cut < map.size && pf->cut_tail ? 1 : 0;
		s->lost_unknown = cut < map.size && !pf->cut_tail;
		s->bytes_out = cut;
		s->bytes_dropped = map.size - cut;
		s->action = cut < map.size ? rp_action_name(RP_ACTION_TRUNCATED) : rp_action_name(RP_ACTION_COPIED);
		if (cut < map.size)
			snprintf(s->note, sizeof(s->note), "%s", pf->cut_tail ? "cut before a record cut by the end of the file"
									      : "cut before a perf record uftrace cannot read safely");
		rc = write_prefix(dir, name, &map, cut);
	} else if (kk) {
		rc = write_kernel_pages(kk, dir, name, &map, s);
	} else if (text) {
		rc = write_text(p, in, dir, name, &map, s);
	} else if (strcmp(name, "info") == 0 && m->have_info && m->info.header_ok &&
		   (info_patchable(m) ||
		    (kernel_header_damaged(m) && (m->info.feat & UR_FEAT_KERNEL) && map.size >= UR_INFO_FEAT_AT + 8))) {
		rc = write_info_patched(m, dir, &map, s);
	} else if (p->map_from[0] && strcmp(name, p->map_from) == 0) {
		s->bytes_out = map.size;
		s->action = rp_action_name(RP_ACTION_REWRITTEN);
		snprintf(s->note, sizeof(s->note), "written as %s: the one session without its map, and no session names this one",
			 p->map_to);
		rc = write_prefix(dir, p->map_to, &map, map.size);
	} else {
		s->bytes_out = map.size;
		rc = write_prefix(dir, name, &map, map.size);
	}
	tfk_member_close(&map);
	return rc;
}

int ur_write_dir(const void *model, const struct tfk_input *in, struct rp_dir *dir, struct tfk_repair_report *rep)
{
	const struct ur_model *m = model;
	const char *why = refusal(m, in, rep);
	if (why) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = why;
		return 1;
	}
	struct plan p;
	int rc = plan_make(&p, m, in, rep);
	size_t cap = 0;
	for (size_t i = 0; rc == 0 && i < in->n; i++) {
		const struct tfk_member *mem = &in->members[i];
		if (mem->kind == TFK_MEMBER_DIR)
			continue; /* made as its members are written */
		struct tfk_salvage_member *s = salvage(rep, &cap, mem->name);
		if (!s) {
			errno = ENOMEM;
			rc = -1;
			break;
		}
		if (mem->kind != TFK_MEMBER_FILE) {
			s->action = rp_action_name(RP_ACTION_LEFT_OUT);
			snprintf(s->note, sizeof(s->note), "%s",
				 mem->kind == TFK_MEMBER_FIFO ? "the FIFO a killed uftrace record leaves behind"
				 : mem->kind == TFK_MEMBER_LINK ? "a symbolic link (never followed)"
								 : "not a regular file");
			continue;
		}
		rc = write_member(&p, in, mem, dir, s);
	}
	if (rc == 0 && p.rebuild_task) {
		struct tfk_salvage_member *s = NULL;
		for (size_t i = 0; i < rep->nmembers; i++)
			if (strcmp(rep->members[i].member, "task.txt") == 0)
				s = &rep->members[i];
		if (!s)
			s = salvage(rep, &cap, "task.txt");
		rc = s ? write_task_txt(&p, dir, s) : (errno = ENOMEM, -1);
	}
	if (rc == 0 && p.rebuild_info) {
		struct rp_blob b = { 0 };
		struct rp_out o;
		memset(&o, 0, sizeof(o));
		struct tfk_salvage_member *s = NULL;
		for (size_t i = 0; i < rep->nmembers; i++)
			if (strcmp(rep->members[i].member, "info") == 0 && rp_action_is(&rep->members[i], RP_ACTION_REBUILT))
				s = &rep->members[i];
		if (!s && (s = salvage(rep, &cap, "info")) != NULL) {
			s->action = rp_action_name(RP_ACTION_REBUILT);
			snprintf(s->note, sizeof(s->note), "missing (a killed recording): made from task.txt and the task files");
		}
		if (!s || !ur_info_build(m, p.tids, p.ntids, p.perf_kept, &b)) {
			errno = ENOMEM;
			rc = -1;
		} else {
			rp_out_put(&o, b.data, b.len);
			s->bytes_out = b.len;
			rc = o.oom ? (errno = ENOMEM, -1) : rp_dir_member(dir, "info", &o);
		}
		rp_out_free(&o);
		free(b.data);
	}
	free(p.tids);
	free(p.firsts);
	return rc;
}
