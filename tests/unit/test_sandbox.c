/* SPDX-License-Identifier: MIT */
/*
 * The parser child's leash (validate/shared/ftrace/sandbox.c), from the inside: a child forked here enters it
 * and then tries what a subverted parser would. What it may do (compute, allocate, write its
 * pipe, signal itself) works; what it may not (open a file, a socket, executable memory, signal
 * another process, run a program) kills it with SIGSYS; the descriptors it inherited are gone,
 * and it may not dump core nor open more descriptors (read from /proc/PID/limits).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "shared/ftrace/sandbox.h"
#include "under_valgrind.h"

enum attempt { NOTHING, OPEN_FILE, SOCKET, EXEC_MEMORY, SIGNAL_PARENT, EXECVE, FORK, RAISE_SEGV };

/* A line of /proc/PID/limits: its soft value, e.g. "0" or "unlimited". */
static void limit_of(pid_t pid, const char *name, char *value, size_t cap)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/limits", (int)pid);
	FILE *f = fopen(path, "r");
	value[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, name, strlen(name)) == 0 && sscanf(line + 26, "%63s", value) == 1)
			break;
	fclose(f);
	(void)cap;
}

/*
 * Fork a child that enters the leash, reports on its socket, waits until the parent has read its
 * limits, then makes the attempt. Returns the child's wait status; *report holds what it wrote
 * (NUL-terminated), core and files its limits.
 */
