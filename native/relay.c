/*
 * engram — the native launcher and stdio relay. `engram serve` over stdio, with the vault's
 * `engram daemon` running, relays the client's MCP session to the daemon exactly as the Node
 * relay (src/attach/relay.ts) does, in ~2 MB instead of Node's ~45 MB: newline-delimited JSON
 * passed both ways unchanged, the client's initialize and the ids of requests in flight tracked
 * so that a daemon restart costs the client nothing (in-flight calls answered with an error, the
 * session re-initialized on the new daemon). Everything else — any other command, a serve with no
 * daemon to attach to, a daemon gone for good — runs node (handoff.c), which says why.
 */
#define _XOPEN_SOURCE 700
#include "relay.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef ENGRAM_VERSION
#error "build with -DENGRAM_VERSION=\"x.y.z\" (scripts/build-native.mjs does)"
#endif

#define CHUNK 65536
#define HIGH_WATER ((size_t)1 << 20) /* a side whose output waits past this is not read meanwhile */
#define QUEUE_MAX ((size_t)16 << 20)
#define OUT_MAX ((size_t)64 << 20)
#define ID_MAX 4096
#define PENDING_MAX ((size_t)1 << 16)

static const char TOO_LARGE[] = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"request too large: a message is one line of at most 10485760 bytes; this one was dropped (send large text in smaller parts)\"}}\n";
static const char STOPPED[] = "the engram daemon stopped during this call, so it may or may not have completed; check (search_brain, read_note) before repeating a write — the session continues";
static const char *const MEMBERS[] = {"id", "method"};

int stdio_flags[2] = {-1, -1};

static void out_of_memory(void) {
  restore_stdio();
  fputs("engram: out of memory\n", stderr);
  exit(1);
}

static void add(struct buf *b, const void *s, size_t n) {
  if (buf_add(b, s, n, OUT_MAX + MAX_LINE)) out_of_memory();
}

static long long now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* The Node relay's lines(): each complete line to online; a partial line over MAX_LINE is dropped. */
static void feed(struct relay *r, struct lines *l, const char *data, size_t n, void (*online)(struct relay *, const char *, size_t), int report) {
  size_t start = 0;
  for (const char *nl; (nl = memchr(data + start, '\n', n - start)) != NULL; start = (size_t)(nl - data) + 1) {
    size_t len = (size_t)(nl - data) - start;
    if (!l->dropping && l->part.len == 0) online(r, data + start, len);
    else if (!l->dropping) {
      add(&l->part, data + start, len);
      online(r, l->part.p, l->part.len);
    }
    l->dropping = 0;
    buf_drop(&l->part, l->part.len);
  }
  if (start < n && !l->dropping) {
    if (l->part.len + (n - start) > MAX_LINE) {
      l->dropping = 1;
      buf_drop(&l->part, l->part.len);
      if (report) add(&r->to_client, TOO_LARGE, sizeof TOO_LARGE - 1);
    } else {
      add(&l->part, data + start, n - start);
    }
  }
}

static int pending_find(struct relay *r, const struct buf *key, size_t *at) {
  for (size_t i = 0; i < r->pending.len; i += strlen(r->pending.p + i) + 1) {
    if (strlen(r->pending.p + i) == key->len && memcmp(r->pending.p + i, key->p, key->len) == 0) return *at = i, 1;
  }
  return 0;
}

/* A request sent: its id (canonical, see jscan.h) waits for an answer. Ids past ID_MAX bytes go untracked. */
static void pending_add(struct relay *r, struct span id) {
  struct buf key = {0};
  size_t at;
  if (json_canonical(id, &key, ID_MAX) == 0 && !memchr(key.p, '\0', key.len) && !pending_find(r, &key, &at) && r->pending_count < PENDING_MAX) {
    add(&r->pending, key.p, key.len);
    add(&r->pending, "", 1);
    r->pending_count++;
  }
  buf_free(&key);
}

static void forward(struct relay *r, const char *line, size_t len, const struct span *v) {
  struct span scanned[2];
  if (!v && json_members(line, len, MEMBERS, scanned, 2)) v = scanned;
  if (v && v[0].p && v[1].p) pending_add(r, v[0]);
  add(&r->to_daemon, line, len);
  add(&r->to_daemon, "\n", 1);
}

