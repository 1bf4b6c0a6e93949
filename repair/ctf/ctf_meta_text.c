/* SPDX-License-Identifier: MIT */
/*
 * Does the TSDL text of a metadata stream's first packets end where a declaration ends? A
 * metadata stream cut inside a packet keeps its whole packets, but LTTng splits its text into
 * packets wherever the buffer fills, so the text they hold may stop inside a declaration that
 * went on in the packet that was cut: keeping them would write metadata that does not parse.
 * The text is read with the checker's own lexer; it is whole when every brace and parenthesis
 * it opens is closed and its last token is the ';' that ends a declaration.
 */
#include <stdlib.h>
#include <string.h>

#include "ctf_repair.h"
#include "output.h"
#include "cursor.h"
#include "formats/ctf/ctf_lex.h"

#define META_HEADER 37 /* bytes of a metadata packet header */

/*
 * The packets' text, one after the other, into a new buffer (*text, *len): the packets that
 * start before end, each up to its content size or the end of the file. False when a header
 * says what cannot be, or no memory.
 */
static bool gather(const uint8_t *data, size_t size, uint64_t end, bool big_endian, char **text, size_t *len)
{
	const struct tfk_cursor c = tfk_cur_make(data, size, 0, big_endian);
	*text = malloc(size ? size : 1); /* the text is at most the file's size */
	*len = 0;
	if (!*text)
		return false;
	for (uint64_t pos = 0; pos < end && pos < size;) {
		uint32_t content, packet;
		if (!tfk_cur_u32_at(&c, pos + 24, &content) || !tfk_cur_u32_at(&c, pos + 28, &packet) ||
		    content / 8 < META_HEADER || packet < content || packet / 8 == 0) {
			free(*text);
			*text = NULL;
			return false;
		}
		uint64_t stop = pos + content / 8 < size ? pos + content / 8 : size;
		const uint8_t *p;
		if (stop < pos + META_HEADER || !tfk_cur_bytes_at(&c, pos + META_HEADER, stop - pos - META_HEADER, &p))
			break;
		memcpy(*text + *len, p, (size_t)(stop - pos - META_HEADER));
		*len += (size_t)(stop - pos - META_HEADER);
		if (packet / 8 > size - pos)
			break; /* the packet the file's end cut */
		pos += packet / 8;
	}
	return true;
}

bool cr_metadata_text_whole(const uint8_t *data, size_t size, uint64_t end, bool big_endian)
{
	char *text;
	size_t len;
	if (!gather(data, size, end, big_endian, &text, &len))
		return false;
	/* whole: every brace and parenthesis closed, the last token the ';' of a declaration */
	size_t prefix = ctf_lex_whole_prefix(text, len);
	struct ctf_lexer lx;
	ctf_lex_init(&lx, text + prefix, len - prefix);
	bool whole = prefix > 0 && ctf_lex_next(&lx).kind == CTF_T_EOF;
	free(text);
	return whole;
}

size_t cr_metadata_plain(const uint8_t *data, size_t size, bool big_endian, struct rp_out *o)
{
	char *text;
	size_t len;
	if (!gather(data, size, size, big_endian, &text, &len))
		return 0;
	size_t whole = ctf_lex_whole_prefix(text, len);
	if (whole) {
		static const char sig[] = "/* CTF 1.8 */\n";
		if (whole < 10 || memcmp(text, sig, 10) != 0)
			rp_out_put(o, sig, sizeof(sig) - 1);
		rp_out_put(o, text, whole);
		rp_out_put(o, "\n", 1);
	}
	free(text);
	return whole;
}

bool cr_metadata_cut_holds_more(const uint8_t *data, size_t size, uint64_t whole_end, bool big_endian)
{
	char *whole_text, *all_text;
	size_t whole_len, all_len;
	if (!gather(data, size, whole_end, big_endian, &whole_text, &whole_len))
		return false;
	bool more = false;
	if (gather(data, size, size, big_endian, &all_text, &all_len)) {
		more = ctf_lex_whole_prefix(all_text, all_len) > ctf_lex_whole_prefix(whole_text, whole_len);
		free(all_text);
	}
	free(whole_text);
	return more;
}
