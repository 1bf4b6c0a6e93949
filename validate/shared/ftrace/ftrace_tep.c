/* SPDX-License-Identifier: MIT */
/*
 * The questions the check asks libtraceevent, apart from the process they are asked in: a
 * handle set up for the trace, then one question per kept format. The guarded child and the
 * in-process parse of the fuzz harnesses both come here, so that a fuzzer exercises exactly the
 * requests the child makes on untrusted files.
 */
#include <traceevent/event-parse.h>

#include "ftrace_tep.h"

/* Parsing needs only the names and arity of the print helpers formats call; printing is never
 * asked of this handle, so the helpers do nothing. */
static unsigned long long no_print(struct trace_seq *s, unsigned long long *args)
{
	(void)s;
	(void)args;
	return 0;
}

/*
 * The helpers trace-cmd's plugins register (libtraceevent 1.7: cfg80211, jbd2, kvm, scsi, xen),
 * registered here instead of loading the plugins: with them, a format counts as parsable exactly
 * when trace-cmd can print it, without a dlopen of every plugin in every child. The other plugins
 * register event handlers only, which change how events print, not whether their format parses.
 */
static void register_helpers(struct tep_handle *tep)
{
	tep_register_print_function(tep, no_print, TEP_FUNC_ARG_INT, "__le16_to_cpup", TEP_FUNC_ARG_PTR,
				    TEP_FUNC_ARG_VOID);
	tep_register_print_function(tep, no_print, TEP_FUNC_ARG_STRING, "jbd2_dev_to_name", TEP_FUNC_ARG_INT,
				    TEP_FUNC_ARG_VOID);
	tep_register_print_function(tep, no_print, TEP_FUNC_ARG_LONG, "jiffies_to_msecs", TEP_FUNC_ARG_LONG,
				    TEP_FUNC_ARG_VOID);
	tep_register_print_function(tep, no_print, TEP_FUNC_ARG_INT, "is_writable_pte", TEP_FUNC_ARG_LONG,
				    TEP_FUNC_ARG_VOID);
	tep_register_print_function(tep, no_print, TEP_FUNC_ARG_STRING, "scsi_trace_parse_cdb", TEP_FUNC_ARG_PTR,
				    TEP_FUNC_ARG_PTR, TEP_FUNC_ARG_INT, TEP_FUNC_ARG_VOID);
	tep_register_print_function(tep, no_print, TEP_FUNC_ARG_STRING, "xen_hypercall_name", TEP_FUNC_ARG_INT,
				    TEP_FUNC_ARG_VOID);
}

struct tep_handle *td_tep_open(const struct td_check *td)
{
	struct tep_handle *tep = tep_alloc();
	if (!tep)
		return NULL;
	tep_set_file_bigendian(tep, td->file.big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, td->geo.commit_size ? (int)td->geo.commit_size : 8);
	tep_set_page_size(tep, (int)td->geo.page_size);
	register_helpers(tep);
	return tep;
}

bool td_tep_parses(struct tep_handle *tep, const struct td_check *td, const struct td_fmt_ref *r)
{
	struct tep_event *event = NULL;
	enum tep_errno rc = tep_parse_format(tep, &event, td->fmt_text + r->start, r->len, r->system);
	/* libtraceevent keeps formats it half understood, flagged as failed. */
	return rc == 0 && event && !(event->flags & TEP_EVENT_FL_FAILED);
}

void td_tep_start_failed(struct td_check *td, size_t next)
{
	/* No format is to blame, and none was parsed by libtraceevent. */
	tfk_limit_hit(td->ctx, td->fmt_refs[next].offset, "libtraceevent start-up (formats left to our grammar)", 1, 0);
}
