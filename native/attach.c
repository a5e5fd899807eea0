/* See attach.h. The attach file holds a secret: it is read only after the owner and mode checks. */
#define _XOPEN_SOURCE 700
#include "attach.h"
#include "sha256.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ATTACH_FILE_MAX (1 << 20)
#define ANSWER_MAX (64 * 1024)
#define CONNECT_MS 5000

int join_path(char *out, size_t size, const char *a, const char *b) {
  size_t n = 0, base;
  char joined[2 * PATH_MAX + 2];
  if (snprintf(joined, sizeof joined, "%s/%s", a, b) >= (int)sizeof joined || size < 2) return -1;
  if (joined[0] == '/') out[n++] = '/';
  base = n;
  for (char *seg = joined, *next; *seg; seg = next) {
    size_t len = strcspn(seg, "/");
    next = seg + len + (seg[len] == '/');
    if (len == 0 || (len == 1 && seg[0] == '.')) continue;
    if (len == 2 && seg[0] == '.' && seg[1] == '.') {
      size_t start = n;
      while (start > base && out[start - 1] != '/') start--;
      int last_is_up = n - start == 2 && out[start] == '.' && out[start + 1] == '.';
      if (n > base && !last_is_up) {
        n = start > base ? start - 1 : base;
        continue;
      }
      if (base == 1) continue; /* above the root is the root */
    }
    if (n + (n > base) + len + 1 > size) return -1;
    if (n > base) out[n++] = '/';
    memcpy(out + n, seg, len);
    n += len;
  }
  if (n == 0) out[n++] = '.';
  out[n] = '\0';
  return 0;
}

int locate_state(const char *home, const char *vault, char *real, size_t real_size, char *state_dir, size_t state_size) {
  char hex[65], *resolved = realpath(vault, NULL);
  if (!resolved) return -1;
  int fits = strlen(resolved) < real_size;
  if (fits) strcpy(real, resolved);
  sha256_hex(resolved, strlen(resolved), hex);
  free(resolved);
  hex[12] = '\0';
  return fits ? join_path(state_dir, state_size, home, hex) : -1;
}

/* How JavaScript's String() shows a JSON value read from the file (undefined when absent). */
static void js_text(struct span v, char *out, size_t size) {
  struct buf text = {0};
  if (!v.p) snprintf(out, size, "undefined");
  else if (*v.p == '{') snprintf(out, size, "[object Object]");
  else if ((*v.p == '"' ? json_decode(v, &text, size) : json_canonical(v, &text, size)) == 0) snprintf(out, size, "%.*s", (int)text.len, text.p ? text.p : "");
  else snprintf(out, size, "%.*s", (int)(v.len < size ? v.len : size - 1), v.p);
  buf_free(&text);
}

static int is_number(struct span v) { return v.p && (*v.p == '-' || (*v.p >= '0' && *v.p <= '9')); }

static int read_small(const char *path, struct buf *out) {
  char chunk[4096];
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  ssize_t got = 0;
  if (fd < 0) return -1;
  while ((got = read(fd, chunk, sizeof chunk)) > 0 || (got < 0 && errno == EINTR)) {
    if (got > 0 && buf_add(out, chunk, (size_t)got, ATTACH_FILE_MAX)) break;
  }
  close(fd);
  return got == 0 ? 0 : -1;
}

