/* SPDX-License-Identifier: MIT */
/*
 * Linked into the programs that let libtraceevent parse in their own process (the format
 * harness, the tests of that parse), never into the library. libtraceevent 1.7 loses a few bytes
 * on some texts it cannot parse, real kernels' formats among them (kvm/kvm_inj_exception), even
 * when its handle is freed with tep_free after every check; tracefsck runs it in a child that
 * ends after parsing, so those bytes never outlive a check. LeakSanitizer is told to leave memory
 * allocated inside tep_parse_format to libtraceevent (matched by that function, which is named in
 * the stack whether libtraceevent is a shared library or linked in statically, as for OSS-Fuzz):
 * a leak of tracefsck's own still fails the run, and a crash in libtraceevent still crashes it.
 */
const char *__lsan_default_suppressions(void);

const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_format\n";
}
