/**
 * Every way a human may mark a note private, as note text (body last, so a test can append a
 * marker). Shared by the privacy unit test and the reliability test against a fake API.
 */
export const PRIVATE_SPELLINGS: Record<string, string> = {
  'lower-list': '---\ntags: [private]\n---\nA.\n',
  'capital-key-list': '---\nTags: [private]\n---\nA.\n',
  'upper-key-string': '---\nTAGS: private\n---\nA.\n',
  'string-among-others': '---\ntags: work, Private, health\n---\nA.\n',
  'block-list': '---\ntags:\n  - work\n  - PRIVATE\n---\nA.\n',
  'singular-key': '---\ntag: private\n---\nA.\n',
  'hash-in-frontmatter': '---\ntags: ["#private"]\n---\nA.\n',
  'nested-tag': '---\ntags: [private/health]\n---\nA.\n',
  'private-flag': '---\nprivate: true\n---\nA.\n',
  'private-flag-yes': '---\nPrivate: yes\n---\nA.\n',
  visibility: '---\nvisibility: private\n---\nA.\n',
  'inline-tag': '# Diary\nToday was hard. #private\n',
  'inline-capital-nested': '# Health\nSee doctor. #Private/Health\n',
  'unparseable-with-tag': '---\ntitle: "unterminated\ntags: [private]\n---\nA.\n',
  'unparseable-anything': '---\ntitle: [a, b\nmood: fine\n---\nA.\n',
  'alias-bomb': `---\na: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n---\nA.\n`,
  'duplicate-keys': '---\ntags: [work]\ntags: [private]\n---\nA.\n',
  'nested-mapping': '---\nmeta:\n  tags: [private]\n---\nA.\n',
  'unclosed-frontmatter': '---\ntags: [private]\nNo closing fence here.\n',
  'crlf-bom': '\uFEFF---\r\nTags: [Private]\r\n---\r\nA.\r\n',
};