/* What the file says, once it passed the checks on the file itself. */
static enum lookup check_content(const char *path, const char *vault, const char *version, struct daemon *d, char *why) {
  static const char *const names[] = {"port", "secret", "pid", "vault", "version"};
  struct span v[5];
  struct buf text = {0};
  char shown[WHY_SIZE / 4], given[WHY_SIZE / 4];
  int valid = read_small(path, &text) == 0, object = valid && json_members(text.p ? text.p : "", text.len, names, v, 5);
  enum lookup result = LOOKUP_REFUSED;
  if (valid && !object) valid = json_valid(text.p ? text.p : "", text.len); /* JSON but no object: every member absent */
  if (!valid) {
    snprintf(why, WHY_SIZE, "%s is not valid JSON; remove it and restart `engram daemon`", path);
  } else if (!is_number(v[0]) || !v[1].p || *v[1].p != '"' || !is_number(v[2])) {
    snprintf(why, WHY_SIZE, "%s lacks its address, secret or pid; restart `engram daemon`", path);
  } else {
    double pid = strtod(v[2].p, NULL), port = strtod(v[0].p, NULL);
    js_text(v[2], d->pid, sizeof d->pid);
    if (!(pid >= -2147483648.0 && pid <= 2147483647.0 && pid == (double)(int)pid) || kill((pid_t)pid, 0) != 0) {
      snprintf(why, WHY_SIZE, "the engram daemon recorded in %s (pid %s) is no longer running; start it again with `engram daemon`", path, d->pid);
    } else if (!json_string_is(v[3], vault)) {
      js_text(v[3], shown, sizeof shown);
      snprintf(why, WHY_SIZE, "the engram daemon (pid %s) serves %s, not %s", d->pid, shown, vault);
    } else if (!json_string_is(v[4], version)) {
      js_text(v[4], shown, sizeof shown);
      snprintf(given, sizeof given, "%s", version);
      snprintf(why, WHY_SIZE, "the engram daemon (pid %s) runs Engram %s, this is %s; restart the daemon to share it", d->pid, shown, given);
    } else if (json_decode(v[1], &d->secret, ATTACH_FILE_MAX) == 0) {
      d->port = port >= 0 && port <= 65535 && port == (double)(int)port ? (int)port : -1;
      result = LOOKUP_FOUND;
    }
  }
  buf_free(&text);
  return result;
}

enum lookup find_daemon(const char *state_dir, const char *vault, const char *version, struct daemon *d, char *why) {
  char path[PATH_MAX + 64];
  struct stat st;
  uid_t uid = getuid();
  buf_free(&d->secret);
  if (join_path(path, sizeof path, state_dir, "attach.json") != 0 || lstat(path, &st) != 0) return LOOKUP_ABSENT;
  if (!S_ISREG(st.st_mode)) {
    snprintf(why, WHY_SIZE, "%s is not a regular file; remove it and restart `engram daemon`", path);
  } else if (st.st_uid != uid) {
    snprintf(why, WHY_SIZE, "%s belongs to user %lu, not to you (%lu); its secret is not yours to use — remove it, and run your own `engram daemon`", path, (unsigned long)st.st_uid, (unsigned long)uid);
  } else if ((st.st_mode & 077) != 0) {
    snprintf(why, WHY_SIZE, "%s is readable by others (mode %04o): it holds the daemon's secret; `chmod 600 %s` and restart `engram daemon`", path, (unsigned)(st.st_mode & 0777), path);
  } else {
    return check_content(path, vault, version, d, why);
  }
  return LOOKUP_REFUSED;
}

static long long now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static const char *code_of(int error) {
  switch (error) {
    case ECONNREFUSED: return "ECONNREFUSED";
    case ECONNRESET: return "ECONNRESET";
    case ETIMEDOUT: return "ETIMEDOUT";
    case EHOSTUNREACH: return "EHOSTUNREACH";
    case ENETUNREACH: return "ENETUNREACH";
    case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
    case EPIPE: return "EPIPE";
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    default: return strerror(error);
  }
}

/* Waits for events on fd until the deadline: 1 ready, 0 timed out, -1 error. */
static int wait_for(int fd, short events, long long deadline) {
  for (;;) {
    long long left = deadline - now_ms();
    struct pollfd p = {fd, events, 0};
    if (left <= 0) return 0;
    int ready = poll(&p, 1, (int)left);
    if (ready > 0) return 1;
    if (ready < 0 && errno != EINTR) return -1;
  }
}

/* Reads the answer line; 1 with the line in answer (rest after it), 0 timed out or closed, -1 error. */
static int read_answer(int fd, long long deadline, struct buf *answer, size_t *line_len) {
  char chunk[4096];
  for (;;) {
    char *newline = answer->len ? memchr(answer->p, '\n', answer->len) : NULL;
    if (newline) {
      *line_len = (size_t)(newline - answer->p);
      return 1;
    }
    if (answer->len >= ANSWER_MAX || wait_for(fd, POLLIN, deadline) != 1) return 0;
    ssize_t got = read(fd, chunk, sizeof chunk);
    if (got == 0) return 0;
    if (got < 0 && errno != EINTR && errno != EAGAIN) return -1;
    if (got > 0 && buf_add(answer, chunk, (size_t)got, ANSWER_MAX + sizeof chunk)) return 0;
  }
}

