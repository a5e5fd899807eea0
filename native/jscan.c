/* See jscan.h. Every scan is bounded by the given length; nothing here trusts a length it reads. */
#define _XOPEN_SOURCE 700
#include "jscan.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int buf_add(struct buf *b, const void *s, size_t n, size_t limit) {
  if (n > limit || b->len > limit - n) return -1;
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n) cap = cap > SIZE_MAX / 2 ? b->len + n : cap * 2;
    char *p = realloc(b->p, cap);
    if (!p) return -1;
    b->p = p;
    b->cap = cap;
  }
  if (n) memcpy(b->p + b->len, s, n);
  b->len += n;
  return 0;
}

int buf_str(struct buf *b, const char *s, size_t limit) { return buf_add(b, s, strlen(s), limit); }

void buf_drop(struct buf *b, size_t n) {
  if (n >= b->len) {
    b->len = 0;
  } else {
    memmove(b->p, b->p + n, b->len - n);
    b->len -= n;
  }
  if (b->len == 0 && b->cap > (1u << 20)) buf_free(b); /* give a big line's memory back */
}

void buf_free(struct buf *b) {
  free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}

static const char *ws(const char *p, const char *e) {
  while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
  return p;
}

static int hex4(const char *p, const char *e, unsigned *out) {
  unsigned v = 0;
  if (e - p < 4) return -1;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
    else return -1;
  }
  *out = v;
  return 0;
}

/* Past the string starting at p (a quote), or NULL when it is not a valid JSON string. */
static const char *skip_string(const char *p, const char *e) {
  if (p >= e || *p != '"') return NULL;
  for (p++; p < e; p++) {
    unsigned char c = (unsigned char)*p;
    unsigned u;
    if (c == '"') return p + 1;
    if (c < 0x20) return NULL;
    if (c != '\\') continue;
    if (++p >= e) return NULL;
    if (*p == 'u') {
      if (hex4(p + 1, e, &u)) return NULL;
      p += 4;
    } else if (!strchr("\"\\/bfnrt", *p) || *p == '\0') {
      return NULL;
    }
  }
  return NULL;
}

static const char *digits(const char *p, const char *e) {
  const char *start = p;
  while (p < e && *p >= '0' && *p <= '9') p++;
  return p > start ? p : NULL;
}

static const char *skip_scalar(const char *p, const char *e) {
  static const char *const words[] = {"true", "false", "null"};
  if (p < e && *p == '"') return skip_string(p, e);
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(words[i]);
    if ((size_t)(e - p) >= n && memcmp(p, words[i], n) == 0) return p + n;
  }
  if (p < e && *p == '-') p++;
  if (p < e && *p == '0') p++;
  else if (!(p = digits(p, e))) return NULL;
  if (p < e && *p == '.' && !(p = digits(p + 1, e))) return NULL;
  if (p < e && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < e && (*p == '+' || *p == '-')) p++;
    if (!(p = digits(p, e))) return NULL;
  }
  return p;
}

/* After a key in an object: `"key" :`, past the colon. */
static const char *skip_key(const char *p, const char *e) {
  p = skip_string(ws(p, e), e);
  if (!p) return NULL;
  p = ws(p, e);
  return p < e && *p == ':' ? p + 1 : NULL;
}

#define MAX_DEPTH 4096

/* Past one JSON value, containers included (iteratively: no recursion on untrusted depth). */
static const char *skip_value(const char *p, const char *e) {
  unsigned char object[MAX_DEPTH]; /* 1: the open container at that depth is an object */
  size_t depth = 0;
  for (;;) {
    p = ws(p, e);
    if (p >= e) return NULL;
    if (*p == '{' || *p == '[') {
      if (depth == MAX_DEPTH) return NULL;
      object[depth++] = *p == '{';
      p = ws(p + 1, e);
      if (p < e && *p == (object[depth - 1] ? '}' : ']')) {
        p++;
        depth--;
      } else {
        if (object[depth - 1] && !(p = skip_key(p, e))) return NULL;
        continue;
      }
    } else if (!(p = skip_scalar(p, e))) {
      return NULL;
    }
    for (;;) { /* after a value: a comma, a closing bracket, or the end */
      if (depth == 0) return p;
      p = ws(p, e);
      if (p >= e) return NULL;
      if (*p == ',') {
        p++;
        if (object[depth - 1] && !(p = skip_key(p, e))) return NULL;
        break;
      }
      if (*p != (object[depth - 1] ? '}' : ']')) return NULL;
      p++;
      depth--;
    }
  }
}

