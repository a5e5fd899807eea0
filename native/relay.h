/* The relay's state, shared by relay.c (the loop) and handoff.c (leaving for node). */
#ifndef ENGRAM_RELAY_H
#define ENGRAM_RELAY_H
#include "attach.h"
#include "jscan.h"
#include <limits.h>

/* The stdio transport's line limit (src/mcp/stdio-transport.ts), as the Node relay keeps it. */
#define MAX_LINE (10 * 1024 * 1024)

struct lines {
  struct buf part; /* the line read so far */
  int dropping;    /* inside a line over MAX_LINE: dropped up to its newline */
};

struct relay {
  char **args; /* the command line after the program name */
  int nargs;
  char vault[PATH_MAX], state_dir[PATH_MAX + 16], session[9];
  long long reconnect_ms; /* < 0: wait for ever */
  int sock;               /* the daemon; -1 while looking for it */
  struct buf to_daemon, to_client, queue, init_line, pending;
  size_t pending_count;
  struct lines from_client, from_daemon;
  int initialized, replays, replaying;
  char replay_key[48];
  long long deadline, next_try;
  char why[WHY_SIZE];
};

/* Runs node on the Engram command line with these arguments; returns only if node cannot start (said why). */
void exec_node(char **args, int nargs);
/* Restores stdin's and stdout's flags (blocking again) before exit or exec. */
void restore_stdio(void);
/* Writes all of b to fd, waiting as long as it takes: 0, or -1 (the reader is gone). */
int flush_all(int fd, struct buf *b);
/* Hands the session to node serving on its own, as the Node relay's fallback does (never returns). */
void hand_off(struct relay *r);

#endif
