/*
 * The test harness for what the relay computes on its own (test/reliability/native-relay.test.ts):
 *   engram-native-check state HOME VAULT   → the vault's real path and state directory, one a line
 *   engram-native-check scan LINE          → object 0|1, then the canonical id and the method (or -)
 *   engram-native-check sha256 TEXT        → the hex digest
 *   engram-native-check find STATE VAULT VERSION → found, absent, or refused and why
 */
#define _XOPEN_SOURCE 700
#include "attach.h"
#include "sha256.h"
#include <limits.h>
#include <stdio.h>
#include <string.h>

static void show(struct span v) {
  struct buf text = {0};
  if (!v.p) puts("-");
  else if (json_canonical(v, &text, 1 << 20) == 0) printf("%.*s\n", (int)text.len, text.p ? text.p : "");
  else puts("?");
  buf_free(&text);
}

int main(int argc, char **argv) {
  static const char *const names[] = {"id", "method"};
  char hex[65], real[PATH_MAX], state[PATH_MAX + 16];
  struct span v[2];
  if (argc == 3 && !strcmp(argv[1], "sha256")) {
    sha256_hex(argv[2], strlen(argv[2]), hex);
    puts(hex);
  } else if (argc == 4 && !strcmp(argv[1], "state")) {
    if (locate_state(argv[2], argv[3], real, sizeof real, state, sizeof state) != 0) return 1;
    printf("%s\n%s\n", real, state);
  } else if (argc == 3 && !strcmp(argv[1], "scan")) {
    printf("%d\n", json_members(argv[2], strlen(argv[2]), names, v, 2));
    show(v[0]);
    show(v[1]);
  } else if (argc == 5 && !strcmp(argv[1], "find")) {
    static char why[WHY_SIZE];
    struct daemon d = {0};
    enum lookup found = find_daemon(argv[2], argv[3], argv[4], &d, why);
    printf("%s\n%s\n", found == LOOKUP_FOUND ? "found" : found == LOOKUP_ABSENT ? "absent" : "refused", found == LOOKUP_REFUSED ? why : d.pid);
    buf_free(&d.secret);
  } else {
    fputs("usage: engram-native-check sha256 TEXT | state HOME VAULT | scan LINE | find STATE VAULT VERSION\n", stderr);
    return 2;
  }
  return 0;
}