static int run(enum attempt what, char *report, size_t cap, char core[64], char files[64])
{
	int inherited = open("/dev/null", O_RDONLY); /* as another thread's file would be */
	assert_true(inherited >= 0);
	int sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(sv[0]);
		signal(SIGSEGV, SIG_DFL); /* as the parser child does: the test runner's handler is not its */
		enum tfk_sandbox_state st = tfk_sandbox_enter(sv[1], 10, 1u << 30);
		char out[16];
		size_t n = 0;
		out[n++] = st == TFK_SANDBOX_FAILED ? 'F' : st == TFK_SANDBOX_FULL ? 'S' : 'N';
		out[n++] = lseek(inherited, 0, SEEK_CUR) == -1 && errno == EBADF ? 'c' : 'o'; /* closed, open */
		void *m = malloc(8u << 20);                                                  /* memory works */
		out[n++] = m && memset(m, 1, 8u << 20) ? 'm' : '-';
		char go;
		if (write(sv[1], out, n) != (ssize_t)n || read(sv[1], &go, 1) != 1)
			_exit(9);
		switch (what) {
		case NOTHING: break;
		case OPEN_FILE: open("/etc/passwd", O_RDONLY); break;
		case SOCKET: syscall(SYS_socket, AF_INET, SOCK_STREAM, 0); break;
		case EXEC_MEMORY: mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); break;
		case SIGNAL_PARENT: kill(getppid(), 0); break;
		case EXECVE: execl("/bin/true", "true", (char *)NULL); break;
		case FORK: syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0); break;
		case RAISE_SEGV: raise(SIGSEGV); break;
		}
		_exit(0);
	}
	close(sv[1]);
	close(inherited);
	size_t got = 0;
	ssize_t n;
	while (got < 3 && got + 1 < cap && (n = read(sv[0], report + got, cap - 1 - got)) > 0)
		got += (size_t)n;
	report[got] = 0;
	limit_of(pid, "Max core file size", core, 64);
	limit_of(pid, "Max open files", files, 64);
	assert_int_equal(write(sv[0], "g", 1), 1);
	close(sv[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

static bool filtered(void)
{
	if (tfk_sandbox_filter_off()) {
		print_message("syscall filter off here: %s\n", tfk_sandbox_filter_off());
		return false;
	}
	return true;
}

/* Entering: the inherited descriptor closed, memory still there, no core dumps; then a clean exit. */
static void enters_and_works(void **state)
{
	(void)state;
	char r[16], core[64], files[64];
	int status = run(NOTHING, r, sizeof(r), core, files);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(r + 1, "cm");
	assert_int_equal(r[0], tfk_sandbox_filter_off() ? 'N' : 'S');
	assert_string_equal(core, "0");
	if (!RUNNING_ON_VALGRIND) /* Valgrind's own descriptors lie above the program's */
		assert_true(atoi(files) > 0 && atoi(files) <= 8); /* its socket is the highest it holds */
}

static void killed_by(enum attempt what)
{
	if (!filtered())
		skip();
	char r[16], core[64], files[64];
	int status = run(what, r, sizeof(r), core, files);
	assert_string_equal(r, "Scm");
	if (!WIFSIGNALED(status))
		fail_msg("attempt %d: exited with %d instead of being killed", what, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	assert_int_equal(WTERMSIG(status), SIGSYS);
}

static void no_files(void **state) { (void)state; killed_by(OPEN_FILE); }
static void no_sockets(void **state) { (void)state; killed_by(SOCKET); }
static void no_executable_memory(void **state) { (void)state; killed_by(EXEC_MEMORY); }
static void no_signals_to_others(void **state) { (void)state; killed_by(SIGNAL_PARENT); }
static void no_programs(void **state) { (void)state; killed_by(EXECVE); }
static void no_processes(void **state) { (void)state; killed_by(FORK); }

/*
 * The caller's standard input is a socket (`tracefsck check x.dat < secret`, or a socket given
 * as stdin): once in the leash the child can neither read what waits in it nor write to it.
 * Standard input is /dev/null by then (so this holds without the filter, under sanitizers too),
 * and with the filter a read or write of any descriptor but its pipe fails with EBADF.
 */
static void no_stdin(void **state)
{
	(void)state;
	int ss[2], sv[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, ss), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(ss[0], "secret", 6), 6);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(sv[0]);
		if (dup2(ss[1], STDIN_FILENO) != STDIN_FILENO || dup2(ss[1], STDOUT_FILENO) != STDOUT_FILENO)
			_exit(9);
		enum tfk_sandbox_state st = tfk_sandbox_enter(sv[1], 10, 1u << 30);
		char buf[8], out[4];
		ssize_t r = read(STDIN_FILENO, buf, sizeof(buf));
		int rerr = errno;
		ssize_t w = write(STDIN_FILENO, "leak", 4);
		int werr = errno;
		ssize_t o = write(STDOUT_FILENO, "leak", 4);
		/* r: read nothing ('0': /dev/null's end, 'b': EBADF), w and o: wrote to /dev/null or not at all */
		out[0] = st == TFK_SANDBOX_FAILED ? 'F' : st == TFK_SANDBOX_FULL ? 'S' : 'N';
		out[1] = r == 0 ? '0' : r < 0 && rerr == EBADF ? 'b' : 'R';
		out[2] = w == 4 ? 'n' : w < 0 && werr == EBADF ? 'b' : 'W';
		out[3] = o == 4 ? 'n' : o < 0 ? 'b' : 'W';
		_exit(write(sv[1], out, 4) == 4 ? 0 : 8);
	}
	close(sv[1]);
	char r[5] = { 0 };
	size_t got = 0;
	ssize_t n;
	while (got < 4 && (n = read(sv[0], r + got, 4 - got)) > 0)
		got += (size_t)n;
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	if (r[0] == 'S')
		assert_string_equal(r, "Sbbb"); /* the filter answers EBADF */
	else
		assert_string_equal(r, "N0nn"); /* /dev/null answers */
	/* the secret is still there, unread, and nothing came out of the socket */
	char buf[16];
	assert_int_equal(recv(ss[1], buf, sizeof(buf), MSG_DONTWAIT), 6);
	assert_memory_equal(buf, "secret", 6);
	assert_int_equal(recv(ss[0], buf, sizeof(buf), MSG_DONTWAIT), -1);
	assert_int_equal(errno, EAGAIN);
	close(ss[0]);
	close(ss[1]);
	close(sv[0]);
}

/* A crash in the parser still ends as that crash (abort and raise signal the process itself). */
static void own_signals_pass(void **state)
{
	(void)state;
	char r[16], core[64], files[64];
	int status = run(RAISE_SEGV, r, sizeof(r), core, files);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGSEGV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(enters_and_works),   cmocka_unit_test(no_files),
		cmocka_unit_test(no_sockets),         cmocka_unit_test(no_executable_memory),
		cmocka_unit_test(no_signals_to_others), cmocka_unit_test(no_programs),
		cmocka_unit_test(no_processes),       cmocka_unit_test(own_signals_pass),
		cmocka_unit_test(no_stdin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
