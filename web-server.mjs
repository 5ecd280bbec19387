// Serves the built console: static assets, then Remix. Like remix-serve, plus the client's address in
// X-Forwarded-For so the API sees who logs in (login records, per-IP limits).
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createRequestHandler } from '@remix-run/express'
import compression from 'compression'
import express from 'express'

const root = path.dirname(fileURLToPath(import.meta.url))
const build = await import(pathToFileURL(path.join(root, 'build/server/index.js')).href)
const port = Number(process.env.PORT ?? 3000)
const host = process.env.HOST ?? '0.0.0.0'
const trustProxy = process.env.TRUST_PROXY === 'true'

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', trustProxy)
app.use(compression())
app.use('/assets', express.static(path.join(root, 'build/client/assets'), { immutable: true, maxAge: '1y' }))
// Other public files (favicon…): only paths that look like files, so page requests never touch the disk.
const publicFiles = express.static(path.join(root, 'build/client'), { maxAge: '1h', index: false })
app.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) ? publicFiles(req, res, next) : next()))
app.use((req, _res, next) => {
  // Behind a trusted proxy keep its chain and add the hop it came from; otherwise the socket is the client.
  const previous = req.headers['x-forwarded-for']
  const socket = req.socket.remoteAddress ?? ''
  req.headers['x-forwarded-for'] = trustProxy && previous ? `${previous}, ${socket}` : socket
  next()
})
// A form posted from another site is answered 403 here, in the visitor's language, before any action
// runs: Remix refuses it too, but with a bare 500 (issue 20). The check is the console's own
// (app/.server/request.ts, exported by the server entry).
const { crossSiteRefusal } = build.entry.module
app.use(async (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next()
  let refusal = null
  try {
    // Only the method and the headers matter (Origin, Sec-Fetch-Site, Host, the locale cookie).
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) for (const v of [value ?? []].flat()) headers.append(name, v)
    refusal = await crossSiteRefusal(new Request('http://console.invalid/', { method: req.method, headers }))
  } catch {
    // A request Fetch cannot even express (a method it forbids): Remix answers it as before.
  }
  if (!refusal) return next()
  res.status(refusal.status)
  refusal.headers.forEach((value, name) => res.setHeader(name, value))
  res.send(await refusal.text())
})
app.all('*', createRequestHandler({ build, mode: process.env.NODE_ENV }))
const server = app.listen(port, host, () => console.log(`Console on http://localhost:${port}`))
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)))
