// Baseline: a bare Fastify JSON route (no database), the ceiling for /api/share.
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get('/json', async () => ({ code: 200, msg: 'ok', data: { hello: 'world' } }))
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
console.log('ready')