static void from_client(struct relay *r, const char *line, size_t len) {
  struct span v[2];
  size_t blank = 0;
  while (blank < len && line[blank] && strchr(" \t\r\v\f", line[blank])) blank++;
  if (blank == len) return; /* as line.trim() === '' */
  int object = json_members(line, len, MEMBERS, v, 2);
  if (object && v[0].p && json_string_is(v[1], "initialize")) {
    buf_drop(&r->init_line, r->init_line.len);
    add(&r->init_line, line, len);
  }
  if (object && json_string_is(v[1], "notifications/initialized")) r->initialized = 1;
  if (r->sock >= 0 && !r->replaying) {
    forward(r, line, len, object ? v : NULL);
  } else {
    add(&r->queue, line, len);
    add(&r->queue, "\n", 1);
  }
}

/* Sends what queued while there was no daemon (after the replayed initialize's answer, when there was one). */
static void resumed(struct relay *r, int replayed) {
  struct buf queued = r->queue;
  r->replaying = 0;
  if (replayed && r->initialized) {
    static const char note[] = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
    add(&r->to_daemon, note, sizeof note - 1);
  }
  memset(&r->queue, 0, sizeof r->queue);
  for (size_t at = 0; at < queued.len;) {
    const char *end = memchr(queued.p + at, '\n', queued.len - at);
    forward(r, queued.p + at, (size_t)(end - (queued.p + at)), NULL);
    at = (size_t)(end - queued.p) + 1;
  }
  buf_free(&queued);
}

static void from_daemon(struct relay *r, const char *line, size_t len) {
  struct span v[2];
  if (json_members(line, len, MEMBERS, v, 2) && v[0].p && !v[1].p) {
    struct buf key = {0};
    size_t at;
    if (json_canonical(v[0], &key, ID_MAX) == 0) {
      int replay = r->replaying && key.len == strlen(r->replay_key) && memcmp(key.p, r->replay_key, key.len) == 0;
      if (!replay && pending_find(r, &key, &at)) {
        size_t n = strlen(r->pending.p + at) + 1;
        memmove(r->pending.p + at, r->pending.p + at + n, r->pending.len - at - n);
        r->pending.len -= n;
        r->pending_count--;
      }
      buf_free(&key);
      if (replay) return resumed(r, 1); /* the client initialized once: this answer is not its */
    }
    buf_free(&key);
  }
  add(&r->to_client, line, len);
  add(&r->to_client, "\n", 1);
}

/* Attached (again): replays the client's initialize with an id of the relay's own, or sends the queue. */
static void attached(struct relay *r, int sock, struct buf *rest) {
  struct span v[2];
  r->sock = sock;
  feed(r, &r->from_daemon, rest->p, rest->len, from_daemon, 0);
  if (r->init_line.len && json_members(r->init_line.p, r->init_line.len, MEMBERS, v, 2) && v[0].p) {
    snprintf(r->replay_key, sizeof r->replay_key, "\"engram-relay-init-%d\"", ++r->replays);
    add(&r->to_daemon, r->init_line.p, (size_t)(v[0].p - r->init_line.p));
    add(&r->to_daemon, r->replay_key, strlen(r->replay_key));
    add(&r->to_daemon, v[0].p + v[0].len, r->init_line.len - (size_t)(v[0].p + v[0].len - r->init_line.p));
    add(&r->to_daemon, "\n", 1);
    r->replaying = 1;
  } else {
    resumed(r, 0);
  }
}

static int hello_line(struct relay *r, const struct daemon *d, struct buf *hello) {
  char tail[64];
  snprintf(tail, sizeof tail, ",\"pid\":%ld,\"session\":\"%s\"}\n", (long)getpid(), r->session);
  return buf_str(hello, "{\"engram_attach\":1,\"secret\":", 1 << 20) || json_quote(hello, d->secret.p ? d->secret.p : "", d->secret.len, 1 << 20) ||
         buf_str(hello, ",\"vault\":", 1 << 20) || json_quote(hello, r->vault, strlen(r->vault), 1 << 20) || buf_str(hello, ",\"version\":", 1 << 20) ||
         json_quote(hello, ENGRAM_VERSION, strlen(ENGRAM_VERSION), 1 << 20) || buf_add(hello, tail, strlen(tail) + 1, 1 << 20);
}

/* Finds the daemon and passes the handshake: the socket, or -1 (why set when there was a reason). */
static int find_and_connect(struct relay *r, struct buf *rest, char *pid) {
  struct daemon d = {0};
  struct buf hello = {0};
  int sock = -1;
  enum lookup found = find_daemon(r->state_dir, r->vault, ENGRAM_VERSION, &d, r->why);
  if (found == LOOKUP_FOUND && hello_line(r, &d, &hello) == 0) sock = connect_daemon(&d, hello.p, rest, r->why);
  snprintf(pid, 32, "%s", d.pid);
  if (hello.p) memset(hello.p, 0, hello.len); /* the secret */
  if (d.secret.p) memset(d.secret.p, 0, d.secret.len);
  buf_free(&hello);
  buf_free(&d.secret);
  return sock;
}

