/* SPDX-License-Identifier: MIT */
/*
 * Valid metadata shapes that readers differ on, named by notes so their hazards can attach to
 * them: a stream's event.context holding a sequence whose length is a field of that context.
 */
#include <stdio.h>
#include <string.h>

#include "ctf.h"

/* Does struct t hold, among its own fields, a sequence whose length is another of them? */
static bool sequence_of_sibling(const struct ctf_type *t)
{
	if (!t || t->kind != CTF_STRUCT)
		return false;
	for (size_t i = 0; i < t->nfields; i++) {
		const struct ctf_type *f = t->fields[i].type;
		if (!f || f->kind != CTF_SEQ || !f->length_name || strchr(f->length_name, '.'))
			continue;
		for (size_t k = 0; k < i; k++)
			if (strcmp(t->fields[k].name, f->length_name) == 0)
				return true;
	}
	return false;
}

void ctf_note_shapes(struct tfk_ctx *ctx, const struct ctf_meta *m)
{
	for (size_t i = 0; i < m->nstreams; i++) {
		const struct ctf_stream_class *sc = &m->streams[i];
		if (!sequence_of_sibling(sc->event_context))
			continue;
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CTF_METADATA_CONTEXT_SEQUENCE);
		tfk_set_path(f, "stream %llu event.context", (unsigned long long)sc->id);
		tfk_set_expected(f, "fields of fixed size, or a sequence's length outside the context");
		tfk_set_found(f, "a sequence sized by a field of the context (metadata line %u)", sc->line);
	}
}
