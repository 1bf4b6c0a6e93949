// SPDX-License-Identifier: MIT
// A program for uftrace recordings of other shapes than the samples: C++ (templates, exceptions,
// long demangled names, std::distance whose iterator-tag arguments and return values are empty
// structs: auto-args store 0 bytes for them), longjmp over 20 frames, six threads, a fork and,
// with an argument, an exec in the child.
#include <cstdio>
#include <map>
#include <setjmp.h>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

template <typename T> struct Box {
	T v;
	T get() const { return v; }
};
static jmp_buf jb;
__attribute__((noinline)) void deep(int n)
{
	if (n == 0)
		longjmp(jb, 1);
	deep(n - 1);
}
__attribute__((noinline)) int thrower(int n)
{
	if (n > 3)
		throw std::runtime_error("x");
	return n;
}
__attribute__((noinline)) long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__attribute__((noinline)) std::string name_of(const std::map<std::string, std::vector<int>> &m) { return m.begin()->first; }
static void work(int id)
{
	Box<long> b{ fib(10 + id) };
	(void)b.get();
	for (int i = 0; i < 6; i++)
		try {
			thrower(i);
		} catch (...) {
		}
}
int main(int argc, char **argv)
{
	(void)argv;
	std::map<std::string, std::vector<int>> m{ { "abc", { 1, 2 } } };
	printf("%s\n", name_of(m).c_str());
	if (!setjmp(jb))
		deep(20);
	std::vector<std::thread> ts;
	for (int i = 0; i < 6; i++)
		ts.emplace_back(work, i);
	for (auto &t : ts)
		t.join();
	pid_t p = fork();
	if (p == 0) {
		work(1);
		if (argc > 1)
			execl("/bin/true", "true", (char *)0);
		_exit(0);
	}
	waitpid(p, 0, 0);
	return 0;
}