int json_valid(const char *s, size_t len) {
  const char *end = skip_value(s, s + len);
  return end && ws(end, s + len) == s + len;
}

int json_members(const char *s, size_t len, const char *const *names, struct span *out, size_t n) {
  const char *p = s, *e = s + len;
  for (size_t i = 0; i < n; i++) out[i].p = NULL, out[i].len = 0;
  p = ws(p, e);
  if (p >= e || *p != '{') return 0;
  p = ws(p + 1, e);
  if (p < e && *p == '}') return ws(p + 1, e) == e;
  for (;;) {
    const char *key = ws(p, e), *value;
    struct buf name = {0};
    if (!(p = skip_key(key, e))) return 0;
    value = ws(p, e);
    if (!(p = skip_value(value, e))) return 0;
    /* Keys longer than any wanted name cannot match: they are not decoded. */
    if (json_decode((struct span){key, (size_t)(e - key)}, &name, 64) == 0) {
      for (size_t i = 0; i < n; i++) {
        if (strlen(names[i]) == name.len && memcmp(names[i], name.p, name.len) == 0) out[i].p = value, out[i].len = (size_t)(p - value);
      }
    }
    buf_free(&name);
    p = ws(p, e);
    if (p < e && *p == ',') {
      p++;
      continue;
    }
    if (p < e && *p == '}') return ws(p + 1, e) == e;
    return 0;
  }
}

static int utf8_add(struct buf *out, unsigned cp, size_t limit) {
  unsigned char u[4];
  size_t n;
  if (cp < 0x80) u[0] = (unsigned char)cp, n = 1;
  else if (cp < 0x800) u[0] = (unsigned char)(0xc0 | cp >> 6), u[1] = (unsigned char)(0x80 | (cp & 63)), n = 2;
  else if (cp < 0x10000) u[0] = (unsigned char)(0xe0 | cp >> 12), u[1] = (unsigned char)(0x80 | (cp >> 6 & 63)), u[2] = (unsigned char)(0x80 | (cp & 63)), n = 3;
  else u[0] = (unsigned char)(0xf0 | cp >> 18), u[1] = (unsigned char)(0x80 | (cp >> 12 & 63)), u[2] = (unsigned char)(0x80 | (cp >> 6 & 63)), u[3] = (unsigned char)(0x80 | (cp & 63)), n = 4;
  return buf_add(out, u, n, limit);
}

/*
 * Walks the JSON string at v. canonical: appends it re-escaped as JSON.stringify would (lone
 * surrogates stay \uXXXX escapes); else appends the decoded UTF-8 bytes.
 */
static int walk_string(struct span v, struct buf *out, size_t limit, int canonical) {
  const char *p = v.p, *e = v.p + v.len, *end = skip_string(p, e);
  if (!end) return -1;
  for (p++; p < end - 1; p++) {
    char c = *p;
    unsigned u, low;
    if (c != '\\') {
      if (canonical && (c == '"' || c == '\\')) return -1; /* not reached: raw quotes end the string */
      if (buf_add(out, p, 1, limit)) return -1;
      continue;
    }
    c = *++p;
    if (c != 'u') {
      static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
      u = (unsigned char)to[strchr(from, c) - from];
    } else {
      hex4(p + 1, end, &u);
      p += 4;
      if (u >= 0xd800 && u < 0xdc00 && end - p > 6 && p[1] == '\\' && p[2] == 'u' && hex4(p + 3, end, &low) == 0 && low >= 0xdc00 && low < 0xe000) {
        u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
        p += 6;
      }
    }
    if (!canonical) {
      if (utf8_add(out, u, limit)) return -1;
    } else if (u == '"' || u == '\\') {
      char esc[2] = {'\\', (char)u};
      if (buf_add(out, esc, 2, limit)) return -1;
    } else if (u < 0x20 || (u >= 0xd800 && u < 0xe000)) {
      static const char shorts[] = "\b\f\n\r\t", names[] = "bfnrt";
      char esc[8];
      const char *s = u ? strchr(shorts, (int)u) : NULL;
      if (s) snprintf(esc, sizeof esc, "\\%c", names[s - shorts]);
      else snprintf(esc, sizeof esc, "\\u%04x", u);
      if (buf_str(out, esc, limit)) return -1;
    } else if (utf8_add(out, u, limit)) {
      return -1;
    }
  }
  return 0;
}

