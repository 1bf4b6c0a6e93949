/* SPDX-License-Identifier: MIT */
#include "workers.h"

#include <stdlib.h>

#include "context.h"

unsigned tfk_workers_start(struct tfk_workers *w, const struct tfk_ctx *ctx, unsigned want, void *(*fn)(void *),
			   void *args, size_t stride)
{
	w->n = 0;
	w->threads = want ? tfk_calloc_optional(ctx, want, sizeof(*w->threads)) : NULL;
	if (!w->threads)
		return 0;
	while (w->n < want && pthread_create(&w->threads[w->n], NULL, fn, (char *)args + (size_t)w->n * stride) == 0)
		w->n++;
	if (!w->n) {
		free(w->threads);
		w->threads = NULL;
	}
	return w->n;
}

void tfk_workers_join(struct tfk_workers *w)
{
	for (unsigned i = 0; i < w->n; i++)
		pthread_join(w->threads[i], NULL);
	free(w->threads);
	w->threads = NULL;
	w->n = 0;
}
