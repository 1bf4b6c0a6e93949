/* SPDX-License-Identifier: MIT */
/* Guarded file mappings: a read past a shrunk file's end reads zeros, and is remembered (mapguard.h). */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mapguard.h"

/* Mappings open at once: one per check thread, a directory's member or two each. */
#define SLOTS 256

struct slot {
	_Atomic uintptr_t start; /* 0: free */
	_Atomic size_t len;
	atomic_bool faulted;
};

static struct slot slots[SLOTS];
static struct sigaction before;   /* the SIGBUS action this one replaced */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static size_t page;

static void on_sigbus(int sig, siginfo_t *info, void *uc)
{
	uintptr_t at = (uintptr_t)info->si_addr;
	for (size_t i = 0; i < SLOTS; i++) {
		uintptr_t start = atomic_load_explicit(&slots[i].start, memory_order_acquire);
		size_t len = atomic_load_explicit(&slots[i].len, memory_order_acquire);
		if (!start || at < start || at - start >= len)
			continue;
		/* Zeros from the faulting page to the mapping's end: the read is retried and succeeds.
		 * The pages stay part of the range, so its owner's munmap still removes them. */
		uintptr_t from = at & ~(uintptr_t)(page - 1);
		uintptr_t end = (start + len + page - 1) & ~(uintptr_t)(page - 1);
		if (mmap((void *)from, end - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
			atomic_store_explicit(&slots[i].faulted, true, memory_order_release);
			return;
		}
		break;
	}
	/* Not ours (or no way round it): as if this handler had never been installed. The faulting
	 * instruction runs again and meets the previous action. */
	if (before.sa_flags & SA_SIGINFO && before.sa_sigaction) {
		before.sa_sigaction(sig, info, uc);
		return;
	}
	sigaction(SIGBUS, &before, NULL);
}

static void page_size(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	page = pg > 0 ? (size_t)pg : 4096;
}

/* This handler, unless it is the one in place (a host program or test runner may have set its
 * own since): the one it replaces is called for faults outside the guarded ranges. */
static void install(void)
{
	struct sigaction now;
	if (sigaction(SIGBUS, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_sigbus)
		return;
	pthread_mutex_lock(&lock);
	if (sigaction(SIGBUS, NULL, &now) != 0 || !(now.sa_flags & SA_SIGINFO) || now.sa_sigaction != on_sigbus) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_sigbus;
		sa.sa_flags = SA_SIGINFO | SA_NODEFER;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGBUS, &sa, &before);
	}
	pthread_mutex_unlock(&lock);
}

int tfk_mapguard_add(const void *addr, size_t len)
{
	if (!addr || !len)
		return -1;
	pthread_once(&once, page_size);
	install();
	for (int i = 0; i < SLOTS; i++) {
		uintptr_t free_slot = 0;
		/* claim with a placeholder so that no other thread takes it, then publish the range */
		if (atomic_compare_exchange_strong(&slots[i].start, &free_slot, UINTPTR_MAX)) {
			atomic_store(&slots[i].faulted, false);
			atomic_store_explicit(&slots[i].len, len, memory_order_release);
			atomic_store_explicit(&slots[i].start, (uintptr_t)addr, memory_order_release);
			return i;
		}
	}
	return -1;
}

bool tfk_mapguard_faulted(int slot)
{
	return slot >= 0 && slot < SLOTS && atomic_load_explicit(&slots[slot].faulted, memory_order_acquire);
}

bool tfk_mapguard_remove(int slot)
{
	if (slot < 0 || slot >= SLOTS)
		return false;
	bool faulted = tfk_mapguard_faulted(slot);
	atomic_store_explicit(&slots[slot].start, 0, memory_order_release);
	return faulted;
}

void tfk_mapguard_drop(const void *addr)
{
	for (int i = 0; addr && i < SLOTS; i++)
		if (atomic_load_explicit(&slots[i].start, memory_order_acquire) == (uintptr_t)addr)
			tfk_mapguard_remove(i);
}
