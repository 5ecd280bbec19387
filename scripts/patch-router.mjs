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
// the render), ~9% of the console's CPU in the issue 24 profile (decision 140) — and then tries the
// branches one by one. The branches depend only on the routes array, which on the server is built once
// and never changed (the client's lazy route discovery patches routes in place, so the browser's ES
// module build is left alone), and so do a pathname's matches: both are kept per routes array.
const BRANCHES_MARK = '/* payshare: memoized route branches */'
const BRANCHES = `  let branches = flattenRoutes(routes);
  rankRouteBranches(branches);
`
const BRANCHES_MEMO = `  ${BRANCHES_MARK}
  let memo = __payshareBranches.get(routes);
  if (!memo) {
    let branches = flattenRoutes(routes);
    rankRouteBranches(branches);
    memo = { branches, found: new Map() };
    __payshareBranches.set(routes, memo);
  }
  // The matches of a pathname seen before, as copies: callers get objects of their own (at most 2,000 kept).
  let foundKey = (allowPartial ? '1' : '0') + pathname;
  let found = memo.found.get(foundKey);
  if (found !== undefined) return found && found.map((m) => ({ ...m, params: { ...m.params } }));
  let result = __payshareMatch(memo.branches, pathname, allowPartial);
  if (memo.found.size >= 2000) memo.found.clear();
  memo.found.set(foundKey, result && result.map((m) => ({ ...m, params: { ...m.params } })));
  return result;
}
function __payshareMatch(branches, pathname, allowPartial) {
`
{
  const target = path.join(root, 'node_modules', '@remix-run', 'router', 'dist', 'router.cjs.js')
  const source = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : null
  if (source && !source.includes(BRANCHES_MARK)) {
    if (source.split(BRANCHES).length !== 2) console.warn('patch-router: router.cjs.js has no single flattenRoutes in matchRoutesImpl; left as it is')
    else fs.writeFileSync(target, source.replace(BRANCHES, BRANCHES_MEMO).replace(MARK, `${MARK}\nconst __payshareBranches = new WeakMap();`))
  }
}

// Third and fourth patches (decision 140): the render builds the route tree again for every page —
// Remix's RemixServer calls createServerRoutes, and react-router-dom's createStaticRouter converts those
// to data routes — so the render's matchRoutes got a new array each time and flattened all of them
// again (6% of the share page's CPU). Both depend only on the build's route manifest, the same object
// for every request, and nothing on the server changes them: they are built once per manifest.
const TREE_PATCHES = [
  {
    file: path.join(root, 'node_modules', '@remix-run', 'react', 'dist', 'server.js'),
    mark: '/* payshare: route tree once per manifest */',
    from: '  let routes$1 = routes.createServerRoutes(manifest.routes, routeModules, context.future, context.isSpaMode);\n',
    to: `  /* payshare: route tree once per manifest */
  let routes$1 = __payshareServerRoutes.get(manifest.routes);
  if (!routes$1) {
    routes$1 = routes.createServerRoutes(manifest.routes, routeModules, context.future, context.isSpaMode);
    __payshareServerRoutes.set(manifest.routes, routes$1);
  }
`,
    head: 'function RemixServer({',
    decl: 'const __payshareServerRoutes = new WeakMap();\n',
  },
  {
    file: path.join(root, 'node_modules', 'react-router-dom', 'server.js'),
    mark: '/* payshare: data routes once per route tree */',
    from: '  let manifest = {};\n  let dataRoutes = router.UNSAFE_convertRoutesToDataRoutes(routes, reactRouter.UNSAFE_mapRouteProperties, undefined, manifest);\n',
    to: `  /* payshare: data routes once per route tree */
  let converted = __payshareDataRoutes.get(routes);
  if (!converted) {
    let built = {};
    converted = { manifest: built, dataRoutes: router.UNSAFE_convertRoutesToDataRoutes(routes, reactRouter.UNSAFE_mapRouteProperties, undefined, built) };
    __payshareDataRoutes.set(routes, converted);
  }
  let { manifest, dataRoutes } = converted;
`,
    head: 'function createStaticRouter(routes, context, opts = {}) {',
    decl: 'const __payshareDataRoutes = new WeakMap();\n',
  },
]
for (const p of TREE_PATCHES) {
  if (!fs.existsSync(p.file)) continue
  const source = fs.readFileSync(p.file, 'utf8')
  if (source.includes(p.mark)) continue
  if (source.split(p.from).length !== 2 || source.split(p.head).length !== 2) {
    console.warn(`patch-router: ${path.relative(root, p.file)} is not as expected; left as it is`)
    continue
  }
  fs.writeFileSync(p.file, source.replace(p.from, p.to).replace(p.head, `${p.decl}${p.head}`))
}

