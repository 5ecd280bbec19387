// The open-redirect corpus (issue 20): values an attacker puts where the console or the API takes a
// redirect target from the request — `/login?redirect=`, `/redirect/*`, `redirectTo` of /locale and
// /settings, `from` of /bind/<provider>, the sandboxes' return URLs. Each family is a way a browser
// reads a path as another host: dot segments that collapse to `//`, percent-encodings (once, twice,
// mixed case), backslashes, control characters and whitespace browsers drop, unicode and full-width
// slashes, schemes, scheme-relative and userinfo forms, and values far longer than any real path.

const HOST = 'evil.example'

const dotSegments = [
  `/.//${HOST}/phish`,
  `/..//${HOST}/phish`,
  `/././/${HOST}`,
  `/../..//${HOST}`,
  `/a/..//${HOST}`,
  `/a/b/../..//${HOST}`,
  `/a/./..//${HOST}`,
  `/%2e//${HOST}`,
  `/%2E//${HOST}`,
  `/%2e%2e//${HOST}`,
  `/%2E%2E//${HOST}`,
  `/.%2e//${HOST}`,
  `/%2e.//${HOST}`,
  `/a/%2e%2e//${HOST}`,
  `/a/%2e%2E//${HOST}`,
  `/%252e//${HOST}`,
  `/%252e%252e//${HOST}`,
  `/%25252e%25252e//${HOST}`,
  `/.//${HOST}@console.test`,
  `/./\\${HOST}`,
  `/.\\/${HOST}`,
  `/..\\\\${HOST}`,
  `/./%2f/${HOST}`,
  `/...//${HOST}`,
  `/.;//${HOST}`,
  `/.%00.//${HOST}`,
]

const schemeRelative = [
  `//${HOST}`,
  `//${HOST}/phish`,
  `///${HOST}`,
  `////${HOST}`,
  `/\\${HOST}`,
  `\\\\${HOST}`,
  `\\/${HOST}`,
  `/\\/${HOST}`,
  `//\\${HOST}`,
  `//${HOST}:443/`,
  `//${HOST}%2f@console.test`,
  `//console.test@${HOST}`,
  `//console.test%40${HOST}`,
  `//${HOST}?//console.test`,
  `//${HOST}#/console.test`,
]

const absolute = [
  `https://${HOST}/`,
  `http://${HOST}`,
  `HTTPS://${HOST}`,
  `https:${HOST}`,
  `https:/${HOST}`,
  `https:\\\\${HOST}`,
  `http:\\/${HOST}`,
  `ftp://${HOST}`,
  `http://console.test.${HOST}/`,
  `http://console.test@${HOST}/`,
  `http://${HOST}\\@console.test/`,
  `${HOST}`,
  `${HOST}/phish`,
  `.//${HOST}`,
  `./${HOST}`,
  `../${HOST}`,
  `?redirect=//${HOST}`,
  `#//${HOST}`,
]

const scripts = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'javascript://%0aalert(1)',
  'javascript:/\\/%0aalert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  'blob:https://evil.example/1',
]

const encodings = [
  `/%2f/${HOST}`,
  `/%2F%2F${HOST}`,
  `/%5c/${HOST}`,
  `/%5C${HOST}`,
  `%2f%2f${HOST}`,
  `%2F${HOST}`,
  `/%252f%252f${HOST}`,
  `/%09/${HOST}`,
  `/%0d%0a/${HOST}`,
  `/%00/${HOST}`,
  `/%E3%80%82${HOST}`,
  `/%EF%BC%8F${HOST}`,
  `/%u002f${HOST}`,
  `/%c0%af${HOST}`,
  `/%%32%65//${HOST}`,
]

const controls = [
  `/\t/${HOST}`,
  `/\n/${HOST}`,
  `/\r/${HOST}`,
  `/\r\n/${HOST}`,
  `\t//${HOST}`,
  `/\t\t/${HOST}`,
  `/\u0000/${HOST}`,
  `/\u000b/${HOST}`,
  `/\u000c/${HOST}`,
  `/\u001f/${HOST}`,
  `/\u007f/${HOST}`,
  `/\u0085/${HOST}`,
  `/x\r\nLocation: //${HOST}`,
  `/x\r\nSet-Cookie: a=b`,
  `java\tscript:alert(1)`,
  `java\nscript:alert(1)`,
]

const whitespace = [
  `/ /${HOST}`,
  ` //${HOST}`,
  `//${HOST} `,
  `/\u00a0/${HOST}`,
  `/\u2028/${HOST}`,
  `/\u2029/${HOST}`,
  `/\u3000/${HOST}`,
  `/\ufeff/${HOST}`,
  ` javascript:alert(1)`,
]

const unicode = [
  `/／${HOST}`,
  `／／${HOST}`,
  `/\u2215${HOST}`,
  `/\u2044${HOST}`,
  `/\u29f8${HOST}`,
  `/\uff3c${HOST}`,
  `\uff0f\uff0f${HOST}`,
  `/．／${HOST}`,
  `/\u3002/${HOST}`,
  `/％２ｅ//${HOST}`,
  `/\u0338${HOST}`,
  `/${HOST}\u3002`,
  `//evil\u3002example`,
  `//ｅｖｉｌ.example`,
  `//\u212aevil.example`,
]

const userinfo = [`/@${HOST}`, `//@${HOST}`, `/user:pass@${HOST}`, `//user:pass@${HOST}`, `/@/${HOST}`, `@${HOST}`]

const long = [
  `/${'a'.repeat(5000)}`,
  `/.//${'a'.repeat(3000)}.${HOST}`,
  `//${'a'.repeat(100_000)}`,
  `/${'./'.repeat(2000)}/${HOST}`,
  `/${'../'.repeat(2000)}/${HOST}`,
]

/** Every hostile value; none of them may send the browser off the site. */
export const HOSTILE_TARGETS: readonly string[] = [
  ...dotSegments,
  ...schemeRelative,
  ...absolute,
  ...scripts,
  ...encodings,
  ...controls,
  ...whitespace,
  ...unicode,
  ...userinfo,
  ...long,
]

/** Paths of this site that must keep working, and what they become (percent-encoded where needed). */
export const SITE_TARGETS: readonly (readonly [string, string])[] = [
  ['/dashboard/workplace', '/dashboard/workplace'],
  ['/user/setting?from=guard', '/user/setting?from=guard'],
  ['/share/AbCd2345?order=PS20261123000000123456789012#top', '/share/AbCd2345?order=PS20261123000000123456789012#top'],
  ['/system/user-manage?user_name=%E5%BC%A0&pageNum=2', '/system/user-manage?user_name=%E5%BC%A0&pageNum=2'],
  ['/faq/docs', '/faq/docs'],
  ['/a/./b/../c', '/a/c'],
]
