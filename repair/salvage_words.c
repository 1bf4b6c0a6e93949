/* SPDX-License-Identifier: MIT */
/* The words of a member's salvage (common.h): one place renders each action and unit. */
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "tracefsck/repair.h"

const char *rp_action_name(enum rp_action a)
{
	switch (a) {
	case RP_ACTION_COPIED: return "copied";
	case RP_ACTION_TRUNCATED: return "truncated";
	case RP_ACTION_REWRITTEN: return "rewritten";
	case RP_ACTION_REBUILT: return "rebuilt";
	case RP_ACTION_LEFT_OUT: return "left out";
	}
	return "copied";
}

bool rp_action_is(const struct tfk_salvage_member *m, enum rp_action a)
{
	return m->action && strcmp(m->action, rp_action_name(a)) == 0;
}

static const char *unit_name(enum rp_unit u)
{
	switch (u) {
	case RP_UNIT_EVENTS: return "events";
	case RP_UNIT_RECORDS: return "records";
	case RP_UNIT_LINES: return "lines";
	}
	return "";
}

void rp_set_unit(struct tfk_salvage_member *m, enum rp_unit u)
{
	snprintf(m->unit, sizeof(m->unit), "%s", unit_name(u));
}

bool rp_unit_is(const struct tfk_salvage_member *m, enum rp_unit u)
{
	return strncmp(m->unit, unit_name(u), sizeof(m->unit)) == 0;
}
