/*
 * What the relay needs of JSON, and no more: a growable byte buffer with a hard limit, a scanner
 * that checks a line is one JSON object and finds the spans of a few top-level members (nested
 * values are skipped, never looked into), string decoding and encoding, the canonical text of an
 * id (what JavaScript's JSON.stringify(JSON.parse(id)) gives, so an id sent as 1.0 is matched by
 * the answer's 1), and base64.
 */
#ifndef ENGRAM_JSCAN_H
#define ENGRAM_JSCAN_H
#include <stddef.h>

struct buf {
  char *p;
  size_t len, cap;
};

/* Appends n bytes; -1 (nothing appended) when the result would pass limit or memory runs out. */
int buf_add(struct buf *b, const void *s, size_t n, size_t limit);
int buf_str(struct buf *b, const char *s, size_t limit);
void buf_drop(struct buf *b, size_t n); /* removes the first n bytes */
void buf_free(struct buf *b);

struct span {
  const char *p; /* NULL: the member is absent */
  size_t len;
};

/*
 * Scans s[0..len) as one JSON text. When it is an object, sets out[i] to the value of the last
 * top-level member named names[i] (JSON.parse keeps the last of duplicate keys) and returns 1;
 * anything else (invalid JSON, an array, a string…) returns 0.
 */
int json_members(const char *s, size_t len, const char *const *names, struct span *out, size_t n);

/* Whether s[0..len) is one JSON text (of any kind). */
int json_valid(const char *s, size_t len);
/* Decodes the JSON string at v (quotes included) into out as UTF-8: 0 or -1 (not a string, too long). */
int json_decode(struct span v, struct buf *out, size_t limit);
/* Whether v is a JSON string whose value is want. */
int json_string_is(struct span v, const char *want);
/* Appends s[0..n) as a JSON string, quoted and escaped as JSON.stringify does. */
int json_quote(struct buf *out, const char *s, size_t n, size_t limit);
/* The canonical text of a JSON value used as an id (see above): 0 or -1 (too long). */
int json_canonical(struct span v, struct buf *out, size_t limit);

int base64_add(struct buf *out, const unsigned char *s, size_t n, size_t limit);

#endif
