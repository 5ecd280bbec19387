// Summarizes a .cpuprofile: self time by function and by module, inclusive time by function, and a text flame graph.
import fs from 'node:fs'
import path from 'node:path'
const file = process.argv[2]
const minPct = Number(process.argv[3] ?? 1.5)
const p = JSON.parse(fs.readFileSync(file, 'utf8'))
const byId = new Map(p.nodes.map((n) => [n.id, n]))
const parent = new Map()
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
// self time from samples + timeDeltas
const self = new Map()
let total = 0
// Only the samples inside the load's window when the profile's folder holds one (bench/profile-share.mjs).
const windowFile = path.join(path.dirname(file), 'window.json')
const win = fs.existsSync(windowFile) ? JSON.parse(fs.readFileSync(windowFile, 'utf8')) : { from: -Infinity, to: Infinity }
let at = p.startTime
for (let i = 0; i < p.samples.length; i++) {
  const dt = p.timeDeltas[i] ?? 0
  at += dt
  if (at < win.from || at > win.to) continue
  self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + dt)
  total += dt
}
const modOf = (url) => {
  if (!url) return '(native/vm)'
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (m) return m[1]
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0]
  if (url.includes('server/dist')) return 'payshare (server/dist)'
  return url.replace(/^file:\/\/.*\/h26-api\//, '')
}
const fname = (n) => `${n.callFrame.functionName || '(anonymous)'} ${modOf(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`
const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v)
const selfFn = new Map(), selfMod = new Map(), incl = new Map()
for (const [id, t] of self) {
  const n = byId.get(id)
  add(selfFn, fname(n), t)
  add(selfMod, modOf(n.callFrame.url) + (n.callFrame.url ? '' : ' ' + n.callFrame.functionName), t)
  const seen = new Set()
  for (let x = id; x !== undefined; x = parent.get(x)) {
    const k = fname(byId.get(x))
    if (!seen.has(k)) { seen.add(k); add(incl, k, t) }
  }
}
const pct = (t) => ((100 * t) / total).toFixed(1).padStart(5) + '%'
const top = (m, k = 30) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k)
console.log(`total sampled ${(total / 1e6).toFixed(2)} s`)
console.log('\n== self time by module ==')
for (const [k, t] of top(selfMod, 25)) console.log(pct(t), k)
console.log('\n== self time by function ==')
for (const [k, t] of top(selfFn, 35)) console.log(pct(t), k)
console.log('\n== inclusive time by function ==')
for (const [k, t] of top(incl, Number(process.env.TOP ?? 45))) console.log(pct(t), k)
// flame graph: inclusive per node
const inclNode = new Map()
const walk = (id) => { const n = byId.get(id); let t = self.get(id) ?? 0; for (const c of n.children ?? []) t += walk(c); inclNode.set(id, t); return t }
walk(p.nodes[0].id)
console.log(`\n== flame graph (nodes ≥ ${minPct}% inclusive) ==`)
const print = (id, depth) => {
  const n = byId.get(id)
  const t = inclNode.get(id)
  if ((100 * t) / total < minPct) return
  console.log(`${pct(t)} ${'  '.repeat(depth)}${fname(n)}`)
  for (const c of [...(n.children ?? [])].sort((a, b) => inclNode.get(b) - inclNode.get(a))) print(c, depth + 1)
}
print(p.nodes[0].id, 0)
