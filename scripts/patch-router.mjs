// postinstall: memoize React Router's compilePath (@remix-run/router 1.x, under Remix 2). The router
// compiles every route pattern into a RegExp again on every match — several times per request — and that
// work grows with the number of routes: a CPU profile of the share page put it at ~9% of the console's
// time (issue 6 bench; docs/decisions/044-memoized-route-patterns.md). The compiled pair depends only on
// (path, caseSensitive, end) and is never mutated by its callers, so a cache is safe. Idempotent; a
// router version without the expected function is left alone (and said so).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const MARK = '/* payshare: memoized compilePath */'
const HEAD = 'function compilePath(path, caseSensitive, end) {'
const WRAP = `${MARK}
const __payshareCompiled = new Map();
function compilePath(path, caseSensitive, end) {
  const key = (caseSensitive ? '1' : '0') + (end === false ? '0' : '1') + path;
  let hit = __payshareCompiled.get(key);
  if (!hit) {
    hit = __payshareCompilePath(path, caseSensitive, end);
    if (__payshareCompiled.size < 10000) __payshareCompiled.set(key, hit);
  }
  return hit;
}
function __payshareCompilePath(path, caseSensitive, end) {`

for (const file of ['router.cjs.js', 'router.js']) {
  const target = path.join(root, 'node_modules', '@remix-run', 'router', 'dist', file)
  if (!fs.existsSync(target)) continue
  const source = fs.readFileSync(target, 'utf8')
  if (source.includes(MARK)) continue
  if (source.split(HEAD).length !== 2) {
    console.warn(`patch-router: ${file} has no single compilePath; left as it is`)
    continue
  }
  fs.writeFileSync(target, source.replace(HEAD, WRAP))
}
