// Serves the bare Remix baseline like web-server.mjs serves the console (Express + compression).
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createRequestHandler } from '@remix-run/express'
import compression from 'compression'
import express from 'express'

const root = path.dirname(fileURLToPath(import.meta.url))
const build = await import(pathToFileURL(path.join(root, 'build/server/index.js')).href)
const app = express()
app.use(compression())
app.use('/assets', express.static(path.join(root, 'build/client/assets'), { immutable: true, maxAge: '1y' }))
app.all('*', createRequestHandler({ build, mode: 'production' }))
app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'))
