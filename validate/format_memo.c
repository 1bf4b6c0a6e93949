/* SPDX-License-Identifier: MIT */
/*
 * The format memo (tracefsck/format_memo.h): a table of 128-bit keys and verdicts under one
 * lock, and its optional cache directory.
 *
 * The cache holds a key file ("key", 16 random bytes, 0600) and entries, each one file written
 * whole (a temporary file renamed into place) and named by its own MAC:
 *
 *   "TFKFMEMO"  u32 version (1)  u32 count  count x (16-byte key, 1-byte verdict)  16-byte MAC
 *
 * (little-endian), the MAC a wide SipHash under a key drawn from the directory's key over every
 * byte before it. The keys of the table are SipHashes under another key drawn from the same
 * one, so an entry made under another directory's key names nothing here, and one a person
 * wrote without the key does not verify: both are ignored and listed, never believed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format_memo.h"

#define MAX_ENTRIES (1u << 20)        /* verdicts held: far above any kernel's catalogue */
#define MAX_CACHE_FILES 4096u         /* entries read from a cache directory */
#define MAX_IGNORED 64u               /* ignored entries listed (the rest are counted only) */
#define MAGIC "TFKFMEMO"
#define HEAD_BYTES 16u
#define RECORD_BYTES (TFK_MEMO_KEY_BYTES + 1u)
#define MAX_ENTRY_BYTES (HEAD_BYTES + (size_t)MAX_ENTRIES * RECORD_BYTES + TFK_SIP128_BYTES)

struct slot {
	uint8_t key[TFK_MEMO_KEY_BYTES];
	uint8_t verdict;    /* 0: empty */
	uint8_t fresh;      /* learnt this run, not yet saved */
};

struct ignored {
	char name[80];
	char why[96];
};

struct tfk_format_memo {
	pthread_mutex_t mu;
	uint8_t name_key[TFK_SIP_KEY_BYTES]; /* keys the questions */
	uint8_t seal_key[TFK_SIP_KEY_BYTES]; /* seals the cache's entries */
	struct slot *slots;
	size_t cap, used, fresh;
	uint64_t hits, misses, loaded;
	int dirfd;          /* the cache directory, or -1 */
	struct ignored *ignored;
	size_t nignored;
};

struct tfk_format_memo *tfk_format_memo_new(void)
{
	struct tfk_format_memo *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->dirfd = -1;
	size_t got = 0;
	while (got < sizeof(m->name_key)) {
		ssize_t r = getrandom(m->name_key + got, sizeof(m->name_key) - got, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			free(m);
			return NULL;
		}
		got += (size_t)r;
	}
	if (pthread_mutex_init(&m->mu, NULL) != 0) {
		free(m);
		return NULL;
	}
	return m;
}

void tfk_format_memo_free(struct tfk_format_memo *m)
{
	if (!m)
		return;
	if (m->dirfd >= 0)
		close(m->dirfd);
	pthread_mutex_destroy(&m->mu);
	free(m->slots);
	free(m->ignored);
	free(m);
}

void tfk_memo_key_begin(const struct tfk_format_memo *m, struct tfk_sip *s)
{
	tfk_sip_init(s, m->name_key, 1);
}

static uint64_t slot_hash(const uint8_t key[TFK_MEMO_KEY_BYTES])
{
	uint64_t h = 0;
	memcpy(&h, key, sizeof(h)); /* the key is a keyed hash already: any eight bytes spread */
	return h;
}

/* The slot of key, or the empty slot it would take. Caller holds the lock; cap > 0. */
static struct slot *find(struct tfk_format_memo *m, const uint8_t key[TFK_MEMO_KEY_BYTES])
{
	size_t i = (size_t)slot_hash(key) & (m->cap - 1);
	for (;; i = (i + 1) & (m->cap - 1)) {
		struct slot *s = &m->slots[i];
		if (!s->verdict || memcmp(s->key, key, TFK_MEMO_KEY_BYTES) == 0)
			return s;
	}
}

/* Room for one more (the table kept at most half full). Caller holds the lock. */
static bool room(struct tfk_format_memo *m)
{
	if (m->used >= MAX_ENTRIES)
		return false;
	if ((m->used + 1) * 2 <= m->cap)
		return true;
	size_t cap = m->cap ? m->cap * 2 : 4096;
	struct slot *old = m->slots, *nv = calloc(cap, sizeof(*nv));
	if (!nv)
		return false; /* a memo that stops learning: later files pay the parse, no more */
	size_t oldcap = m->cap;
	m->slots = nv;
	m->cap = cap;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].verdict)
			*find(m, old[i].key) = old[i];
	free(old);
	return true;
}

