/* SPDX-License-Identifier: MIT */
/*
 * The leash of a parser child. libtraceevent parses event formats taken from the file: hostile
 * text given to a library that was not written for hostile text. Its child process is forked
 * from tracefsck, so it holds tracefsck's descriptors, privileges and address space; this takes
 * away everything parsing does not need, so that a parser an input managed to subvert can
 * neither reach files, the network or other processes, nor exhaust the machine. It can only
 * compute, write its answers into the pipe and the shared memory its parent gave it, and end.
 *
 * The filter is an allow list of system call numbers, checked together with the architecture
 * the call was made in (a 32-bit or x32 call on x86-64 has other numbers: it is killed).
 */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TFK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define TFK_SANITIZED 1
#endif
#endif

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define TFK_UNDER_VALGRIND() RUNNING_ON_VALGRIND
#endif
#endif
#ifndef TFK_UNDER_VALGRIND
#define TFK_UNDER_VALGRIND() 0
#endif

#if defined(__x86_64__) && defined(__LP64__)
#define TFK_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TFK_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS SECCOMP_RET_KILL
#endif

const char *tfk_sandbox_filter_off(void)
{
#ifdef TFK_SANITIZED
	return "a sanitizer build (its run-time opens files and maps memory to report)";
#else
	if (TFK_UNDER_VALGRIND())
		return "running under Valgrind";
#ifndef TFK_AUDIT_ARCH
	return "an architecture the filter has no system call numbers for";
#else
	return NULL;
#endif
#endif
}

/* Every descriptor but 0-2 and keep: another thread's pipes and files included. */
static void close_others(int keep)
{
#ifdef SYS_close_range
	if (keep > 3 && syscall(SYS_close_range, 3u, (unsigned)keep - 1, 0u) != 0)
		goto by_hand;
	if (syscall(SYS_close_range, (unsigned)keep + 1, ~0u, 0u) == 0)
		return;
by_hand:
#endif
	{
		struct rlimit r;
		long max = getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur != RLIM_INFINITY && r.rlim_cur < 65536
				   ? (long)r.rlim_cur
				   : 65536;
		for (long fd = 3; fd < max; fd++)
			if (fd != keep)
				close((int)fd);
	}
}

/* The address space this process has now (the parent's mappings, inherited), in bytes; 0 if unknown. */
static uint64_t address_space_now(void)
{
	FILE *f = fopen("/proc/self/statm", "re");
	if (!f)
		return 0;
	unsigned long long pages = 0;
	int n = fscanf(f, "%llu", &pages);
	fclose(f);
	long page = sysconf(_SC_PAGESIZE);
	return n == 1 && page > 0 ? pages * (uint64_t)page : 0;
}

static bool limit(int resource, rlim_t value)
{
	struct rlimit r = { value, value };
	return setrlimit(resource, &r) == 0;
}

#ifdef TFK_AUDIT_ARCH
#define LD_ABS(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)offsetof(struct seccomp_data, field))
/* The low 32 bits of argument n (little-endian: the first word). */
#define LD_ARG(n) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)(offsetof(struct seccomp_data, args) + 8 * (n)))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define IF_NR(nr, skip) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(nr), 0, (skip))
#define ALLOW(nr) IF_NR(nr, 1), RET(SECCOMP_RET_ALLOW)

static int install_filter(int keep)
{
	const uint32_t self = (uint32_t)getpid();
	struct sock_filter code[] = {
		LD_ABS(arch),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TFK_AUDIT_ARCH, 1, 0),
		RET(SECCOMP_RET_KILL_PROCESS),
		LD_ABS(nr),
#ifdef __x86_64__
		/* x32 calls carry this bit: other numbers, other meanings. */
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1),
		RET(SECCOMP_RET_KILL_PROCESS),
