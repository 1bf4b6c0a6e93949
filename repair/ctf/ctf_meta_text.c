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
#include "cursor.h"
#include "formats/ctf/ctf_lex.h"

#define META_HEADER 37 /* bytes of a metadata packet header */

bool cr_metadata_text_whole(const uint8_t *data, size_t size, uint64_t end, bool big_endian)
{
	const struct tfk_cursor c = tfk_cur_make(data, size, 0, big_endian);
	/* The packets' text, one after the other (at most the file's size; the last packet's
	 * padding may lie past the end of the file). */
	char *text = malloc(size ? size : 1);
	if (!text)
		return false;
	size_t len = 0;
	for (uint64_t pos = 0; pos < end && pos < size;) {
		uint32_t content, packet;
		if (!tfk_cur_u32_at(&c, pos + 24, &content) || !tfk_cur_u32_at(&c, pos + 28, &packet) ||
		    content / 8 < META_HEADER || packet < content || packet / 8 == 0 || packet / 8 > end - pos) {
			free(text);
			return false;
		}
		uint64_t stop = pos + content / 8 < size ? pos + content / 8 : size;
		const uint8_t *p;
		if (stop < pos + META_HEADER || !tfk_cur_bytes_at(&c, pos + META_HEADER, stop - pos - META_HEADER, &p))
			break;
		memcpy(text + len, p, (size_t)(stop - pos - META_HEADER));
		len += (size_t)(stop - pos - META_HEADER);
		pos += packet / 8;
	}
	struct ctf_lexer lx;
	ctf_lex_init(&lx, text, len);
	long depth = 0;
	bool ends_declaration = true, ok = true;
	for (;;) {
		struct ctf_token t = ctf_lex_next(&lx);
		if (t.kind == CTF_T_EOF)
			break;
		if (t.kind == CTF_T_ERROR) {
			ok = false;
			break;
		}
		if (ctf_tok_is(&t, "{") || ctf_tok_is(&t, "("))
			depth++;
		else if ((ctf_tok_is(&t, "}") || ctf_tok_is(&t, ")")) && --depth < 0)
			ok = false;
		ends_declaration = ctf_tok_is(&t, ";") && depth == 0;
	}
	free(text);
	return ok && depth == 0 && ends_declaration;
}
