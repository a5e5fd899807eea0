/*
 * Leaving for node: every command other than a plain stdio `serve` with a daemon to attach to,
 * and the session itself once the daemon is gone for good. The session is handed over in the
 * same process slot (exec), so the client keeps its stdin and stdout; what node needs to carry
 * on — the session id, why, the client's initialize line, the lines waiting to be sent and a
 * line half read — goes in a resume file readable by its owner only, named on node's command
 * line (`serve --resume-relay FILE`), which node reads and deletes.
 */
#define _XOPEN_SOURCE 700
#include "relay.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef ENGRAM_NODE
#define ENGRAM_NODE "node"
#endif
#ifndef ENGRAM_ENTRY
#error "build with -DENGRAM_ENTRY=\"/path/to/dist/cli/engram.js\" (scripts/build-native.mjs does)"
#endif

#define RESUME_MAX ((size_t)256 * 1024 * 1024)

extern int stdio_flags[2];

void restore_stdio(void) {
  for (int fd = 0; fd < 2; fd++) {
    if (stdio_flags[fd] != -1) fcntl(fd, F_SETFL, stdio_flags[fd]);
  }
}

int flush_all(int fd, struct buf *b) {
  size_t done = 0;
  while (done < b->len) {
    ssize_t put = write(fd, b->p + done, b->len - done);
    if (put > 0) {
      done += (size_t)put;
    } else if (put < 0 && errno == EAGAIN) {
      struct pollfd p = {fd, POLLOUT, 0};
      poll(&p, 1, -1);
    } else if (!(put < 0 && errno == EINTR)) {
      return -1;
    }
  }
  buf_drop(b, b->len);
  return 0;
}

void exec_node(char **args, int nargs) {
  const char *node = getenv("ENGRAM_NODE");
  char **argv = calloc((size_t)nargs + 3, sizeof *argv);
  int n = 0;
  if (!argv) {
    fputs("engram: out of memory\n", stderr);
    exit(1);
  }
  argv[n++] = (char *)(node && *node ? node : ENGRAM_NODE);
  argv[n++] = (char *)ENGRAM_ENTRY;
  for (int i = 0; i < nargs; i++) argv[n++] = args[i];
  restore_stdio();
  signal(SIGPIPE, SIG_DFL);
  if (node && *node) execvp(node, argv);
  else if (access(ENGRAM_NODE, X_OK) == 0) execv(ENGRAM_NODE, argv);
  argv[0] = "node";
  if (!(node && *node)) execvp("node", argv);
  fprintf(stderr, "engram: cannot start node (%s): put node on PATH or set ENGRAM_NODE to its path\n", strerror(errno));
  free(argv);
}

/* {"session","why","initialize","initialized","queue","partial","dropping"}: lines in base64. */
static int resume_json(struct relay *r, struct buf *out) {
  int failed = buf_str(out, "{\"session\":", RESUME_MAX) || json_quote(out, r->session, strlen(r->session), RESUME_MAX);
  failed = failed || buf_str(out, ",\"why\":", RESUME_MAX) || json_quote(out, r->why, strlen(r->why), RESUME_MAX);
  failed = failed || buf_str(out, ",\"initialize\":", RESUME_MAX);
  if (r->init_line.len) failed = failed || buf_str(out, "\"", RESUME_MAX) || base64_add(out, (unsigned char *)r->init_line.p, r->init_line.len, RESUME_MAX) || buf_str(out, "\"", RESUME_MAX);
  else failed = failed || buf_str(out, "null", RESUME_MAX);
  failed = failed || buf_str(out, r->initialized ? ",\"initialized\":true,\"queue\":[" : ",\"initialized\":false,\"queue\":[", RESUME_MAX);
  for (size_t at = 0; !failed && at < r->queue.len;) {
    const char *end = memchr(r->queue.p + at, '\n', r->queue.len - at);
    size_t len = (size_t)(end - (r->queue.p + at));
    failed = buf_str(out, at ? ",\"" : "\"", RESUME_MAX) || base64_add(out, (unsigned char *)r->queue.p + at, len, RESUME_MAX) || buf_str(out, "\"", RESUME_MAX);
    at += len + 1;
  }
  failed = failed || buf_str(out, "],\"partial\":\"", RESUME_MAX) || base64_add(out, (unsigned char *)r->from_client.part.p, r->from_client.part.len, RESUME_MAX);
  return failed || buf_str(out, r->from_client.dropping ? "\",\"dropping\":true}\n" : "\",\"dropping\":false}\n", RESUME_MAX);
}

/* Creates the resume file (0600, never over an existing file) in the state directory, else in TMPDIR. */
static int create_resume(struct relay *r, char *path, size_t size) {
  const char *tmp = getenv("TMPDIR");
  int fd = -1;
  if (join_path(path, size, r->state_dir, "relay-resume-") == 0 && strlen(path) + 16 < size) {
    snprintf(path + strlen(path), 16, "%s.json", r->session);
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  }
  if (fd < 0 && join_path(path, size, tmp && *tmp ? tmp : "/tmp", "engram-relay-XXXXXX") == 0) fd = mkstemp(path);
  return fd;
}

void hand_off(struct relay *r) {
  struct buf json = {0};
  char path[PATH_MAX + 64], **args = calloc((size_t)r->nargs + 3, sizeof *args);
  int fd = -1;
  fprintf(stderr, "engram: serving on its own from now on (%s)\n", r->why);
  if (flush_all(1, &r->to_client) != 0) exit(0); /* the client is gone: nothing to hand over */
  if (resume_json(r, &json) == 0 && (fd = create_resume(r, path, sizeof path)) >= 0) {
    int written = flush_all(fd, &json) == 0;
    if (close(fd) == 0 && written && args) {
      args[0] = "serve";
      args[1] = "--resume-relay";
      args[2] = path;
      for (int i = 1; i < r->nargs; i++) args[i + 2] = r->args[i]; /* what followed `serve` */
      exec_node(args, r->nargs + 2); /* returns only when node could not start */
    }
    unlink(path);
  }
  fprintf(stderr, "engram: could not hand the session over to node; restart the session\n");
  exit(1);
}