/* The daemon went away: answer what was in flight, then look for it again (main loop). */
static void lost(struct relay *r) {
  close(r->sock);
  r->sock = -1;
  r->replaying = 0;
  buf_drop(&r->to_daemon, r->to_daemon.len);
  buf_drop(&r->from_daemon.part, r->from_daemon.part.len);
  r->from_daemon.dropping = 0;
  for (size_t i = 0; i < r->pending.len; i += strlen(r->pending.p + i) + 1) {
    struct buf reply = {0};
    if (buf_str(&reply, "{\"jsonrpc\":\"2.0\",\"id\":", ID_MAX * 2) || buf_str(&reply, r->pending.p + i, ID_MAX * 2) || buf_str(&reply, ",\"error\":{\"code\":-32603,\"message\":", ID_MAX * 2) ||
        json_quote(&reply, STOPPED, strlen(STOPPED), ID_MAX * 2) || buf_str(&reply, "}}\n", ID_MAX * 2))
      out_of_memory();
    add(&r->to_client, reply.p, reply.len);
    buf_free(&reply);
  }
  buf_drop(&r->pending, r->pending.len);
  r->pending_count = 0;
  fputs("engram: lost the engram daemon; looking for it again\n", stderr);
  r->deadline = r->reconnect_ms < 0 ? -1 : now_ms() + r->reconnect_ms;
  r->next_try = now_ms();
  snprintf(r->why, sizeof r->why, "the engram daemon stopped");
}

static void look_again(struct relay *r) {
  struct buf rest = {0};
  char pid[32];
  if (r->deadline >= 0 && now_ms() >= r->deadline) hand_off(r); /* never returns */
  int sock = find_and_connect(r, &rest, pid);
  if (sock >= 0) {
    fprintf(stderr, "engram: attached again to the engram daemon (pid %s)\n", pid);
    attached(r, sock, &rest);
  } else {
    r->next_try = now_ms() + 200;
  }
  buf_free(&rest);
}

/* The client closed stdin: the session is over. */
static void finish(struct relay *r) {
  if (r->sock >= 0) close(r->sock);
  flush_all(1, &r->to_client);
  restore_stdio();
  exit(0);
}

/* Reads what fd has into feed; 1 read, 0 end of input, -1 error (EAGAIN is 1: nothing yet). */
static int take(struct relay *r, int fd, struct lines *l, void (*online)(struct relay *, const char *, size_t), int report) {
  static char chunk[CHUNK];
  ssize_t got = read(fd, chunk, sizeof chunk);
  if (got > 0) feed(r, l, chunk, (size_t)got, online, report);
  return got > 0 || (got < 0 && (errno == EAGAIN || errno == EINTR)) ? 1 : got == 0 ? 0 : -1;
}

/* Writes what fd takes now: 0, or -1 when its reader is gone. */
static int give(int fd, struct buf *b) {
  ssize_t put = write(fd, b->p, b->len);
  if (put > 0) buf_drop(b, (size_t)put);
  return put >= 0 || errno == EAGAIN || errno == EINTR ? 0 : -1;
}

static void loop(struct relay *r) {
  for (;;) {
    struct pollfd p[3];
    int n = 0, in = -1, out = -1, sock = -1, timeout = -1;
    if (r->to_daemon.len < HIGH_WATER && r->queue.len < QUEUE_MAX) p[in = n++] = (struct pollfd){0, POLLIN, 0};
    if (r->to_client.len) p[out = n++] = (struct pollfd){1, POLLOUT, 0};
    if (r->sock >= 0) p[sock = n++] = (struct pollfd){r->sock, (short)((r->to_client.len < HIGH_WATER ? POLLIN : 0) | (r->to_daemon.len ? POLLOUT : 0)), 0};
    else timeout = (int)(r->next_try > now_ms() ? r->next_try - now_ms() : 0);
    if (poll(p, (nfds_t)n, timeout) < 0 && errno != EINTR) finish(r);
    if (out >= 0 && p[out].revents && give(1, &r->to_client) != 0) finish(r); /* the client is gone */
    if (sock >= 0 && (p[sock].revents & (POLLIN | POLLHUP | POLLERR)) && take(r, r->sock, &r->from_daemon, from_daemon, 0) != 1) lost(r);
    else if (sock >= 0 && (p[sock].revents & POLLOUT) && give(r->sock, &r->to_daemon) != 0) lost(r);
    if (in >= 0 && p[in].revents && take(r, 0, &r->from_client, from_client, 1) != 1) finish(r);
    if (r->sock < 0 && now_ms() >= r->next_try) look_again(r);
  }
}

