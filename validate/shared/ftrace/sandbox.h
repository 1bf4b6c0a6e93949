/* SPDX-License-Identifier: MIT */
/*
 * The leash of a parser child: what a process forked to run a third-party parser on hostile
 * bytes (libtraceevent) may still do. See sandbox.c and SECURITY.md.
 */
#ifndef TFK_SANDBOX_H
#define TFK_SANDBOX_H

#include <stdbool.h>
#include <stdint.h>

enum tfk_sandbox_state {
	TFK_SANDBOX_FULL,        /* descriptors closed, limits set, no new privileges, syscall filter */
	TFK_SANDBOX_NO_FILTER,   /* as FULL but without the syscall filter (see tfk_sandbox_filter_off) */
	TFK_SANDBOX_FAILED,      /* the kernel refused part of it: the child must not go on */
};

/*
 * Called in the child, single-threaded, right after fork and before the parser touches a byte:
 * makes standard input, output and error /dev/null (keep_fd must be above them), closes every
 * other descriptor but keep_fd (another thread's pipes included), sets RLIMIT_CORE, RLIMIT_FSIZE, RLIMIT_NOFILE,
 * RLIMIT_CPU (cpu_seconds) and RLIMIT_AS (the address space the child already has plus
 * extra_bytes), sets no_new_privs, then installs a seccomp filter that lets the process
 * allocate memory, read and write keep_fd (any other descriptor: EBADF), wait, read clocks,
 * signal itself and exit, and kills it (SIGSYS) on any other system call: no open, no socket,
 * no exec, no fork, no mapping of executable memory.
 */
enum tfk_sandbox_state tfk_sandbox_enter(int keep_fd, uint32_t cpu_seconds, uint64_t extra_bytes);

/*
 * Why the syscall filter is left off in this process, or NULL when it is installed: builds with
 * AddressSanitizer or ThreadSanitizer (their run-time calls what the filter forbids when it
 * reports), runs under Valgrind (which issues its own system calls on the program's behalf),
 * and architectures whose system call numbers the filter does not list.
 */
const char *tfk_sandbox_filter_off(void);

#endif
