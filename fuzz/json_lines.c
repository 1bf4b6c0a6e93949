/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "json_lines.h"

struct in {
	const char *p, *end;
};

static int more(const struct in *s)
{
	return s->p < s->end;
}

static void ws(struct in *s)
{
	while (more(s) && *s->p == ' ')
		s->p++;
}

static int value(struct in *s, int depth);

static int string(struct in *s)
{
	if (!more(s) || *s->p++ != '"')
		return 0;
	while (more(s) && *s->p != '"') {
		unsigned char c = (unsigned char)*s->p;
		if (c < 0x20 || c >= 0x7f)
			return 0; /* the sinks emit ASCII only */
		if (c == '\\') {
			s->p++;
			if (!more(s))
				return 0;
			if (*s->p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (s->p + i >= s->end || !strchr("0123456789abcdefABCDEF", s->p[i]))
						return 0;
				s->p += 4;
			} else if (!strchr("\"\\/bfnrt", *s->p)) {
				return 0;
			}
		}
		s->p++;
	}
	if (!more(s))
		return 0;
	s->p++;
	return 1;
}

static int object(struct in *s, int depth)
{
	if (depth > 8 || !more(s) || *s->p++ != '{')
		return 0;
	ws(s);
	if (more(s) && *s->p == '}') {
		s->p++;
		return 1;
	}
	for (;;) {
		ws(s);
		if (!string(s))
			return 0;
		ws(s);
		if (!more(s) || *s->p++ != ':')
			return 0;
		ws(s);
		if (!value(s, depth + 1))
			return 0;
		ws(s);
		if (!more(s))
			return 0;
		if (*s->p == '}') {
			s->p++;
			return 1;
		}
		if (*s->p++ != ',')
			return 0;
	}
}

static int literal(struct in *s, const char *lit)
{
	size_t n = strlen(lit);
	if ((size_t)(s->end - s->p) < n || memcmp(s->p, lit, n) != 0)
		return 0;
	s->p += n;
	return 1;
}

static int value(struct in *s, int depth)
{
	if (!more(s))
		return 0;
	if (*s->p == '"')
		return string(s);
	if (*s->p == '{')
		return object(s, depth);
	if (*s->p == 'n')
		return literal(s, "null");
	if (*s->p == 't')
		return literal(s, "true");
	if (*s->p == 'f')
		return literal(s, "false");
	if (*s->p == '-' || (*s->p >= '0' && *s->p <= '9')) {
		s->p++;
		while (more(s) && *s->p >= '0' && *s->p <= '9')
			s->p++;
		return 1;
	}
	return 0;
}

int json_lines_valid(const char *text, size_t len, size_t *lines)
{
	struct in s = { text, text + len };
	*lines = 0;
	while (more(&s)) {
		if (!object(&s, 0) || !more(&s) || *s.p != '\n')
			return 0;
		s.p++;
		(*lines)++;
	}
	return 1;
}