int tfk_memo_get(struct tfk_format_memo *m, const uint8_t key[TFK_MEMO_KEY_BYTES])
{
	pthread_mutex_lock(&m->mu);
	int v = m->cap ? find(m, key)->verdict : 0;
	if (v)
		m->hits++;
	else
		m->misses++;
	pthread_mutex_unlock(&m->mu);
	return v;
}

/* Caller holds the lock. */
static void put_locked(struct tfk_format_memo *m, const uint8_t key[TFK_MEMO_KEY_BYTES], int verdict, bool fresh)
{
	if (verdict != TFK_MEMO_PARSES && verdict != TFK_MEMO_REJECTS)
		return;
	if (m->cap && find(m, key)->verdict)
		return; /* libtraceevent answers a text alike every time: the first answer stays */
	if (!room(m))
		return;
	struct slot *s = find(m, key);
	memcpy(s->key, key, TFK_MEMO_KEY_BYTES);
	s->verdict = (uint8_t)verdict;
	s->fresh = fresh;
	m->used++;
	m->fresh += fresh;
}

void tfk_memo_put(struct tfk_format_memo *m, const uint8_t key[TFK_MEMO_KEY_BYTES], int verdict)
{
	pthread_mutex_lock(&m->mu);
	put_locked(m, key, verdict, true);
	pthread_mutex_unlock(&m->mu);
}

struct tfk_format_memo_stats tfk_format_memo_stats(const struct tfk_format_memo *cm)
{
	struct tfk_format_memo *m = (struct tfk_format_memo *)cm; /* the lock only */
	pthread_mutex_lock(&m->mu);
	struct tfk_format_memo_stats st = { m->hits, m->misses, m->used, m->loaded };
	pthread_mutex_unlock(&m->mu);
	return st;
}

/* ---- the cache directory ---- */

__attribute__((format(printf, 3, 4))) static int fail(char *why, size_t len, const char *fmt, ...)
{
	if (why && len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void derive(const uint8_t dir_key[TFK_SIP_KEY_BYTES], const char *purpose, uint8_t out[TFK_SIP_KEY_BYTES])
{
	struct tfk_sip s;
	tfk_sip_init(&s, dir_key, 1);
	tfk_sip_update(&s, purpose, strlen(purpose) + 1);
	tfk_sip_final128(&s, out);
}

static void seal(const struct tfk_format_memo *m, const uint8_t *p, size_t n, uint8_t mac[TFK_SIP128_BYTES])
{
	struct tfk_sip s;
	tfk_sip_init(&s, m->seal_key, 1);
	tfk_sip_update(&s, p, n);
	tfk_sip_final128(&s, mac);
}

static bool read_all(int fd, uint8_t *p, size_t n)
{
	while (n) {
		ssize_t r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p += r;
		n -= (size_t)r;
	}
	return true;
}

static bool write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t r = write(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p += r;
		n -= (size_t)r;
	}
	return true;
}

/* A file of the directory, opened without following a link: a regular file of ours that no
 * one else may write, or -1 with why filled. */
static int open_ours(int dirfd, const char *name, struct stat *st, char *why, size_t len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return fail(why, len, "cannot be opened (%s)", strerror(errno));
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		return fail(why, len, "not a regular file");
	}
	if (st->st_uid != geteuid() || (st->st_mode & 022)) {
		close(fd);
		return fail(why, len, "owned by another user or writable by others");
	}
	return fd;
}

/* The directory's key: read, or made and published with link() so that two runs starting at
 * once agree on one. */
