/* SPDX-License-Identifier: MIT */
#include <stddef.h>

#include "tracefsck/limits.h"

struct tfk_limits tfk_limits_default(void)
{
	struct tfk_limits l = {
		.max_findings = 10000,
		.max_cpus = 8192,          /* the kernel's largest NR_CPUS */
		.max_buffers = 1024,
		.max_options = 1u << 20,
		.max_format_blobs = 1u << 20,
		.max_string = 4096,
		.max_page_size = 1u << 27, /* commit lengths are 27 bits */
		.max_decoded = 256u << 20, /* kallsyms, the largest block, is a few MiB */
		.max_per_place = 20,
		.max_members = 100000,
		.max_input_bytes = 8ull << 30,
		.input_idle_ms = 60000,
		.parser_timeout_ms = 10000,
		.test_hooks = NULL,
	};
	return l;
}