/* Sends the hello line and reads the answer: 0, or -1 with why. */
static int handshake(int fd, const struct daemon *d, const char *hello, long long deadline, struct buf *rest, char *why) {
  static const char *const names[] = {"engram_attach", "reason"};
  struct buf answer = {0};
  struct span v[2];
  size_t sent = 0, len = strlen(hello), line_len = 0;
  char reason[WHY_SIZE / 2];
  int ok = -1;
  while (sent < len) {
    ssize_t put = write(fd, hello + sent, len - sent);
    if (put > 0) sent += (size_t)put;
    else if (put < 0 && errno != EAGAIN && errno != EINTR) break;
    else if (wait_for(fd, POLLOUT, deadline) != 1) break;
  }
  int read = sent == len ? read_answer(fd, deadline, &answer, &line_len) : 0;
  if (sent < len && errno != EAGAIN && errno != EINTR) {
    snprintf(why, WHY_SIZE, "cannot reach the engram daemon (pid %s) on 127.0.0.1:%d: write %s", d->pid, d->port, code_of(errno));
  } else if (read < 0) {
    snprintf(why, WHY_SIZE, "cannot reach the engram daemon (pid %s) on 127.0.0.1:%d: read %s", d->pid, d->port, code_of(errno));
  } else if (read == 0) {
    snprintf(why, WHY_SIZE, "the engram daemon (pid %s) did not answer within %d s", d->pid, CONNECT_MS / 1000);
  } else if (!json_members(answer.p, line_len, names, v, 2) || !json_string_is(v[0], "ok")) {
    if (!v[1].p || (v[1].len == 4 && memcmp(v[1].p, "null", 4) == 0)) snprintf(reason, sizeof reason, "no handshake answer");
    else js_text(v[1], reason, sizeof reason);
    snprintf(why, WHY_SIZE, "the engram daemon (pid %s) refused to attach: %s", d->pid, reason);
  } else {
    ok = buf_add(rest, answer.p + line_len + 1, answer.len - line_len - 1, ANSWER_MAX + 4096);
  }
  buf_free(&answer);
  return ok;
}

int connect_daemon(const struct daemon *d, const char *hello, struct buf *rest, char *why) {
  long long deadline = now_ms() + CONNECT_MS;
  struct sockaddr_in address;
  int fd = socket(AF_INET, SOCK_STREAM, 0), error = 0;
  socklen_t error_len = sizeof error;
  if (fd < 0 || d->port < 0) {
    snprintf(why, WHY_SIZE, "cannot reach the engram daemon (pid %s) on 127.0.0.1:%d: %s", d->pid, d->port, fd < 0 ? code_of(errno) : "not a port");
    if (fd >= 0) close(fd);
    return -1;
  }
  fcntl(fd, F_SETFD, FD_CLOEXEC);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_port = htons((unsigned short)d->port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
    error = errno;
    if (error == EINPROGRESS) {
      int ready = wait_for(fd, POLLOUT, deadline);
      error = ready == 1 ? (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &error_len) == 0 ? error : errno) : ready == 0 ? ETIMEDOUT : errno;
      if (ready == 0) {
        snprintf(why, WHY_SIZE, "the engram daemon (pid %s) did not answer within %d s", d->pid, CONNECT_MS / 1000);
        close(fd);
        return -1;
      }
    }
  }
  if (error != 0) {
    snprintf(why, WHY_SIZE, "cannot reach the engram daemon (pid %s) on 127.0.0.1:%d: connect %s 127.0.0.1:%d", d->pid, d->port, code_of(error), d->port);
  } else if (handshake(fd, d, hello, deadline, rest, why) == 0) {
    return fd;
  }
  close(fd);
  return -1;
}