static int dir_key(int dirfd, uint8_t key[TFK_SIP_KEY_BYTES], char *why, size_t len)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		struct stat st;
		int fd = openat(dirfd, "key", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			char sub[96];
			fd = open_ours(dirfd, "key", &st, sub, sizeof(sub));
			if (fd < 0)
				return fail(why, len, "its key file %s", sub);
			bool ok = st.st_size == TFK_SIP_KEY_BYTES && read_all(fd, key, TFK_SIP_KEY_BYTES);
			close(fd);
			if (!ok)
				return fail(why, len, "its key file is not %u bytes", TFK_SIP_KEY_BYTES);
			return 0;
		}
		if (errno != ENOENT)
			return fail(why, len, "its key file cannot be opened (%s)", strerror(errno));
		uint8_t k[TFK_SIP_KEY_BYTES];
		if (getrandom(k, sizeof(k), 0) != (ssize_t)sizeof(k))
			return fail(why, len, "no randomness for its key");
		char tmp[64];
		snprintf(tmp, sizeof(tmp), ".key-%ld", (long)getpid());
		unlinkat(dirfd, tmp, 0);
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			return fail(why, len, "its key file cannot be made (%s)", strerror(errno));
		bool ok = write_all(fd, k, sizeof(k)) && fsync(fd) == 0;
		close(fd);
		int linked = ok ? linkat(dirfd, tmp, dirfd, "key", 0) : -1;
		int err = errno;
		unlinkat(dirfd, tmp, 0);
		if (linked == 0) {
			memcpy(key, k, sizeof(k));
			return 0;
		}
		if (!ok || err != EEXIST)
			return fail(why, len, "its key file cannot be made (%s)", strerror(err));
		/* another run made it first: read theirs */
	}
	return fail(why, len, "its key file cannot be made");
}

static void ignore(struct tfk_format_memo *m, const char *name, const char *why)
{
	if (m->nignored >= MAX_IGNORED)
		return;
	if (!m->ignored && !(m->ignored = calloc(MAX_IGNORED, sizeof(*m->ignored))))
		return;
	struct ignored *g = &m->ignored[m->nignored++];
	snprintf(g->name, sizeof(g->name), "%s", name);
	snprintf(g->why, sizeof(g->why), "%s", why);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void hex(const uint8_t *p, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = '\0';
}

/* Read one entry; its verdicts join the table only when the whole entry verifies. */
static void load_entry(struct tfk_format_memo *m, const char *name)
{
	struct stat st;
	char why[96];
	int fd = open_ours(m->dirfd, name, &st, why, sizeof(why));
	if (fd < 0) {
		ignore(m, name, why);
		return;
	}
	uint8_t *buf = NULL;
	size_t n = st.st_size > 0 ? (size_t)st.st_size : 0;
	const char *bad = NULL;
	if ((uint64_t)st.st_size > MAX_ENTRY_BYTES || n < HEAD_BYTES + TFK_SIP128_BYTES)
		bad = "not the size of an entry";
	else if (!(buf = malloc(n)) || !read_all(fd, buf, n))
		bad = "cannot be read";
	close(fd);
	uint32_t count = 0;
	if (!bad) {
		count = get32(buf + 12);
		if (memcmp(buf, MAGIC, 8) != 0 || get32(buf + 8) != 1)
			bad = "not an entry of this version";
		else if (count > MAX_ENTRIES || n != HEAD_BYTES + (size_t)count * RECORD_BYTES + TFK_SIP128_BYTES)
			bad = "its length does not match its count";
	}
	if (!bad) {
		uint8_t mac[TFK_SIP128_BYTES];
		char named[2 * TFK_SIP128_BYTES + 3];
		seal(m, buf, n - TFK_SIP128_BYTES, mac);
		named[0] = 'e', named[1] = '-';
		hex(mac, sizeof(mac), named + 2);
		/* constant-time compare is moot for a local file; a mismatch anywhere fails */
		if (memcmp(mac, buf + n - TFK_SIP128_BYTES, TFK_SIP128_BYTES) != 0)
			bad = "its MAC does not verify (corrupt, forged or of another key)";
		else if (strcmp(named, name) != 0)
			bad = "its name is not its MAC";
	}
	if (!bad)
		for (uint32_t i = 0; i < count && !bad; i++) {
			uint8_t v = buf[HEAD_BYTES + (size_t)i * RECORD_BYTES + TFK_MEMO_KEY_BYTES];
			if (v != TFK_MEMO_PARSES && v != TFK_MEMO_REJECTS)
				bad = "a verdict is neither parsed nor rejected";
		}
	if (bad) {
		ignore(m, name, bad);
		free(buf);
		return;
	}
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *r = buf + HEAD_BYTES + (size_t)i * RECORD_BYTES;
		size_t before = m->used;
		put_locked(m, r, r[TFK_MEMO_KEY_BYTES], false);
		m->loaded += m->used - before;
	}
	free(buf);
}

