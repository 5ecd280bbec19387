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
app.all('*', createRequestHandler({ build, mode: process.env.NODE_ENV }))
const server = app.listen(port, host, () => console.log(`Console on http://localhost:${port}`))
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)))
