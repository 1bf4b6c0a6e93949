/* SPDX-License-Identifier: MIT */
/*
 * CTF 2 metadata is a JSON text sequence (RFC 7464): fragments, each the byte RS (0x1E) and
 * one JSON object. ctf_json.c reads one fragment into a tree of values in the metadata's
 * arena, reporting each fault of the JSON itself at its byte offset.
 */
#ifndef TFK_CTF_JSON_H
#define TFK_CTF_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctf.h"

#define CJ_MAX_DEPTH 64          /* objects and arrays inside each other */
#define CJ_MAX_STRING (64u << 10) /* bytes of one string or key, once unescaped */
#define CJ_MAX_VALUES (1u << 20) /* values of the whole metadata */

enum cj_kind { CJ_NULL, CJ_BOOL, CJ_UINT, CJ_INT, CJ_REAL, CJ_STRING, CJ_ARRAY, CJ_OBJECT };

struct cj_value {
	uint8_t kind;
	bool b;
	uint64_t u;         /* CJ_UINT */
	int64_t i;          /* CJ_INT (negative integers only; CJ_UINT otherwise) */
	const char *s;      /* CJ_STRING: unescaped, NUL-terminated */
	uint32_t len;       /* of s */
	uint32_t n;         /* CJ_ARRAY items, CJ_OBJECT members */
	const char *key;    /* a member's key, unescaped and NUL-terminated */
	uint32_t key_len;
	struct cj_value *first, *next; /* items or members in order */
	uint64_t at;        /* text offset of the value's first byte */
	uint64_t key_at;    /* text offset of a member's key */
};

struct cj_budget {
	uint64_t values; /* made so far, across fragments */
	char *scratch;   /* CJ_MAX_STRING + 8 bytes for unescaping, made by the first fragment; free() it */
};

/*
 * The JSON object of one fragment: text[from, to) after its RS. NULL when it is not one (each
 * fault reported with the fragment's index and offset). cut: the fragment is the last and the
 * text ends inside its object (*cut set, reported by the caller's code).
 */
struct cj_value *ctf_json_fragment(struct tfk_ctx *ctx, struct ctf_arena *arena, const struct ctf_text *text,
				   size_t from, size_t to, uint64_t index, struct cj_budget *budget, bool *cut,
				   size_t *trailing);

/* A member of an object by key, or NULL. */
const struct cj_value *cj_get(const struct cj_value *obj, const char *key);

#endif