int tfk_format_memo_open_cache(struct tfk_format_memo *m, const char *dir, char *why, size_t len)
{
	if (m->dirfd >= 0 || m->used)
		return fail(why, len, "the memo is in use already");
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return fail(why, len, "cannot be created (%s)", strerror(errno));
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR))
		return fail(why, len, "not a directory (a symbolic link is not followed)");
	if (fd < 0)
		return fail(why, len, "cannot be opened (%s)", strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode)) {
		close(fd);
		return fail(why, len, "not a directory");
	}
	if (st.st_uid != geteuid()) {
		close(fd);
		return fail(why, len, "owned by another user (uid %u)", (unsigned)st.st_uid);
	}
	if (st.st_mode & 022) {
		close(fd);
		return fail(why, len, "writable by group or others (mode %03o; chmod 700 it)", (unsigned)(st.st_mode & 0777));
	}
	uint8_t key[TFK_SIP_KEY_BYTES];
	if (dir_key(fd, key, why, len) != 0) {
		close(fd);
		return -1;
	}
	pthread_mutex_lock(&m->mu);
	derive(key, "tracefsck format memo: names", m->name_key);
	derive(key, "tracefsck format memo: seals", m->seal_key);
	m->dirfd = fd;
	int lfd = dup(fd);
	DIR *d = lfd >= 0 ? fdopendir(lfd) : NULL;
	if (!d && lfd >= 0)
		close(lfd);
	unsigned files = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		if (strncmp(e->d_name, "e-", 2) != 0)
			continue; /* the key, temporary files, anything else a person left */
		if (files++ == MAX_CACHE_FILES) {
			ignore(m, e->d_name, "past the entries read from one cache (4096)");
			break;
		}
		load_entry(m, e->d_name);
	}
	if (d)
		closedir(d);
	pthread_mutex_unlock(&m->mu);
	return 0;
}

int tfk_format_memo_ignored(const struct tfk_format_memo *m, size_t i, const char **name, const char **why)
{
	if (i >= m->nignored)
		return -1;
	*name = m->ignored[i].name;
	*why = m->ignored[i].why;
	return 0;
}

int tfk_format_memo_save(struct tfk_format_memo *m, char *why, size_t len)
{
	pthread_mutex_lock(&m->mu);
	int rc = 0;
	if (m->dirfd < 0 || !m->fresh)
		goto out;
	size_t n = HEAD_BYTES + m->fresh * RECORD_BYTES + TFK_SIP128_BYTES;
	uint8_t *buf = malloc(n);
	if (!buf) {
		rc = fail(why, len, "out of memory");
		goto out;
	}
	memcpy(buf, MAGIC, 8);
	put32(buf + 8, 1);
	put32(buf + 12, (uint32_t)m->fresh);
	uint8_t *r = buf + HEAD_BYTES;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].verdict && m->slots[i].fresh) {
			memcpy(r, m->slots[i].key, TFK_MEMO_KEY_BYTES);
			r[TFK_MEMO_KEY_BYTES] = m->slots[i].verdict;
			r += RECORD_BYTES;
		}
	seal(m, buf, n - TFK_SIP128_BYTES, buf + n - TFK_SIP128_BYTES);
	char name[2 * TFK_SIP128_BYTES + 3], tmp[64];
	name[0] = 'e', name[1] = '-';
	hex(buf + n - TFK_SIP128_BYTES, TFK_SIP128_BYTES, name + 2);
	snprintf(tmp, sizeof(tmp), ".tmp-%ld", (long)getpid());
	unlinkat(m->dirfd, tmp, 0);
	int fd = openat(m->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	bool ok = fd >= 0 && write_all(fd, buf, n) && fsync(fd) == 0;
	int err = errno;
	if (fd >= 0 && close(fd) != 0 && ok) {
		ok = false;
		err = errno;
	}
	if (ok && renameat(m->dirfd, tmp, m->dirfd, name) != 0) {
		ok = false;
		err = errno;
	}
	if (!ok) {
		if (fd >= 0)
			unlinkat(m->dirfd, tmp, 0);
		rc = fail(why, len, "an entry cannot be written (%s)", strerror(err));
	} else {
		for (size_t i = 0; i < m->cap; i++)
			m->slots[i].fresh = 0;
		m->fresh = 0;
	}
	free(buf);
out:
	pthread_mutex_unlock(&m->mu);
	return rc;
}
