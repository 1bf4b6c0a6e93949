/* SPDX-License-Identifier: MIT */
/*
 * What a check is given: one file, or a directory of member files (uftrace, CTF, LTTng 0.x and
 * perf --threads traces are directories). A directory is listed once, recursively, without
 * following a symbolic link or opening anything that is not a regular file; members are
 * mapped one at a time when a format asks for them, opened beneath the directory component
 * by component, so that no link, inside or out, is ever followed.
 */
#ifndef TFK_INPUT_H
#define TFK_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"

struct tfk_ctx;

#define TFK_MEMBER_NAME_MAX 256 /* relative path of a member, '/'-separated */
/* directories below the one given: an lttng-relayd output root holds
 * host/session/archives/chunk/ust/uid/UID/64-bit/index, ten levels */
#define TFK_INPUT_MAX_DEPTH 12

enum tfk_member_kind {
	TFK_MEMBER_FILE = 0,  /* a regular file */
	TFK_MEMBER_DIR,       /* a directory (its members follow it in the list) */
	TFK_MEMBER_LINK,      /* a symbolic link: listed, never followed */
	TFK_MEMBER_FIFO,      /* a FIFO (a killed recorder's channel): never opened */
	TFK_MEMBER_OTHER,     /* a device or socket: never opened */
	TFK_MEMBER_ERROR,     /* could not be examined: err says why */
};

struct tfk_member {
	char name[TFK_MEMBER_NAME_MAX];
	enum tfk_member_kind kind;
	uint64_t size;            /* of a regular file */
	int err;                  /* errno, for TFK_MEMBER_ERROR */
	char target[128];         /* a link's target, as read (raw bytes, NUL-terminated, may be cut) */
	bool target_outside;      /* the link points outside the directory (absolute, or climbs out) */
};

/* Whether a member changed while the check read it (input.c); shared by the check's threads. */
struct tfk_input_change;

struct tfk_input {
	int dirfd;                /* the directory, or -1 */
	struct tfk_member *members; /* sorted by name, so reports do not depend on readdir order */
	size_t n, cap;
	size_t max_members;
	bool too_many;            /* more members than max_members: the rest are not listed */
	bool too_deep;            /* a directory deeper than TFK_INPUT_MAX_DEPTH was not listed */
	uint64_t total_size;      /* of the regular files listed */
	struct tfk_input_change *change; /* NULL when it could not be allocated: nothing is told */
};

/* A member mapped read-only (data NULL when it is empty). */
struct tfk_member_map {
	const uint8_t *data;
	size_t size;
	int fd;                   /* open while mapped (windowed reads), or -1 */
	int guard;                /* mapguard.h slot, or -1 */
	uint64_t size0;           /* size and modification time when opened */
	int64_t mtime_s, mtime_ns;
	struct tfk_input_change *change;
	char name[TFK_MEMBER_NAME_MAX]; /* the member's, for the change it may report */
};

/*
 * List the directory open at dirfd (taken over: closed by tfk_input_close) into in, at most
 * max_members members. Returns 0, or -1 with errno when the directory cannot be read at all.
 */
int tfk_input_list(struct tfk_input *in, int dirfd, size_t max_members);
void tfk_input_close(struct tfk_input *in);

/*
 * The first member that changed while it was read (its size or modification time is not what
 * the listing or its opening saw, or it shrank under its mapping), or NULL. *cut: it shrank.
 */
const char *tfk_input_changed(const struct tfk_input *in, bool *cut);

/*
 * A member that could not be read (errno err; what: the member's role): a warning and the check
 * incomplete, never corruption. ENAMETOOLONG, a path longer than this build lists, is a limit.
 */
void tfk_member_unreadable(struct tfk_ctx *ctx, const char *name, const char *what, int err);

/* The member of that relative name, or NULL. */
const struct tfk_member *tfk_input_find(const struct tfk_input *in, const char *name);

/*
 * Map a regular member read-only, opened beneath the directory with no link followed.
 * Returns 0, or -1 with errno (ELOOP for a link met on the way, EINVAL for a member that is
 * not a regular file any more).
 */
int tfk_member_open(const struct tfk_input *in, const struct tfk_member *m, struct tfk_member_map *map);
void tfk_member_close(struct tfk_member_map *map);

/*
 * Make the checks in ctx read a member (name, and its mapping when mapped): findings name it,
 * windowed reads use its file. Returns what ctx read before, for tfk_ctx_return.
 */
struct tfk_ctx_place {
	const char *member;
	const uint8_t *map;
	size_t map_size;
	int fd;
};
struct tfk_ctx_place tfk_ctx_enter_member(struct tfk_ctx *ctx, const char *name, const struct tfk_member_map *map);
void tfk_ctx_return(struct tfk_ctx *ctx, struct tfk_ctx_place before);

/*
 * Check a file or trace directory by path, as tfk_check_file_observed; in_folder: it was found
 * by a search of a folder (units.h), so a file no format recognises is a note, not an error.
 */
struct tfk_report;
struct tfk_limits;
struct tfk_observer;
void tfk_check_found(const char *path, bool in_folder, const struct tfk_limits *limits,
		     const struct tfk_observer *observer, struct tfk_report *report);

#endif