// Fifth patch (decision 166): Remix encodes a page's loader data for the browser (turbo-stream) as soon
// as it builds the page's context — with a 5-second timer per page — although only <Scripts> reads it,
// and the visitor pages render no scripts (handle.hydrate false: the share page). 3.2% of the share
// page's CPU went to encoding what no one read. The stream is now encoded when it is first read; pages
// that hydrate read it as before, in the same chunks.
const HANDOFF_MARK = '/* payshare: handoff encoded when read */'
const HANDOFF_HELPER = `${HANDOFF_MARK}
function __payshareWhenRead(open) {
  let reader;
  return new ReadableStream({
    pull: async (controller) => {
      reader ??= open().getReader();
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader?.cancel(reason),
  }, { highWaterMark: 0 });
}
`
for (const [file, call] of [
  ['server.js', 'singleFetch.encodeViaTurboStream(state, request.signal, build.entry.module.streamTimeout, serverMode)'],
  [path.join('esm', 'server.js'), 'encodeViaTurboStream(state, request.signal, build.entry.module.streamTimeout, serverMode)'],
]) {
  const target = path.join(root, 'node_modules', '@remix-run', 'server-runtime', 'dist', file)
  if (!fs.existsSync(target)) continue
  const source = fs.readFileSync(target, 'utf8')
  if (source.includes(HANDOFF_MARK)) continue
  const from = `serverHandoffStream: ${call},`
  const head = 'async function handleDocumentRequest('
  // Twice: the page, and the page of an error boundary.
  if (source.split(from).length !== 3 || source.split(head).length !== 2) {
    console.warn(`patch-router: @remix-run/server-runtime/dist/${file} is not as expected; left as it is`)
    continue
  }
  fs.writeFileSync(target, source.replaceAll(from, `serverHandoffStream: __payshareWhenRead(() => ${call}),`).replace(head, `${HANDOFF_HELPER}${head}`))
}

// Sixth patch (decision 166): before each loader and action, Remix copies the request twice to strip
// its `index` and `_routes` (or `_data`) search parameters — a URL parse, a Request and a dependent
// AbortSignal each time, two or three loaders per page: 3.7% of the share page's CPU. A request with no
// search string and no body has nothing to strip: it is passed on as it is. Any other is copied as before.
const STRIP_MARK = '/* payshare: nothing to strip, nothing copied */'
for (const file of ['data.js', path.join('esm', 'data.js')]) {
  const target = path.join(root, 'node_modules', '@remix-run', 'server-runtime', 'dist', file)
  if (!fs.existsSync(target)) continue
  let source = fs.readFileSync(target, 'utf8')
  if (source.includes(STRIP_MARK)) continue
  const heads = ['stripIndexParam', 'stripDataParam', 'stripRoutesParam'].map((name) => `function ${name}(request) {\n`)
  if (heads.some((head) => source.split(head).length !== 2)) {
    console.warn(`patch-router: @remix-run/server-runtime/dist/${file} is not as expected; left as it is`)
    continue
  }
  for (const head of heads) source = source.replace(head, `${head}  ${STRIP_MARK}\n  if (!request.body && !request.url.includes("?")) return request;\n`)
  fs.writeFileSync(target, source)
}
