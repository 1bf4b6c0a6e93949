/* SPDX-License-Identifier: MIT */
/* uftrace repair's model: what the check's messages (tracefsck/formats/uftrace.h) say, kept. */
#include <stdlib.h>
#include <string.h>

#include "formats/formats.h"
#include "uftrace_repair.h"

#define FIND(fn, type, arr, count)                                           \
	const type *fn(const struct ur_model *m, const char *name)           \
	{                                                                    \
		for (size_t i = 0; i < m->count; i++)                        \
			if (strncmp(m->arr[i].member, name, TFK_UFTRACE_MEMBER_MAX) == 0) \
				return &m->arr[i];                           \
		return NULL;                                                 \
	}
FIND(ur_member, struct tfk_uftrace_member, members, nmembers)
FIND(ur_task, struct tfk_uftrace_task, tasks, ntasks)
FIND(ur_sym, struct tfk_uftrace_sym, syms, nsyms)
FIND(ur_perf, struct tfk_uftrace_perf, perfs, nperfs)
#undef FIND

const struct ur_kernel *ur_kernel(const struct ur_model *m, const char *name)
{
	for (size_t i = 0; i < m->nkernels; i++)
		if (strncmp(m->kernels[i].k.member, name, TFK_UFTRACE_MEMBER_MAX) == 0)
			return &m->kernels[i];
	return NULL;
}

size_t ur_name(const struct ur_model *m, const char *name)
{
	for (size_t i = 0; i < m->nnames; i++)
		if (strncmp(m->names[i].name, name, TFK_UFTRACE_MEMBER_MAX) == 0)
			return i;
	return SIZE_MAX;
}

/* Append one struct of size to an array of the model. */
#define PUSH(m, arr, n, cap, value)                                                           \
	do {                                                                                  \
		if (rp_grow((void **)&(m)->arr, &(m)->cap, (m)->n + 1, sizeof(*(m)->arr)))    \
			(m)->arr[(m)->n++] = (value);                                         \
		else                                                                          \
			(m)->oom = true;                                                      \
	} while (0)

static void add_line(struct ur_model *m, const struct tfk_uftrace_line *l)
{
	if (m->nlines >= UR_MAX_LINES) {
		m->too_many = true;
		return;
	}
	char name[TFK_UFTRACE_MEMBER_MAX];
	memcpy(name, l->member, sizeof(name));
	name[sizeof(name) - 1] = '\0';
	size_t idx = ur_name(m, name);
	if (idx == SIZE_MAX) {
		if (!rp_grow((void **)&m->names, &m->cap_names, m->nnames + 1, sizeof(*m->names))) {
			m->oom = true;
			return;
		}
		memcpy(m->names[m->nnames].name, name, sizeof(name));
		m->names[m->nnames].first = m->nlines;
		idx = m->nnames++;
	}
	struct ur_line ul = { idx, l->offset, l->len };
	PUSH(m, lines, nlines, cap_lines, ul);
}

static void add_task_line(struct ur_model *m, const struct tfk_uftrace_task_line *t)
{
	if (t->kind == TFK_UFTRACE_SESS && !m->exename[0]) {
		memcpy(m->exename, t->exename, sizeof(m->exename));
		m->exename[sizeof(m->exename) - 1] = '\0';
	}
	if (t->kind == TFK_UFTRACE_SESS && m->nsids == 0) {
		m->sess_pid = t->pid;
		m->sess_ns = t->ns;
	}
	if (t->kind == TFK_UFTRACE_SESS) {
		if (m->nsids >= UR_MAX_TIDS) {
			m->too_many = true;
		} else if (rp_grow((void **)&m->sids, &m->cap_sids, m->nsids + 1, sizeof(*m->sids))) {
			memcpy(m->sids[m->nsids], t->sid, 16);
			m->sids[m->nsids++][16] = '\0';
		} else {
			m->oom = true;
		}
	}
	int64_t tid = t->kind == TFK_UFTRACE_TASK ? t->tid : t->kind == TFK_UFTRACE_FORK ? t->pid : -1;
	if (tid <= 0)
		return;
	for (size_t i = 0; i < m->ntids; i++)
		if (m->tids[i] == tid)
			return;
	if (m->ntids >= UR_MAX_TIDS) {
		m->too_many = true;
		return;
	}
	PUSH(m, tids, ntids, cap_tids, tid);
}

/* The observer's model hook: keep each message of uftrace's check. */
static void on_model(void *user, const struct tfk_format *format, uint32_t kind, const void *data, size_t size)
{
	struct ur_model *m = user;
	if (format != &tfk_format_uftrace)
		return;
	switch (kind) {
	case TFK_UFTRACE_MODEL_INFO:
		if (size == sizeof(m->info)) {
			memcpy(&m->info, data, size);
			m->have_info = true;
		}
		break;
	case TFK_UFTRACE_MODEL_MEMBER:
		if (size == sizeof(struct tfk_uftrace_member))
			PUSH(m, members, nmembers, cap_members, *(const struct tfk_uftrace_member *)data);
		break;
	case TFK_UFTRACE_MODEL_LINE:
		if (size == sizeof(struct tfk_uftrace_line))
			add_line(m, data);
		break;
	case TFK_UFTRACE_MODEL_TASK_LINE:
		if (size == sizeof(struct tfk_uftrace_task_line))
			add_task_line(m, data);
		break;
	case TFK_UFTRACE_MODEL_TASK:
		if (size == sizeof(struct tfk_uftrace_task))
			PUSH(m, tasks, ntasks, cap_tasks, *(const struct tfk_uftrace_task *)data);
		break;
	case TFK_UFTRACE_MODEL_SYM:
		if (size == sizeof(struct tfk_uftrace_sym))
			PUSH(m, syms, nsyms, cap_syms, *(const struct tfk_uftrace_sym *)data);
		break;
	case TFK_UFTRACE_MODEL_PERF:
		if (size == sizeof(struct tfk_uftrace_perf))
			PUSH(m, perfs, nperfs, cap_perfs, *(const struct tfk_uftrace_perf *)data);
		break;
	case TFK_UFTRACE_MODEL_KERNEL:
		if (size == sizeof(struct tfk_uftrace_kernel))
			ur_kernel_begin(m, data);
		break;
	default:
		break;
	}
}

struct tfk_observer ur_observer(void *model, const uint8_t *in, size_t size, unsigned pass)
{
	(void)in, (void)size, (void)pass;
	return (struct tfk_observer){ .user = model, .model = on_model, .page = ur_kernel_page };
}

void ur_model_free(void *model)
{
	struct ur_model *m = model;
	free(m->members);
	free(m->names);
	free(m->lines);
	free(m->tasks);
	free(m->syms);
	free(m->perfs);
	for (size_t i = 0; i < m->nkernels; i++)
		free(m->kernels[i].pages);
	free(m->kernels);
	free(m->tids);
	free(m->sids);
}
