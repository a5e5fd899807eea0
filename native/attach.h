/*
 * Finding the vault's daemon as src/attach/attach-file.ts does — the state directory, the attach
 * file and every check on it, with the same messages — and connecting to it as relay.ts's
 * connectDaemon does (the handshake line, its answer, a 5 s limit).
 */
#ifndef ENGRAM_ATTACH_H
#define ENGRAM_ATTACH_H
#include "jscan.h"
#include <stddef.h>

#define WHY_SIZE 16384

struct daemon {
  int port;
  char pid[32]; /* as JavaScript prints it */
  struct buf secret;
};

enum lookup { LOOKUP_FOUND, LOOKUP_ABSENT, LOOKUP_REFUSED };

/* path.join(a, b), normalized as node's path module does on POSIX: 0, or -1 when too long. */
int join_path(char *out, size_t size, const char *a, const char *b);

/* The vault's real path and its state directory (home/first 12 hex of sha256(real)); -1: not reachable. */
int locate_state(const char *home, const char *vault, char *real, size_t real_size, char *state_dir, size_t state_size);

/* The daemon recorded in state_dir's attach file, or why not (why: one line). */
enum lookup find_daemon(const char *state_dir, const char *vault, const char *version, struct daemon *d, char *why);

/*
 * Connects to the daemon and passes the handshake: a nonblocking socket, or -1 and why. Bytes the
 * daemon sent after its answer line are appended to rest.
 */
int connect_daemon(const struct daemon *d, const char *hello, struct buf *rest, char *why);

#endif
