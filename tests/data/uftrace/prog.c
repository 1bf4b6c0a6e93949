/* SPDX-License-Identifier: MIT */
/* test program for uftrace recordings */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/wait.h>
int counter;
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int never(int x) { return x * 3; }
int add(int a, int b) { counter += a; return a + b; }
unsigned mode(unsigned m) { return m & 0755; }
void *worker(void *arg) { int n = *(int *)arg; fib(n); add(n, 1); return NULL; }
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	pthread_t t;
	int m = 3;
	pthread_create(&t, NULL, worker, &m);
	pthread_join(t, NULL);
	pid_t p = fork();
	if (p == 0) {
		fib(2);
		_exit(0);
	}
	waitpid(p, NULL, 0);
	mode(0644);
	printf("%d %d\n", fib(n), add(n, 2));
	return 0;
}
