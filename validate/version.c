/* SPDX-License-Identifier: MIT */
/*
 * The library's own version, for a program that must know which one it was linked with at run
 * time, and what the build reads with (tracefsck --version).
 */
#include <lzma.h>
#include <stdarg.h>
#include <stdio.h>
#ifdef TFK_HAVE_ARCHIVES
#include <archive.h>
#endif
#include <zlib.h>
#include <zstd.h>

#include "formats/formats.h"
#include "tracefsck/tracefsck.h"

/* libtraceevent has no version call: CMake passes the one pkg-config found at configure time. */
#ifndef TFK_TRACEEVENT_VERSION
#define TFK_TRACEEVENT_VERSION "unknown"
#endif

const char *tfk_version(unsigned *number)
{
	if (number)
		*number = TRACEFSCK_VERSION_NUMBER;
	return TRACEFSCK_VERSION;
}

/* snprintf at buf + *len, keeping *len the length the whole text needs. */
__attribute__((format(printf, 4, 5))) static void add(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(*len < n ? buf + *len : NULL, *len < n ? n - *len : 0, fmt, ap);
	va_end(ap);
	if (k > 0)
		*len += (size_t)k;
}

size_t tfk_build_features(char *buf, size_t n)
{
	size_t len = 0;
	if (n)
		buf[0] = '\0';
	add(buf, n, &len, "libtraceevent %s (event formats, parsed in a child process)\n", TFK_TRACEEVENT_VERSION);
	/* the codecs' own versions, as linked: a distribution may update them under the build */
	add(buf, n, &len, "codecs: zstd %s, zlib %s, xz (liblzma) %s\n", ZSTD_versionString(), zlibVersion(),
	    lzma_version_string());
#ifdef TFK_HAVE_ARCHIVES
	add(buf, n, &len, "trace.dat v7 compression: none, zstd, zlib; inputs compressed whole: xz, gzip, zstd, bzip2\n");
#else
	add(buf, n, &len, "trace.dat v7 compression: none, zstd, zlib; inputs compressed whole: xz, gzip, zstd\n");
#endif
#ifdef TFK_HAVE_ARCHIVES
	add(buf, n, &len, "archives read as folders (%s): tar, tar.gz, tar.xz, tar.zst, tar.bz2, zip\n",
	    archive_version_string());
#else
	add(buf, n, &len, "archives: not read (built without libarchive)\n");
#endif
	size_t nf;
	const struct tfk_format *const *f = tfk_formats(&nf);
	add(buf, n, &len, "formats:");
	for (size_t i = 0; i < nf; i++)
		add(buf, n, &len, "%s %s", i ? "," : "", f[i]->name);
	add(buf, n, &len, "\n");
	return len;
}