/* JavaScript's Number(text) for the plain decimal forms; NaN for anything else (node then decides). */
static double js_number(const char *text) {
  char *end;
  const char *p = text;
  size_t n;
  while (*p && strchr(" \t\n\r\v\f", *p)) p++;
  n = strlen(p);
  while (n && strchr(" \t\n\r\v\f", p[n - 1])) n--;
  if (n == 0) return 0;
  if ((n == 8 && !strncmp(p, "Infinity", 8)) || (n == 9 && !strncmp(p, "+Infinity", 9))) return INFINITY;
  if (strspn(p, "0123456789+-.eE") < n) return NAN;
  double value = strtod(p, &end);
  return end == p + n ? value : NAN;
}

/* plainServe in src/cli/engram.ts: 0 and the settings for `serve [--vault P] [--no-watch] [--no-index] [--reconnect-wait S]`. */
static int plain_serve(int argc, char **argv, const char **vault, double *seconds) {
  const char *reconnect = "10";
  if (argc < 2 || strcmp(argv[1], "serve") != 0) return -1;
  for (int i = 2; i < argc; i++) {
    const char *arg = argv[i];
    if (!strcmp(arg, "--vault") && i + 1 < argc) *vault = argv[++i];
    else if (!strncmp(arg, "--vault=", 8)) *vault = arg + 8;
    else if (!strcmp(arg, "--reconnect-wait") && i + 1 < argc) reconnect = argv[++i];
    else if (!strncmp(arg, "--reconnect-wait=", 17)) reconnect = arg + 17;
    else if (strcmp(arg, "--no-watch") != 0 && strcmp(arg, "--no-index") != 0) return -1;
  }
  *seconds = js_number(reconnect);
  return *seconds > 0 ? 0 : -1;
}

/* The relay for a plain serve whose daemon answers; -1 to leave it all to node. */
static int start(struct relay *r, int argc, char **argv, struct buf *rest) {
  const char *vault = NULL, *home = getenv("ENGRAM_HOME"), *user_home = getenv("HOME");
  char home_dir[PATH_MAX], pid[32];
  unsigned char random[4];
  double seconds;
  int urandom;
  if (plain_serve(argc, argv, &vault, &seconds) != 0) return -1;
  if (!vault) vault = getenv("ENGRAM_VAULT");
  if (!vault || !*vault) return -1;
  if (!user_home || !*user_home) {
    struct passwd *pw = getpwuid(getuid());
    user_home = pw ? pw->pw_dir : "";
  }
  if (!(home && *home) && join_path(home_dir, sizeof home_dir, user_home, ".engram") == 0) home = home_dir;
  if (!home || locate_state(home, vault, r->vault, sizeof r->vault, r->state_dir, sizeof r->state_dir) != 0) return -1;
  if ((urandom = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) < 0) return -1;
  int got = (int)read(urandom, random, sizeof random);
  close(urandom);
  if (got != (int)sizeof random) return -1;
  snprintf(r->session, sizeof r->session, "%02x%02x%02x%02x", random[0], random[1], random[2], random[3]);
  r->reconnect_ms = seconds > 1e12 ? -1 : (long long)(seconds * 1000);
  return (r->sock = find_and_connect(r, rest, pid)) >= 0 ? 0 : -1; /* node says why not */
}

static void on_signal(int sig) {
  restore_stdio();
  signal(sig, SIG_DFL);
  raise(sig);
}

int main(int argc, char **argv) {
  static struct relay r;
  struct buf rest = {0};
  r.args = argv + 1;
  r.nargs = argc - 1;
  if (start(&r, argc, argv, &rest) != 0) {
    exec_node(r.args, r.nargs);
    return 127;
  }
  signal(SIGPIPE, SIG_IGN);
  for (int fd = 0; fd < 2; fd++) {
    stdio_flags[fd] = fcntl(fd, F_GETFL);
    if (stdio_flags[fd] != -1) fcntl(fd, F_SETFL, stdio_flags[fd] | O_NONBLOCK);
  }
  signal(SIGTERM, on_signal);
  signal(SIGINT, on_signal);
  signal(SIGHUP, on_signal);
  attached(&r, r.sock, &rest);
  buf_free(&rest);
  loop(&r);
  return 0;
}