#endif
		/* memory: never executable */
		IF_NR(SYS_mmap, 4), LD_ARG(2), BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 1, 0),
		RET(SECCOMP_RET_ALLOW), RET(SECCOMP_RET_KILL_PROCESS),
		IF_NR(SYS_mprotect, 4), LD_ARG(2), BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 1, 0),
		RET(SECCOMP_RET_ALLOW), RET(SECCOMP_RET_KILL_PROCESS),
		ALLOW(SYS_brk), ALLOW(SYS_munmap), ALLOW(SYS_mremap), ALLOW(SYS_madvise),
		/* reads and writes on its pipe only; on any other descriptor (standard input, output
		 * and error are /dev/null by now) they fail with EBADF, as if it were closed */
		IF_NR(SYS_read, 1), BPF_JUMP(BPF_JMP | BPF_JA, 3, 0, 0),   /* to the LD_ARG below */
		IF_NR(SYS_write, 1), BPF_JUMP(BPF_JMP | BPF_JA, 1, 0, 0),  /* to the LD_ARG below */
		IF_NR(SYS_writev, 4),
		LD_ARG(0), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)keep, 0, 1),
		RET(SECCOMP_RET_ALLOW), RET(SECCOMP_RET_ERRNO | EBADF),
		ALLOW(SYS_close), ALLOW(SYS_lseek),
		/* fstat of a descriptor it holds (stdio asks before buffering): never of a path */
		IF_NR(SYS_newfstatat, 4), LD_ARG(3), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AT_EMPTY_PATH, 0, 1),
		RET(SECCOMP_RET_ALLOW), RET(SECCOMP_RET_KILL_PROCESS),
#ifdef SYS_fstat
		ALLOW(SYS_fstat),
#endif
		/* waiting, clocks, randomness, its own identity */
		ALLOW(SYS_futex), ALLOW(SYS_clock_gettime), ALLOW(SYS_clock_nanosleep), ALLOW(SYS_nanosleep),
		ALLOW(SYS_sched_yield), ALLOW(SYS_getrandom), ALLOW(SYS_getpid), ALLOW(SYS_gettid),
		ALLOW(SYS_restart_syscall), ALLOW(SYS_ppoll), ALLOW(SYS_rt_sigsuspend),
#ifdef SYS_pause
		ALLOW(SYS_pause),
#endif
		/* signals to itself only (abort, raise) */
		ALLOW(SYS_rt_sigprocmask), ALLOW(SYS_rt_sigreturn),
		IF_NR(SYS_tgkill, 4), LD_ARG(0), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 0, 1),
		RET(SECCOMP_RET_ALLOW), RET(SECCOMP_RET_KILL_PROCESS),
		ALLOW(SYS_exit), ALLOW(SYS_exit_group),
		RET(SECCOMP_RET_KILL_PROCESS),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof(code) / sizeof(code[0])), code };
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}
#endif

enum tfk_sandbox_state tfk_sandbox_enter(int keep_fd, uint32_t cpu_seconds, uint64_t extra_bytes)
{
	/* Valgrind keeps descriptors and address space of its own above the program's, and refuses
	 * limits below them: under it, only the limits that do not touch them. */
	const bool valgrind = TFK_UNDER_VALGRIND();
	const uint64_t now = valgrind ? 0 : address_space_now();
	/* Standard input, output and error are the caller's (a terminal, a file of secrets, a
	 * socket): /dev/null from here on, before anything else is let through. */
	if (keep_fd <= STDERR_FILENO)
		return TFK_SANDBOX_FAILED;
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		return TFK_SANDBOX_FAILED;
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
		if (dup2(null, fd) != fd) {
			close(null);
			return TFK_SANDBOX_FAILED;
		}
	if (null > STDERR_FILENO)
		close(null);
	close_others(keep_fd);
	bool ok = limit(RLIMIT_CORE, 0) && limit(RLIMIT_FSIZE, 0) && (valgrind || limit(RLIMIT_NOFILE, (rlim_t)keep_fd + 1));
	if (cpu_seconds) {
		struct rlimit cpu = { cpu_seconds, (rlim_t)cpu_seconds + 1 };
		ok = ok && setrlimit(RLIMIT_CPU, &cpu) == 0;
	}
	/* Sanitizers reserve terabytes of shadow: a limit on the address space is theirs to break. */
#ifndef TFK_SANITIZED
	if (now && extra_bytes && now <= UINT64_MAX - extra_bytes)
		ok = ok && limit(RLIMIT_AS, (rlim_t)(now + extra_bytes));
#else
	(void)now;
	(void)extra_bytes;
#endif
	ok = ok && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
	if (!ok)
		return TFK_SANDBOX_FAILED;
	if (tfk_sandbox_filter_off())
		return TFK_SANDBOX_NO_FILTER;
#ifdef TFK_AUDIT_ARCH
	if (install_filter(keep_fd) != 0)
		return TFK_SANDBOX_FAILED;
#endif
	return TFK_SANDBOX_FULL;
}