int json_decode(struct span v, struct buf *out, size_t limit) { return walk_string(v, out, limit, 0); }

int json_string_is(struct span v, const char *want) {
  struct buf text = {0};
  size_t n = strlen(want);
  int equal = v.p && *v.p == '"' && json_decode(v, &text, n + 1) == 0 && text.len == n && memcmp(text.p, want, n) == 0;
  buf_free(&text);
  return equal;
}

int json_quote(struct buf *out, const char *s, size_t n, size_t limit) {
  if (buf_add(out, "\"", 1, limit)) return -1;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    char esc[8];
    if (c == '"' || c == '\\') snprintf(esc, sizeof esc, "\\%c", c);
    else if (c == '\b') strcpy(esc, "\\b");
    else if (c == '\f') strcpy(esc, "\\f");
    else if (c == '\n') strcpy(esc, "\\n");
    else if (c == '\r') strcpy(esc, "\\r");
    else if (c == '\t') strcpy(esc, "\\t");
    else if (c < 0x20) snprintf(esc, sizeof esc, "\\u%04x", c);
    else esc[0] = (char)c, esc[1] = '\0';
    if (buf_str(out, esc, limit)) return -1;
  }
  return buf_add(out, "\"", 1, limit);
}

/* JavaScript's text for a number that is an integer below 1e21, or the shortest round-trip form. */
static int canonical_number(struct span v, struct buf *out, size_t limit) {
  char text[400], shortest[40];
  if (v.len >= sizeof text) return buf_add(out, v.p, v.len, limit);
  memcpy(text, v.p, v.len);
  text[v.len] = '\0';
  double d = strtod(text, NULL);
  if (d == 0) return buf_str(out, "0", limit); /* -0 and 0e5 alike */
  if (d > -1e18 && d < 1e18 && d == (double)(long long)d) {
    snprintf(shortest, sizeof shortest, "%lld", (long long)d);
    return buf_str(out, shortest, limit);
  }
  for (int precision = 1; precision <= 17; precision++) {
    snprintf(shortest, sizeof shortest, "%.*g", precision, d);
    if (strtod(shortest, NULL) == d) break;
  }
  /* JavaScript writes exponents differently (1e+21, no padding); keep such ids as they came. */
  return strpbrk(shortest, "eEn") ? buf_add(out, v.p, v.len, limit) : buf_str(out, shortest, limit);
}

int json_canonical(struct span v, struct buf *out, size_t limit) {
  if (v.len == 0) return -1;
  if (*v.p == '"') {
    if (buf_add(out, "\"", 1, limit) || walk_string(v, out, limit, 1)) return -1;
    return buf_add(out, "\"", 1, limit);
  }
  if (*v.p == '-' || (*v.p >= '0' && *v.p <= '9')) return canonical_number(v, out, limit);
  /* true, false, null; objects and arrays without the whitespace between tokens. */
  for (const char *p = v.p, *e = v.p + v.len; p < e;) {
    if (*p == '"') {
      const char *end = skip_string(p, e);
      if (!end || buf_add(out, p, (size_t)(end - p), limit)) return -1;
      p = end;
    } else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
      p++;
    } else if (buf_add(out, p++, 1, limit)) {
      return -1;
    }
  }
  return 0;
}

int base64_add(struct buf *out, const unsigned char *s, size_t n, size_t limit) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned)s[i] << 16 | (i + 1 < n ? (unsigned)s[i + 1] << 8 : 0) | (i + 2 < n ? s[i + 2] : 0);
    char quad[4] = {alphabet[v >> 18], alphabet[v >> 12 & 63], i + 1 < n ? alphabet[v >> 6 & 63] : '=', i + 2 < n ? alphabet[v & 63] : '='};
    if (buf_add(out, quad, 4, limit)) return -1;
  }
  return 0;
}
