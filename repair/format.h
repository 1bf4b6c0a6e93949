/* SPDX-License-Identifier: MIT */
/*
 * The repair registry: one plug-in per format that can be repaired, each in its own folder
 * repair/<fmt>/ (a format of validate/formats/formats.list with such a folder) defining
 * `const struct rp_format rp_format_<fmt>`, which points at the check's descriptor of its
 * format. The driver (repair.c) knows no format: it picks the plug-in whose descriptor is the
 * one the check picks, has its observer build the model while the
 * input is checked, has it lay the output out as segments (struct rp_out), stores or views
 * them, re-checks, and lets the plug-in say what the salvage kept.
 */
#ifndef TFK_REPAIR_FORMAT_H
#define TFK_REPAIR_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output.h"
#include "tracefsck/observer.h"
#include "tracefsck/repair.h"
#include "tracefsck/sink.h"

struct rp_dir;
struct tfk_format;
struct tfk_input;

struct rp_format {
	/*
	 * The check format it repairs: that format's descriptor in the check's registry
	 * (formats/formats.h), which joins its sniff, check and dictionary to this plug-in.
	 */
	const struct tfk_format *format;
	/* Bytes of the plug-in's model, which the driver allocates zeroed. */
	size_t model_size;
	/*
	 * The observer that fills model while the input (in, size bytes) is checked. pass is 0,
	 * then 1 when check_again asked for a second check (the model zeroed again before it).
	 */
	struct tfk_observer (*observer)(void *model, const uint8_t *in, size_t size, unsigned pass);
	/* After pass 0 of a damaged input: must it be checked again? NULL: never. */
	bool (*check_again)(const void *model);
	void (*model_free)(void *model);
	/* What the salvage report says from the model alone, right after the check. NULL: nothing. */
	void (*stats)(const void *model, struct tfk_repair_report *rep);
	/*
	 * Lay the output out from the model of a damaged input (the check found more than notes).
	 * False when nothing is to be written: rep->outcome (and rep->reason) then say why.
	 */
	bool (*lay_out)(const void *model, const uint8_t *in, size_t size, struct tfk_repair_report *rep,
			struct rp_out *out);
	/*
	 * Once the output was laid out and re-checked: fill in what was lost (metadata_lost,
	 * options_dropped), and say whether it holds anything a reader would show.
	 */
	bool (*kept_any)(const void *model, struct tfk_repair_report *rep);
	/*
	 * The salvage report as text lines, each beginning with safe_name (already sanitised):
	 * what tfk_repair_report_text writes for a repair of this format. 0, or -1 from write.
	 */
	int (*salvage_text)(const struct tfk_repair_report *rep, const char *safe_name, tfk_write_fn write, void *user);
	/*
	 * Directory formats: write the output's members into dir (rp_dir_member, dir_output.h)
	 * from the model of the checked input directory in (its members mapped with
	 * tfk_member_open), and fill rep->members. NULL for single-file formats. 0 when the
	 * output was written; 1 when nothing is to be written (rep->outcome and rep->reason say
	 * why); -1 with errno set when writing failed. Called by tfk_repair_dir (repair_dir.c).
	 */
	int (*write_dir)(const void *model, const struct tfk_input *in, struct rp_dir *dir,
			 struct tfk_repair_report *rep);
	/*
	 * Directory formats: the events (or the format's records) kept and lost over the members
	 * that hold them, and whether more were lost uncounted, so that the JSON `salvage` totals
	 * say what the per-member lines say. NULL: the totals come from rep->cpus.
	 */
	void (*event_totals)(const struct tfk_repair_report *rep, uint64_t *kept, uint64_t *lost, bool *unknown);
	/*
	 * The account by kind (rep->parts, rp_part_add): each unit holding events and each
	 * metadata section, kept, lost in part or lost. Called once the output was re-checked and
	 * kept_any filled in what was lost. NULL: the account is made from rep->members
	 * (rp_account_from_members), each member counted in events or records a unit, any other
	 * a metadata section.
	 */
	void (*account)(const void *model, struct tfk_repair_report *rep);
	/* With no account hook: is this member of a directory metadata though it counts events? NULL: no. */
	bool (*member_is_metadata)(const struct tfk_salvage_member *m);
};

/* Append a part to rep's account, its name from fmt; NULL when out of memory (the account is then short). */
struct tfk_salvage_part *rp_part_add(struct tfk_repair_report *rep, enum tfk_salvage_kind kind,
				     enum tfk_salvage_state state, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The account of a directory made from what the salvage did with each member (format.h: account). */
void rp_account_from_members(const struct rp_format *fmt, struct tfk_repair_report *rep);
/* Fill rep's account through fmt's hook, or from its members: the drivers call it after kept_any. */
void rp_account(const struct rp_format *fmt, const void *model, struct tfk_repair_report *rep);

/* One per folder of repair/ named in formats.list (generated: rp_format_list.inc). */
#define RP_FORMAT(name) extern const struct rp_format rp_format_##name;
#include "rp_format_list.inc"
#undef RP_FORMAT

/* The plug-in repairing check format f (the descriptor itself, not its name), or NULL. */
const struct rp_format *rp_format_for(const struct tfk_format *f);
/* The plug-in of the format a check report came from (tfk_format_of_report), or NULL. */
const struct rp_format *rp_format_of_report(const struct tfk_report *report);

/*
 * Whether repair has work on an input whose check found faults, or found none but a writer
 * quirk that repair undoes: the one rule for every format, file or directory. A quirk's
 * finding (a code of the writer-quirk table) whose catalog entry names a repair action makes
 * a clean input worth rewriting (perf 6.16's overflowed COMPRESSED2 sizes, trace-cmd's stale
 * section options, LTTng 2.14.0's metadata without its signature line); any other clean
 * input is left as it is.
 */
bool rp_has_work(const struct tfk_report *before);

#endif
