// Baseline: a bare Fastify JSON route (no database), the ceiling for /api/share.
// `PUT /answer` (the bench, once) keeps an answer's headers and body; `GET /answer` sends exactly those
// bytes from this bare app: what /api/share's answer alone costs, without any of the API's work (decision 164).
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get('/json', async () => ({ code: 200, msg: 'ok', data: { hello: 'world' } }))
let kept = { headers: {}, body: '' }
app.put('/answer', async (request) => {
  kept = request.body
  return { ok: true }
})
app.get('/answer', async (_request, reply) => reply.headers(kept.headers).send(kept.body))
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
console.log('ready')
