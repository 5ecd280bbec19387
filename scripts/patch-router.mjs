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

// Second patch, the server's CommonJS build only: matchRoutes flattens and ranks every route into
// branches again on each call — three calls per page request (the server runtime, the static handler,
// the render), ~9% of the console's CPU in the issue 24 profile (decision 140). The branches depend only
// on the routes array, which on the server is built once and never changed (the client's lazy route
// discovery patches routes in place, so the browser's ES module build is left alone).
const BRANCHES_MARK = '/* payshare: memoized route branches */'
const BRANCHES = `  let branches = flattenRoutes(routes);
  rankRouteBranches(branches);
`
const BRANCHES_MEMO = `  ${BRANCHES_MARK}
  let branches = __payshareBranches.get(routes);
  if (!branches) {
    branches = flattenRoutes(routes);
    rankRouteBranches(branches);
    __payshareBranches.set(routes, branches);
  }
`
{
  const target = path.join(root, 'node_modules', '@remix-run', 'router', 'dist', 'router.cjs.js')
  const source = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : null
  if (source && !source.includes(BRANCHES_MARK)) {
    if (source.split(BRANCHES).length !== 2) console.warn('patch-router: router.cjs.js has no single flattenRoutes in matchRoutesImpl; left as it is')
    else fs.writeFileSync(target, source.replace(BRANCHES, BRANCHES_MEMO).replace(MARK, `${MARK}\nconst __payshareBranches = new WeakMap();`))
  }
}
